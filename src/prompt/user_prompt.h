// The user prompt: the task as the model sees it. Built from the TaskSpec WITHOUT its
// hidden workloads: only the timed workload's sizes appear; axes that vary between
// workloads are named as variable, with no other value given.
#pragma once

#include <string>
#include <string_view>

#include "core/contract.h"
#include "core/result.h"
#include "task/spec.h"

namespace ptxbench::prompt {

struct PromptOptions {
  double speedup_target = 1.2;  // the session stops once a correct, audited kernel reaches it
  // The kernel contract the prompt presents (system prompt fragment, entry point, build).
  Contract contract = Contract::native;
};

// extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t
// stream);
std::string entry_signature(const task::TaskSpec& task);

// The tvm-ffi contract's: the includes, `void run(tvm::ffi::TensorView A, ...)` and its export.
std::string tvm_ffi_entry(const task::TaskSpec& task);

// The nvcc command ptxbench builds candidates with (mirrors compile::Compiler::flags); the
// tvm-ffi contract adds the apache-tvm-ffi include folder and -ltvm_ffi; both link -lcuda.
std::string build_command(std::string_view arch, Contract contract = Contract::native);

// "NVIDIA Hopper (H100/H200)" for sm_90a, "NVIDIA Blackwell (B200)" for sm_100a.
std::string arch_title(std::string_view arch);

// "cuBLASLt (bf16 GEMM, fp32 accumulation)" for "cublaslt", ...
std::string baseline_title(std::string_view baseline);

// Error when `arch` is unknown or the task has no targets for it.
Result<std::string> build_user_prompt(const task::TaskSpec& task, std::string_view arch,
                                      const PromptOptions& options = {});

}  // namespace ptxbench::prompt
