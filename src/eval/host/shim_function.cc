// The candidate's kernel functions: their attributes (cudaFuncGetAttributes, answered from the
// Hello; cudaFuncSetAttribute, applied by the broker) and the occupancy queries about them
// (cudaOccupancy*, answered by the broker).
#include "eval/host/shim_function.h"

#include <cuda.h>

#include "eval/host/launch_check.h"
#include "eval/host/shim_state.h"

namespace ptxbench::eval::host::shim {
namespace {

Dim3 dim(dim3 d) {
  return {d.x, d.y, d.z};
}

// The function `func` names with its Hello information, or the error the runtime returns.
cudaError_t known(const void* func, Function** out) {
  State& s = State::get();
  Function* f = s.registry().function(func);
  if (!f) return cudaErrorInvalidDeviceFunction;
  if (!s.hello()) return cudaErrorInitializationError;
  if (!f->info) return cudaErrorInvalidDeviceFunction;
  *out = f;
  return cudaSuccess;
}

// An occupancy query; `value` receives the broker's answer.
cudaError_t occupancy(const void* func, Occupancy q, std::uint64_t* value) {
  State& s = State::get();
  Function* f = nullptr;
  if (const cudaError_t e = known(func, &f)) return s.record(e);
  if (const cudaError_t e = s.may_send()) return s.record(e);
  q.function = f->name;
  const ReplyMsg r = s.request(MsgType::occupancy, encode(q));
  if (r.status == cudaSuccess) *value = r.value;
  return s.record(static_cast<cudaError_t>(r.status));
}

cudaError_t cluster_query(const void* func, const cudaLaunchConfig_t* config, OccupancyQuery kind,
                          int* out) {
  if (!config || !out) return State::get().record(cudaErrorInvalidValue);
  Occupancy q;
  q.query = kind;
  q.grid = dim(config->gridDim);
  q.block = dim(config->blockDim);
  q.dynamic_smem = config->dynamicSmemBytes;
  for (unsigned i = 0; i < config->numAttrs && config->attrs; ++i)
    q.attributes.push_back({static_cast<std::int32_t>(config->attrs[i].id),
                            std::string(reinterpret_cast<const char*>(&config->attrs[i].val),
                                        sizeof config->attrs[i].val)});
  std::uint64_t v = 0;
  const cudaError_t e = occupancy(func, q, &v);
  if (e == cudaSuccess) *out = static_cast<int>(v);
  return e;
}

int attr(const Function& f, std::int32_t id) {
  return f.attribute(id).value_or(0);
}

}  // namespace

cudaError_t set_function_attribute(Function& f, std::int32_t attribute, std::int32_t value) {
  State& s = State::get();
  if (!s.hello()) return cudaErrorInitializationError;
  if (!f.info) return cudaErrorInvalidDeviceFunction;
  if (const cudaError_t e = s.may_send()) return e;
  const ReplyMsg r =
      s.request(MsgType::func_set_attribute, encode(FuncSetAttribute{f.name, attribute, value}));
  if (r.status == cudaSuccess) f.attributes[attribute] = value;
  return static_cast<cudaError_t>(r.status);
}

}  // namespace ptxbench::eval::host::shim

using ptxbench::eval::host::shim::Function;
using ptxbench::eval::host::shim::State;
namespace shim = ptxbench::eval::host::shim;
namespace host = ptxbench::eval::host;

extern "C" {

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  Function* f = State::get().registry().function(func);
  if (!f) return State::get().record(cudaErrorInvalidDeviceFunction);
  return State::get().record(shim::set_function_attribute(*f, attr, value));
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* out, const void* func) {
  Function* f = nullptr;
  if (const cudaError_t e = shim::known(func, &f)) return State::get().record(e);
  if (!out) return State::get().record(cudaErrorInvalidValue);
  *out = cudaFuncAttributes{};
  out->sharedSizeBytes = static_cast<size_t>(shim::attr(*f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  out->constSizeBytes = static_cast<size_t>(shim::attr(*f, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES));
  out->localSizeBytes = static_cast<size_t>(shim::attr(*f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
  out->maxThreadsPerBlock = shim::attr(*f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  out->numRegs = shim::attr(*f, CU_FUNC_ATTRIBUTE_NUM_REGS);
  out->ptxVersion = shim::attr(*f, CU_FUNC_ATTRIBUTE_PTX_VERSION);
  out->binaryVersion = shim::attr(*f, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  out->cacheModeCA = shim::attr(*f, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA);
  out->maxDynamicSharedSizeBytes = shim::attr(*f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  out->preferredShmemCarveout = shim::attr(*f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
  out->clusterDimMustBeSet = shim::attr(*f, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET);
  out->requiredClusterWidth = shim::attr(*f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);
  out->requiredClusterHeight = shim::attr(*f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT);
  out->requiredClusterDepth = shim::attr(*f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH);
  out->clusterSchedulingPolicyPreference =
      shim::attr(*f, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE);
  out->nonPortableClusterSizeAllowed =
      shim::attr(*f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags) {
  if (!numBlocks) return State::get().record(cudaErrorInvalidValue);
  host::Occupancy q;
  q.query = host::OccupancyQuery::max_active_blocks;
  q.block_size = blockSize;
  q.dynamic_smem = dynamicSMemSize;
  q.flags = flags;
  std::uint64_t v = 0;
  const cudaError_t e = shim::occupancy(func, q, &v);
  if (e == cudaSuccess) *numBlocks = static_cast<int>(v);
  return e;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func,
                                                          int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func,
                                                      int numBlocks, int blockSize) {
  if (!dynamicSmemSize) return State::get().record(cudaErrorInvalidValue);
  host::Occupancy q;
  q.query = host::OccupancyQuery::available_dynamic_smem;
  q.num_blocks = numBlocks;
  q.block_size = blockSize;
  std::uint64_t v = 0;
  const cudaError_t e = shim::occupancy(func, q, &v);
  if (e == cudaSuccess) *dynamicSmemSize = static_cast<size_t>(v);
  return e;
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int* clusterSize, const void* func,
                                                 const cudaLaunchConfig_t* launchConfig) {
  return shim::cluster_query(func, launchConfig, host::OccupancyQuery::max_potential_cluster_size,
                             clusterSize);
}

cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, const void* func,
                                           const cudaLaunchConfig_t* launchConfig) {
  return shim::cluster_query(func, launchConfig, host::OccupancyQuery::max_active_clusters,
                             numClusters);
}

}  // extern "C"
