// Host-only parts of nvml.h (no NVML, no CUDA): JSON and throttle reason names.
#include "core/text.h"
#include "eval/gpu/nvml.h"

namespace ptxbench::gpu {

std::string describe_throttle_reasons(unsigned long long mask) {
  static const std::pair<unsigned long long, const char*> kNames[] = {
      {0x2, "applications_clocks"}, {0x4, "sw_power_cap"},     {0x8, "hw_slowdown"},
      {0x10, "sync_boost"},         {0x20, "sw_thermal"},      {0x40, "hw_thermal"},
      {0x80, "hw_power_brake"},     {0x100, "display_clocks"},
  };
  std::vector<std::string> names;
  unsigned long long known = 0x1;  // gpu_idle is not a throttle
  for (const auto& [bit, name] : kNames) {
    known |= bit;
    if (mask & bit) names.push_back(name);
  }
  if (mask & ~known) names.push_back("other");
  return names.empty() ? "none" : join(names, ",");
}

Json ClockSample::to_json() const {
  Json j = Json::object();
  auto put = [&j](const char* k, const auto& v) {
    if (v) j[k] = *v;
  };
  put("sm_clock_mhz", sm_clock_mhz);
  put("sm_clock_max_mhz", sm_clock_max_mhz);
  put("power_mw", power_mw);
  put("temperature_c", temperature_c);
  if (throttle_reasons) {
    j["throttle_reasons_mask"] = *throttle_reasons;
    j["throttle_reasons"] = describe_throttle_reasons(*throttle_reasons);
  }
  if (!error.empty()) j["error"] = error;
  return j;
}

}  // namespace ptxbench::gpu
