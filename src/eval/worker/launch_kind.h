// Launch attributes as the broker reads them: which a candidate may set, what a launch asks of
// the SMs' schedule (the SM load's hook, gpu/sm_load.h) and which function attribute sets a
// cluster shape. Host code, CPU-tested (broker_calls_test.cc).
#pragma once

#include <cstdint>

#include "eval/host_protocol.h"

namespace ptxbench::eval::worker {

// Launch attributes a candidate may set (cudaLaunchAttributeID = CUlaunchAttributeID); the list
// and why the others are refused: launch_kind.cc.
bool allowed_launch_attribute(std::int32_t id);

// What a launch asks of the SMs' schedule: a cooperative grid (every block resident at once),
// clusters of more than kNarrowClusterBlocks blocks (wide_clusters), clusters of 2 (clustered;
// CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, else the function's required shape,
// `function_cluster_blocks` blocks: a cluster's blocks run together in one GPC), or neither. A
// cooperative attribute decides over clusters. Measured beside the half SM load (H100,
// 2026-12-07): clusters of 2 ran (fast.cu's kernel 12), clusters of 4 and 16 waited for the load
// to end (red team leak11/runtime_cluster_width_unseen.cu, cluster16_honest_blamed.cu).
enum class LaunchKind { ordinary, clustered, wide_clusters, cooperative };
inline constexpr std::uint64_t kNarrowClusterBlocks = 2;
LaunchKind launch_kind(const host::Launch& l, std::uint64_t function_cluster_blocks);

// Which axis of a function's required cluster shape a function attribute sets
// (CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: 0, _HEIGHT: 1, _DEPTH: 2); -1 for any other.
int cluster_axis(int attribute);

}  // namespace ptxbench::eval::worker
