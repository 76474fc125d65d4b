#include "eval/host/launch_check.h"

#include <cuda.h>

#include <algorithm>
#include <cstring>

namespace ptxbench::eval::host::shim {
namespace {

bool past(std::uint64_t value, std::optional<std::int32_t> limit) {
  return limit && *limit >= 0 && value > static_cast<std::uint64_t>(*limit);
}

bool divides(std::uint32_t cluster, std::uint32_t grid) {
  return cluster == 0 || grid % cluster == 0;
}

}  // namespace

std::optional<std::int32_t> runtime_attribute(const Hello& hello, std::int32_t id) {
  for (const auto& [key, value] : hello.runtime_attributes)
    if (key == id) return value;
  return std::nullopt;
}

cudaError_t check_launch(const LaunchShape& l, const Hello& hello, const Function& f) {
  const Dim3 &g = l.grid, &b = l.block;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0)
    return cudaErrorInvalidConfiguration;
  auto attr = [&](cudaDeviceAttr a) { return runtime_attribute(hello, a); };
  if (past(b.x, attr(cudaDevAttrMaxBlockDimX)) || past(b.y, attr(cudaDevAttrMaxBlockDimY)) ||
      past(b.z, attr(cudaDevAttrMaxBlockDimZ)) || past(g.x, attr(cudaDevAttrMaxGridDimX)) ||
      past(g.y, attr(cudaDevAttrMaxGridDimY)) || past(g.z, attr(cudaDevAttrMaxGridDimZ)))
    return cudaErrorInvalidConfiguration;
  const std::uint64_t threads = std::uint64_t{b.x} * b.y * b.z;
  if (past(threads, attr(cudaDevAttrMaxThreadsPerBlock))) return cudaErrorInvalidConfiguration;
  if (past(threads, f.attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)))
    return cudaErrorLaunchOutOfResources;
  if (past(l.shared_mem, f.attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)))
    return cudaErrorInvalidValue;
  Dim3 cluster = l.cluster;
  if (cluster.x == 0 && cluster.y == 0 && cluster.z == 0) {
    cluster.x = static_cast<std::uint32_t>(
        f.attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH).value_or(0));
    cluster.y = static_cast<std::uint32_t>(
        f.attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT).value_or(0));
    cluster.z = static_cast<std::uint32_t>(
        f.attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH).value_or(0));
  }
  if (!divides(cluster.x, g.x) || !divides(cluster.y, g.y) || !divides(cluster.z, g.z))
    return cudaErrorInvalidClusterSize;
  return cudaSuccess;
}

std::optional<std::string> pack_parameters(const FunctionInfo& info, void** args) {
  std::uint64_t end = 0;
  for (const ParamSlot& p : info.params)
    end = std::max<std::uint64_t>(end, std::uint64_t{p.offset} + p.size);
  if (!info.params.empty() && args == nullptr) return std::nullopt;
  std::string buffer(end, '\0');
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    const ParamSlot& p = info.params[i];
    if (p.size > 0) std::memcpy(buffer.data() + p.offset, args[i], p.size);
  }
  return buffer;
}

}  // namespace ptxbench::eval::host::shim
