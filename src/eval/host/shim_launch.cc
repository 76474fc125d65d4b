// Kernel launches: nvcc's stubs (__cudaGetKernel, __cudaLaunchKernel), cudaLaunchKernel and
// cudaLaunchKernelExC, with their per-thread-stream (_ptsz) twins. Each is checked as the
// runtime would check it (launch_check.h), its parameters packed at the Hello's offsets, and
// sent as one Launch frame, with the stream the candidate named.
#include <cuda_runtime_api.h>

#include <cstring>

#include "eval/host/launch_check.h"
#include "eval/host/shim_state.h"

namespace ptxbench::eval::host::shim {
namespace {

static_assert(sizeof(cudaLaunchAttributeValue) == kLaunchAttributeValueBytes);

Dim3 dim(dim3 d) {
  return {d.x, d.y, d.z};
}

struct Attributes {
  const cudaLaunchAttribute* list = nullptr;
  unsigned count = 0;
};

cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, std::size_t shared_mem,
                   cudaStream_t stream, bool per_thread, Attributes attributes = {}) {
  State& s = State::get();
  Function* f = s.registry().function(func);
  if (!f) return s.record(cudaErrorInvalidDeviceFunction);
  if (const cudaError_t e = s.may_send()) return s.record(e);
  if (!f->info) return s.record(cudaErrorInvalidDeviceFunction);
  if (attributes.count > 0 && attributes.list == nullptr) return s.record(cudaErrorInvalidValue);
  Launch m;
  m.function = f->name;
  m.grid = dim(grid);
  m.block = dim(block);
  m.shared_mem = shared_mem;
  m.stream = stream_value(stream, per_thread);
  LaunchShape shape{m.grid, m.block, shared_mem};
  for (unsigned i = 0; i < attributes.count; ++i) {
    const cudaLaunchAttribute& a = attributes.list[i];
    if (a.id == cudaLaunchAttributeClusterDimension)
      shape.cluster = {a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
    LaunchAttribute out;
    out.id = static_cast<std::int32_t>(a.id);
    out.value.assign(reinterpret_cast<const char*>(&a.val), sizeof a.val);
    m.attributes.push_back(std::move(out));
  }
  if (const cudaError_t e = check_launch(shape, *s.hello(), *f)) return s.record(e);
  std::optional<std::string> params = pack_parameters(*f->info, args);
  if (!params) return s.record(cudaErrorInvalidValue);
  m.params = std::move(*params);
  s.send_work(MsgType::launch, encode(m));
  return cudaSuccess;
}

cudaError_t launch_ex(const cudaLaunchConfig_t* config, const void* func, void** args,
                      bool per_thread) {
  if (config == nullptr) return State::get().record(cudaErrorInvalidValue);
  return launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                config->stream, per_thread, {config->attrs, config->numAttrs});
}

}  // namespace
}  // namespace ptxbench::eval::host::shim

using ptxbench::eval::host::shim::Function;
using ptxbench::eval::host::shim::launch;
using ptxbench::eval::host::shim::launch_ex;
using ptxbench::eval::host::shim::State;

extern "C" {

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                               size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                    size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                  size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func,
                                     void** args);

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  Function* f = State::get().registry().function(func);
  if (!f || !kernel) return State::get().record(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(f->handle()));
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                               size_t sharedMem, cudaStream_t stream) {
  return launch(kernel, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                    size_t sharedMem, cudaStream_t stream) {
  return launch(kernel, gridDim, blockDim, args, sharedMem, stream, true);
}

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                             size_t sharedMem, cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream, true);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return launch_ex(config, func, args, false);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func,
                                     void** args) {
  return launch_ex(config, func, args, true);
}

}  // extern "C"
