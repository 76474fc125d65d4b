// The compiler driver: candidate source text -> shared object for sm_90a or sm_100a,
// with the source policy check before nvcc, a wall-clock limit, captured size-capped
// logs, the ptxas resource report, the symbol allow-list and load-time/hardening checks
// after linking (allow_list.h, elf_hardening.h), the static SASS census, and a
// content-addressed cache (compile_cache.h).
//
// Candidates are built with `-cudart shared` so that every CUDA runtime call they make is
// an undefined dynamic symbol the allow-list can see (a static runtime would hide them),
// and with -lcuda (the allow-listed driver functions called directly, in both contracts: the
// host process's libcuda.so.1 is ptxbench's shim) but no other library (-ltvm_ffi in the
// TVM-FFI contract). They are linked with -z relro -z now (full
// RELRO), but not with --no-undefined: that would turn an import outside the allow-list
// (say a driver function) into an nvcc link error instead of the allow-list's verdict,
// which says what to use instead.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compile/compile_result.h"
#include "core/contract.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "task/spec.h"

namespace ptxbench::compile {

// The largest candidate source accepted by default (1 MiB; `--max-source-bytes`).
inline constexpr std::size_t kDefaultMaxSourceBytes = std::size_t{1} << 20;

struct CompileOptions {
  std::string arch = "sm_90a";
  // The compile stage's wall-clock limit: the source checks, then nvcc in what is left.
  std::chrono::seconds timeout{180};
  std::size_t max_source_bytes = kDefaultMaxSourceBytes;  // larger: policy_violation
  // The whole candidate's size when `source` is only its beginning: a caller that read a
  // file larger than max_source_bytes only up to max_source_bytes + 1 bytes (so that a
  // multi-GiB file is refused without being read) says how large it is. 0: source.size().
  std::uint64_t source_bytes = 0;
  bool use_cache = true;  // false: always rebuild (and replace the entry)
  std::size_t log_cap_bytes = 64 << 10;
  // false: disallowed imports/exports are still reported (disallowed_symbols, summary) but do
  // not make the outcome policy_violation; for harness tests that must run such kernels
  // (e.g. the side-stream controls). Source-policy violations always stop the compile.
  bool enforce_allow_list = true;
  // The kernel contract (core/contract.h): auto detects it from the source
  // (contract_detect.h). The tvm-ffi contract builds against apache-tvm-ffi (tvm_ffi_install.h)
  // and links libtvm_ffi.
  ContractChoice contract;
};

// The line of `nvcc --version` output that names the release ("Cuda compilation tools, release
// 13.0, V13.0.88"); the last line when none does; "" for no output.
std::string nvcc_release_line(std::string_view version_output);

// "-gencode=arch=compute_90a,code=sm_90a" for "sm_90a"; an Error for an unknown arch.
Result<std::string> gencode_flag(std::string_view arch);

class Compiler {
 public:
  Compiler(Paths paths, ProcessRunner& runner) : paths_(std::move(paths)), runner_(runner) {}

  // An Error only when ptxbench cannot do its job (unknown arch, a task that does not
  // target the arch, nvcc or the disassemblers missing, an unwritable cache). Everything
  // the candidate gets wrong is a CompileResult with outcome policy_violation or compile_error.
  Result<CompileResult> compile(const task::TaskSpec& task, std::string_view source,
                                const CompileOptions& options);

  // The nvcc flags for `arch` and `contract` (everything but nvcc itself, the output and the
  // input). An Error for the tvm-ffi contract where apache-tvm-ffi is not installed.
  Result<std::vector<std::string>> flags(std::string_view arch,
                                         Contract contract = Contract::native);

  // `nvcc --version` output, memoised. The probe ends by `deadline` (at most 60 s): a toolkit
  // that does not answer is an Error of the tool, never a timeout blamed on a kernel.
  Result<std::string> toolkit_version(std::chrono::steady_clock::time_point deadline =
                                          std::chrono::steady_clock::time_point::max());
  // The `--version` output of nvcc, its host compilers (gcc, c++ on PATH) and cuobjdump and
  // nvdisasm (a missing or failing disassembler noted as such), memoised: the compile cache's
  // key covers every tool whose output it keeps. A missing or failing host compiler is an Error.
  Result<std::string> tool_versions(std::chrono::steady_clock::time_point deadline);
  // "\ngcc: <first line of --version>\nc++: ...", or an Error naming the host compiler.
  Result<std::string> host_compiler_versions(std::chrono::steady_clock::time_point deadline);

 private:
  Result<CompileResult> build(const task::TaskSpec& task, std::string_view source,
                              const CompileOptions& options, Contract contract,
                              const std::vector<std::string>& flags, const std::string& key,
                              std::chrono::steady_clock::time_point deadline);
  Result<CompileResult> cached_or_built(const task::TaskSpec& task, std::string_view source,
                                        const CompileOptions& options, Contract contract,
                                        std::chrono::steady_clock::time_point deadline);
  Status analyse(const task::TaskSpec& task, const std::filesystem::path& dir,
                 const std::string& log, std::chrono::steady_clock::time_point deadline,
                 CompileResult& r);
  // The `--version` output of one tool, within `deadline`.
  Result<std::string> probe_version(const std::filesystem::path& tool,
                                    std::chrono::steady_clock::time_point deadline);

  Paths paths_;
  ProcessRunner& runner_;
  std::optional<std::string> version_;
  std::optional<std::string> tool_versions_;
};

// Where dlpack/dlpack.h is: $PTXBENCH_DLPACK_INCLUDE, <root>/.deps/include, /usr/local/include,
// /usr/include. Empty path: it is in /usr/include (no -I needed).
Result<std::filesystem::path> dlpack_include_dir(const Paths& paths);

}  // namespace ptxbench::compile
