#include "eval/peak.h"

#include <string>

#include "core/text.h"

namespace ptxbench::eval {

std::optional<double> dense_bf16_peak_tflops(std::string_view gpu_name) {
  std::string n = to_lower(gpu_name);
  auto has = [&n](std::string_view s) { return n.find(s) != std::string::npos; };
  // Order matters: the more specific names first.
  if (has("h100") && (has("pcie") || has("nvl"))) return has("nvl") ? 835.0 : 756.5;
  if (has("h100") || has("h200") || has("h800") || has("gh200")) return 989.4;  // SXM
  if (has("gb200")) return 2500.0;
  if (has("b200")) return 2250.0;
  return std::nullopt;
}

}  // namespace ptxbench::eval
