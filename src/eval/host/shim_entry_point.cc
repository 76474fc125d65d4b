// cudaGetDriverEntryPoint(ByVersion) and their _ptsz twins: a name on the driver allow-list
// (compile/driver_allow_list.h) gives the shim's own implementation (shim_driver.h); any other
// name, however it was assembled, ends the process as the worker's lookup guard does (the
// refusal line, exit 87), after telling the broker (RefusedDriverFunction).
#include <cuda_runtime_api.h>

#include "eval/host/shim_driver.h"
#include "eval/host/shim_state.h"

namespace ptxbench::eval::host::shim {
namespace {

cudaError_t lookup(const char* symbol, void** fn, cudaDriverEntryPointQueryResult* status) {
  if (!symbol) return State::get().record(cudaErrorInvalidValue);
  void* entry = driver_entry(symbol);
  if (!entry) refuse_driver_function(symbol);
  if (!fn) return State::get().record(cudaErrorInvalidValue);
  *fn = entry;
  if (status) *status = cudaDriverEntryPointSuccess;
  return cudaSuccess;
}

}  // namespace
}  // namespace ptxbench::eval::host::shim

namespace shim = ptxbench::eval::host::shim;

extern "C" {

cudaError_t cudaGetDriverEntryPoint_ptsz(const char* symbol, void** funcPtr,
                                         unsigned long long flags,
                                         cudaDriverEntryPointQueryResult* driverStatus);
cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char* symbol, void** funcPtr,
                                                  unsigned int cudaVersion,
                                                  unsigned long long flags,
                                                  cudaDriverEntryPointQueryResult* driverStatus);

cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** funcPtr, unsigned long long,
                                    cudaDriverEntryPointQueryResult* driverStatus) {
  return shim::lookup(symbol, funcPtr, driverStatus);
}

cudaError_t cudaGetDriverEntryPoint_ptsz(const char* symbol, void** funcPtr, unsigned long long,
                                         cudaDriverEntryPointQueryResult* driverStatus) {
  return shim::lookup(symbol, funcPtr, driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** funcPtr, unsigned int,
                                             unsigned long long,
                                             cudaDriverEntryPointQueryResult* driverStatus) {
  return shim::lookup(symbol, funcPtr, driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char* symbol, void** funcPtr, unsigned int,
                                                  unsigned long long,
                                                  cudaDriverEntryPointQueryResult* driverStatus) {
  return shim::lookup(symbol, funcPtr, driverStatus);
}

}  // extern "C"
