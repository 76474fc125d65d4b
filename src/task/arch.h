// The GPU architectures ptxbench judges, and their one name table. A candidate is compiled for
// exactly one of them ("a" targets: their SASS runs only on that compute capability), and the
// GPU stages run it only on a device of that capability (eval/device_arch.h).
#pragma once

#include <optional>
#include <string_view>

namespace ptxbench::task {

enum class Arch {
  sm_90a,   // Hopper: H100, H200 (compute capability 9.0)
  sm_100a,  // Blackwell: B200, GB200 (compute capability 10.0)
};

// Every Arch, in the order above.
inline constexpr Arch kAllArchs[] = {Arch::sm_90a, Arch::sm_100a};

// "sm_90a" | "sm_100a".
std::string_view to_string(Arch arch);

// The Arch named `name` exactly ("sm_90a"); nullopt for any other text.
std::optional<Arch> parse_arch(std::string_view name);

// The compute capability "MAJOR.MINOR" the architecture's SASS runs on: "9.0", "10.0".
std::string_view compute_capability(Arch arch);

// The architecture whose SASS runs on compute capability `cc` ("9.0" -> sm_90a); nullopt for a
// capability ptxbench judges nothing on (8.0, 10.3, 12.0).
std::optional<Arch> arch_for_capability(std::string_view cc);

// "sm_90a (compute capability 9.0: H100, H200), sm_100a (10.0: B200, GB200)": for messages.
std::string_view supported_archs_text();

}  // namespace ptxbench::task
