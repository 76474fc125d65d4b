// The source policy check, run before nvcc: a candidate may not use the header-only banned
// libraries (CUTLASS, CuTe, cudnn-frontend: their headers or namespaces) or escape the harness
// (dynamic loading,
// spawning processes, raw system calls, file or network I/O, linker pragmas, calling
// driver functions other than tensor-map encoding, redefining ptxbench or CUDA runtime
// internals). Comments and string literals are scrubbed first (source_scrub.h), so only
// code counts; includes, asm bodies and driver entry-point names are checked on purpose.
// cuBLAS, cuBLASLt and cuDNN are refused where they are used, by the built object's imports
// (allow_list.h): a left-over `#include <cublas_v2.h>` that nothing calls compiles and is
// judged, as it would be with cuBLAS's functions unused in any real build.
//
// Includes are confined to headers found by their usual relative names in the compiler's
// include directories (the CUDA toolkit, the C/C++ standard library, DLPack): an absolute
// path, `..`, a computed include, #embed, `#pragma GCC dependency` or an assembler `.incbin`
// would read another file of the judging machine (and show its lines in the compiler's error
// to a model). The compiler itself also runs in a Landlock view of those directories
// (compiler_view.h), so this rule says early and clearly what the view enforces anyway.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::compile {

// Stable rule names (stored in results and shown to the model).
namespace rule {
inline constexpr std::string_view banned_library = "banned_library";
inline constexpr std::string_view link_pragma = "link_pragma";
inline constexpr std::string_view dynamic_loading = "dynamic_loading";
inline constexpr std::string_view process_spawn = "process_spawn";
inline constexpr std::string_view raw_syscall = "raw_syscall";
inline constexpr std::string_view file_io = "file_io";
inline constexpr std::string_view network_io = "network_io";
inline constexpr std::string_view driver_entry_point = "driver_entry_point";
inline constexpr std::string_view ptxbench_internals = "ptxbench_internals";
inline constexpr std::string_view include_path = "include_path";
inline constexpr std::string_view source_size = "source_size";
}  // namespace rule

struct PolicyViolation {
  int line = 0;         // 1-based line in the candidate source
  std::string rule;     // one of rule::*
  std::string text;     // the offending source line, trimmed (capped)
  std::string message;  // why it is banned and what to do instead
};

// Every violation, ordered by line; one per (line, rule).
std::vector<PolicyViolation> check_source_policy(std::string_view source);

// The same, stopping at `deadline`: then timed_out is set and the violations are those found
// so far (the caller gives a timeout verdict, not a pass).
struct PolicyCheck {
  std::vector<PolicyViolation> violations;
  bool timed_out = false;
};
PolicyCheck check_source_policy(std::string_view source,
                                std::chrono::steady_clock::time_point deadline);

// A violation (line 0, rule source_size) when a source of `source_bytes` bytes is longer than
// `max_bytes` (a size, so that a file too large to read whole is checked without reading it).
std::optional<PolicyViolation> check_source_size(std::uint64_t source_bytes, std::size_t max_bytes);

// "line 12: banned_library: CUTLASS ... : `#include <cute/tensor.hpp>`"
std::string describe(const PolicyViolation& v);

}  // namespace ptxbench::compile
