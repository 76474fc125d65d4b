// What `compile`, `eval` and `audit` read before any work: the kernel file, the task,
// and an architecture the task is defined for. Every failure here is bad input (exit 2).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "core/contract.h"
#include "core/paths.h"
#include "core/result.h"
#include "task/spec.h"

namespace ptxbench::cli {

// `eval`/`audit --reply`: the largest reply file read (its code block is then the source, held to
// --max-source-bytes as in `run`).
inline constexpr std::size_t kMaxReplyBytes = std::size_t{64} << 20;

struct CandidateInput {
  std::string source;              // the whole file, or its first max_source_bytes + 1 bytes
  std::uint64_t source_bytes = 0;  // the file's size (compile::CompileOptions::source_bytes)
  bool whole = false;              // `source` is the whole file (it was within the bound)
  task::TaskSpec spec;
};

// The options each of those commands takes: the kernel file, --task and --arch. `task_required`
// false: the command has another way to name the task (eval --task-config); returns --task.
CLI::Option* add_candidate_options(CLI::App& sub, std::string& file, std::string& task,
                                   std::string& arch, bool task_required = true);
// --max-source-bytes: the largest candidate source the compile stage accepts.
void add_source_limit_option(CLI::App& sub, std::size_t& max_source_bytes);
// --contract native|tvm-ffi|auto (core/contract.h), into `choice`; `help` says what it decides
// for this command.
void add_contract_option(CLI::App& sub, ContractChoice& choice, const std::string& help);
// The help of compile, eval and audit: the contract the kernel is built, checked and called in.
inline constexpr char kCandidateContractHelp[] =
    "the kernel contract: native (extern \"C\" ptxbench_launch), tvm-ffi (`run` exported with "
    "TVM_FFI_DLL_EXPORT_TYPED_FUNC), or auto: tvm-ffi when the file includes <tvm/ffi/...> or "
    "uses TVM_FFI_DLL_EXPORT_TYPED_FUNC, else native";

// The kernel file must be a regular file (not a folder, a device or a pipe). A file larger
// than `max_source_bytes` is not read whole (its size is checked first): the compile stage
// refuses it from source_bytes, without reading gigabytes.
// `given`: the task itself (imported: eval --task-config) instead of `task` by name.
Result<CandidateInput> load_candidate_input(const Paths& paths, const std::string& file,
                                            const std::string& task, const std::string& arch,
                                            std::size_t max_source_bytes,
                                            const task::TaskSpec* given = nullptr);

}  // namespace ptxbench::cli
