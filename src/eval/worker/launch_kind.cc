#include "eval/worker/launch_kind.h"

#include <cuda.h>

#include <algorithm>
#include <cstring>

namespace ptxbench::eval::worker {

// Launch attributes a candidate may set (cudaLaunchAttributeID = CUlaunchAttributeID): how its
// blocks are grouped and scheduled. Refused: access-policy windows (persisting L2 lines outlive
// the call and change what the next timed run finds), stream synchronisation policies, events
// (programmatic and completion: objects the harness owns), graph-node updates and anything
// newer than this list.
bool allowed_launch_attribute(std::int32_t id) {
  switch (id) {
    case CU_LAUNCH_ATTRIBUTE_IGNORE:
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      return true;
    default:
      return false;
  }
}

LaunchKind launch_kind(const host::Launch& l, std::uint64_t function_cluster_blocks) {
  std::uint64_t cluster = function_cluster_blocks;
  for (const auto& a : l.attributes) {
    if (a.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && a.value.size() >= sizeof(std::int32_t)) {
      std::int32_t on = 0;
      std::memcpy(&on, a.value.data(), sizeof on);
      if (on != 0) return LaunchKind::cooperative;
    }
    std::uint32_t dim[3] = {1, 1, 1};
    if (a.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION && a.value.size() >= sizeof dim) {
      std::memcpy(dim, a.value.data(), sizeof dim);
      cluster = std::max<std::uint64_t>(cluster, std::uint64_t{std::max(dim[0], 1u)} *
                                                     std::max(dim[1], 1u) * std::max(dim[2], 1u));
    }
  }
  if (cluster > kNarrowClusterBlocks) return LaunchKind::wide_clusters;
  return cluster > 1 ? LaunchKind::clustered : LaunchKind::ordinary;
}

int cluster_axis(int attribute) {
  switch (attribute) {
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
      return 0;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
      return 1;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
      return 2;
    default:
      return -1;
  }
}

}  // namespace ptxbench::eval::worker
