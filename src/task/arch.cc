#include "task/arch.h"

namespace ptxbench::task {

std::string_view to_string(Arch arch) {
  switch (arch) {
    case Arch::sm_90a:
      return "sm_90a";
    case Arch::sm_100a:
      return "sm_100a";
  }
  return "?";
}

std::string_view compute_capability(Arch arch) {
  switch (arch) {
    case Arch::sm_90a:
      return "9.0";
    case Arch::sm_100a:
      return "10.0";
  }
  return "?";
}

std::optional<Arch> parse_arch(std::string_view name) {
  for (Arch a : kAllArchs)
    if (to_string(a) == name) return a;
  return std::nullopt;
}

std::optional<Arch> arch_for_capability(std::string_view cc) {
  for (Arch a : kAllArchs)
    if (compute_capability(a) == cc) return a;
  return std::nullopt;
}

std::string_view supported_archs_text() {
  return "sm_90a (compute capability 9.0: H100, H200) and sm_100a (compute capability 10.0: "
         "B200, GB200)";
}

}  // namespace ptxbench::task
