// The contract's entry point (docs/kernel-contract.md): a native candidate defines
//   extern "C" void ptxbench_launch(<inputs>, <outputs>, cudaStream_t stream);
// with one DLTensor pointer per tensor of the task, inputs first, in the task's order; a
// tvm-ffi candidate exports `run` with TVM_FFI_DLL_EXPORT_TYPED_FUNC, one tvm::ffi::TensorView
// per tensor in the same order, which the built object exports as __tvm_ffi_run. The
// compile stage checks it twice: the source's declaration before nvcc (its arity and which
// parameters are tensors, outputs, the stream: a GEMM kernel given for an attention task
// has the wrong number of tensors), and the built object's dynamic symbols after it (the
// symbol exists, unmangled). Either failure is a compile_error that says what the task
// expects, never a build that "passed" without anything to call.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/contract.h"
#include "task/spec.h"

namespace ptxbench::compile {

inline constexpr std::string_view kEntryPoint = "ptxbench_launch";
// The symbol TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, ...) defines (tvm/ffi/function.h: `__tvm_ffi_`
// and the export name, C linkage, TVMFFISafeCallType).
inline constexpr std::string_view kTvmFfiEntryPoint = "__tvm_ffi_run";

enum class EntryPointProblem {
  none,             // the declaration and the export match the task
  missing,          // no declaration in the source, or no such symbol in the object
  wrong_signature,  // declared with parameters the task does not have
  not_checked,      // the check did not run (a policy violation or nvcc failing stopped the
                    // compile first): nothing is known about the entry point
};
// "ok", "missing", "wrong_signature", "not_checked" (stored in JSON: stable names).
std::string_view to_string(EntryPointProblem p);
// missing or wrong_signature: the check ran and found the entry point unusable.
bool is_problem(EntryPointProblem p);

struct EntryPointCheck {
  EntryPointProblem problem = EntryPointProblem::none;
  std::string detail;  // what is wrong and the declaration the task expects; empty when none
  bool ok() const { return problem == EntryPointProblem::none; }
};

// `extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
// cudaStream_t stream)` for the task's tensors.
std::string expected_declaration(const task::TaskSpec& task);

// Every declaration or definition of ptxbench_launch in the source (comments and strings
// do not count; written out, not built by a macro) must take one DLTensor pointer per input,
// then per output (not const), then the stream; a tensor parameter named exactly like another
// of the task's tensors (B where A belongs) is out of order.
EntryPointCheck check_entry_declaration(std::string_view source, const task::TaskSpec& task);

// The built object must export ptxbench_launch unmangled (`defined`: its defined dynamic
// symbols, elf_symbols.h).
EntryPointCheck check_entry_export(const std::vector<std::string>& defined,
                                   const task::TaskSpec& task);

// The tvm-ffi contract's counterparts. Its declaration: the source exports `run` with
// TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, F) (written out, not built by another macro); where F names a
// function the source defines (`F`, `ns::F`, `(ns::F)`), every definition must take one
// tvm::ffi::TensorView per tensor of the task, in order, and nothing else. A lambda or a name
// not defined in the file is not judged here: the typed function checks the arguments' count
// and types when called, and the runner reports the error it raises.
std::string expected_tvm_ffi_declaration(const task::TaskSpec& task);
EntryPointCheck check_tvm_ffi_declaration(std::string_view source, const task::TaskSpec& task);
EntryPointCheck check_tvm_ffi_export(const std::vector<std::string>& defined,
                                     const task::TaskSpec& task);

// The check of `contract` (the native one or the tvm-ffi one above).
std::string expected_declaration(const task::TaskSpec& task, Contract contract);
EntryPointCheck check_entry_declaration(std::string_view source, const task::TaskSpec& task,
                                        Contract contract);
EntryPointCheck check_entry_export(const std::vector<std::string>& defined,
                                   const task::TaskSpec& task, Contract contract);

}  // namespace ptxbench::compile
