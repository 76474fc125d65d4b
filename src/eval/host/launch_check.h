// What the CUDA runtime decides synchronously about a kernel launch, decided by the shim
// without a GPU from the broker's Hello (device limits, the function's attributes), and the
// packing of the launch's parameters into the buffer the driver takes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>

#include "eval/host/shim_registry.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host::shim {

struct LaunchShape {
  Dim3 grid, block;
  std::uint64_t shared_mem = 0;  // dynamic shared memory, bytes
  Dim3 cluster{0, 0, 0};         // a cluster-dimension launch attribute; 0: none given
};

// cudaSuccess, or the error the runtime returns for this launch before any work is queued:
//   cudaErrorInvalidConfiguration  a zero extent, a block or grid past the device's limits
//                                  (cudaDevAttrMaxBlockDim*, MaxGridDim*, MaxThreadsPerBlock)
//   cudaErrorLaunchOutOfResources  a block of more threads than the function can run
//                                  (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
//   cudaErrorInvalidValue          dynamic shared memory past the function's maximum
//                                  (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, raised by
//                                  cudaFuncSetAttribute)
//   cudaErrorInvalidClusterSize    a grid that is not a whole number of clusters (the
//                                  attribute's, else the function's compiled cluster shape)
// A limit the Hello does not carry is not checked (the broker's launch still is).
cudaError_t check_launch(const LaunchShape& launch, const Hello& hello, const Function& f);

// The parameters at the offsets of `info` (memcpy(buffer + offset_i, args[i], size_i)); the
// buffer is as long as the last parameter's end. nullopt when `args` is null but the function
// takes parameters.
std::optional<std::string> pack_parameters(const FunctionInfo& info, void** args);

// The value of runtime attribute `id` (cudaDeviceAttr) in the Hello, if it carries it.
std::optional<std::int32_t> runtime_attribute(const Hello& hello, std::int32_t id);

}  // namespace ptxbench::eval::host::shim
