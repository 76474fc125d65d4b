// LibraryPlan: which of the vendor library's plans the baseline runs (eval/gpu/baseline.h).
//   fastest    the fastest plan, timed on the session's own tensors (plan_choice.h; the default:
//              a speedup against a library slower than what a user gets from PyTorch is
//              inflated, issue 14). cuBLASLt: of up to 8 heuristic algorithms; cuDNN SDPA: of
//              every execution plan heuristic mode A proposes that builds.
//   heuristic  the library heuristic's first choice, untimed: what ptxbench measured against
//              before 2026-12-01; for comparing with results made then
//              (bench/compare_judges.sh).
// No CUDA here: the CPU side of the protocol carries it (session_protocol.h).
#pragma once

#include <optional>
#include <string_view>

namespace ptxbench::gpu {

enum class LibraryPlan { fastest, heuristic };
inline constexpr LibraryPlan kLibraryPlans[] = {LibraryPlan::fastest, LibraryPlan::heuristic};

inline std::string_view to_string(LibraryPlan p) {
  switch (p) {  // a plan added without its name is a compile error (-Wswitch)
    case LibraryPlan::fastest:
      return "fastest";
    case LibraryPlan::heuristic:
      return "heuristic";
  }
  return "fastest";
}

// The names (`--library-plan`, the stored judging settings) of kLibraryPlans.
inline std::optional<LibraryPlan> library_plan_from_string(std::string_view s) {
  for (LibraryPlan p : kLibraryPlans)
    if (to_string(p) == s) return p;
  return std::nullopt;
}

}  // namespace ptxbench::gpu
