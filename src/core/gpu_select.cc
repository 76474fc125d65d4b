#include "core/gpu_select.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/text.h"

namespace ptxbench {

namespace {

// The entries of a CUDA_VISIBLE_DEVICES list that CUDA uses: up to the first empty or negative one
// (CUDA stops there).
std::vector<std::string> usable_ids(const char* visible) {
  std::vector<std::string> ids;
  for (const auto& id : split(visible, ',')) {
    const std::string_view t = trim(id);
    if (t.empty() || t[0] == '-') break;
    ids.emplace_back(t);
  }
  return ids;
}

}  // namespace

std::string visible_device_for(int index, const char* parent_visible) {
  if (parent_visible && *parent_visible) {
    const std::vector<std::string> ids = usable_ids(parent_visible);
    if (index >= 0 && static_cast<std::size_t>(index) < ids.size()) return ids[index];
    return "-1";  // hides every GPU: never one the parent was not given
  }
  return std::to_string(index);
}

void pin_to_gpu(std::map<std::string, std::string>& env, int device) {
  if (device >= 0)
    env["CUDA_VISIBLE_DEVICES"] = visible_device_for(device, std::getenv("CUDA_VISIBLE_DEVICES"));
}

int visible_gpu_count(const char* parent_visible, int machine_gpus) {
  if (machine_gpus < 0) return -1;
  if (!parent_visible) return machine_gpus;
  const int n = static_cast<int>(usable_ids(parent_visible).size());
  return n < machine_gpus ? n : machine_gpus;
}

int machine_gpu_count() {
  std::error_code ec;
  std::filesystem::directory_iterator it("/proc/driver/nvidia/gpus", ec);
  if (ec) return -1;
  int n = 0;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) ++n;
  return n;
}

}  // namespace ptxbench
