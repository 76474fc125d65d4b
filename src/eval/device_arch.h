// Which architecture the GPU of this machine runs, asked of the device itself (issue 36, item 5).
//
// ptxbench never links CUDA, so it asks its GPU worker (`ptxbench-worker --compute-capability`,
// which prints "MAJOR.MINOR NAME" of device 0 as CUDA_VISIBLE_DEVICES leaves it) and maps the
// compute capability to the one target ptxbench judges there: 9.0 (Hopper: H100, H200) runs
// sm_90a, 10.0 (Blackwell: B200, GB200) runs sm_100a. "a" targets run only on their exact
// compute capability, so any other GPU (8.x, 10.3, 12.x) runs neither: candidates there get
// the static stages only, with the reason. Candidates of the other architecture likewise.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "task/arch.h"

namespace ptxbench::eval {

// What the probe found: the GPU's target (empty when ptxbench judges none there) and, always,
// words for the reports ("NVIDIA H200, compute capability 9.0").
struct DeviceArch {
  std::optional<task::Arch> arch;  // none: ptxbench judges no target on this GPU
  std::string description;         // the device's name and compute capability
  std::string why_none;            // when arch is none: why no target runs there, what to do
};

// "9.0" -> sm_90a, "10.0" -> sm_100a (task::arch_for_capability); for any other an Error that
// names the capability and the ones ptxbench supports.
Result<task::Arch> arch_for_compute_capability(std::string_view cc);

// Reads the probe's output "MAJOR.MINOR NAME" (NAME may hold spaces). An Error for other text.
Result<DeviceArch> parse_device_probe(std::string_view output);

// Runs `worker --compute-capability` (limit 60 s: a CUDA context starts) and reads its answer.
// An Error (cause environment: the machine's) when the worker cannot be started, fails, or says
// something else.
Result<DeviceArch> probe_device_arch(ProcessRunner& runner, const std::filesystem::path& worker);

}  // namespace ptxbench::eval
