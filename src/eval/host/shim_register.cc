// nvcc's registration and launch-configuration glue (crt/host_runtime.h): what the candidate's
// constructor registers (its fat binary, kernel functions and device variables) and the
// <<<...>>> configuration its kernel stubs push and pop. The fat binary itself is never read
// here: the broker loads the device code, which the parent extracted from the shared object.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "eval/host/shim_state.h"

using ptxbench::eval::host::shim::State;

extern "C" {

// Declared here: crt/host_runtime.h is an internal header of nvcc's generated code.
void** __cudaRegisterFatBinary(void* fatCubin);
void __cudaRegisterFatBinaryEnd(void** fatCubinHandle);
void __cudaUnregisterFatBinary(void** fatCubinHandle);
void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                            const char* deviceName, int thread_limit, uint3* tid, uint3* bid,
                            dim3* bDim, dim3* gDim, int* wSize);
void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress,
                       const char* deviceName, int ext, size_t size, int constant, int global);
void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                              const char* deviceName, int ext, size_t size, int constant,
                              int global);
void __cudaRegisterHostVar(void** fatCubinHandle, const char* deviceName, char* hostVar,
                           size_t size);
void __cudaRegisterUnifiedTable(void** fatCubinHandle, void* table);
char __cudaInitModule(void** fatCubinHandle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st* stream);
cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                       void* stream);

void** __cudaRegisterFatBinary(void* fatCubin) {
  return new void*(fatCubin);  // the handle the registrations below name; kept for the process
}

void __cudaRegisterFatBinaryEnd(void**) {}

void __cudaUnregisterFatBinary(void**) {}

void __cudaRegisterFunction(void**, const char* hostFun, char* deviceFun, const char* deviceName,
                            int, uint3*, uint3*, dim3*, dim3*, int*) {
  const char* name = deviceName ? deviceName : deviceFun;
  if (hostFun && name) State::get().registry().add_function(hostFun, name);
}

void __cudaRegisterVar(void**, char* hostVar, char*, const char* deviceName, int, size_t size,
                       int constant, int) {
  if (hostVar && deviceName)
    State::get().registry().add_variable(hostVar, deviceName, size, constant != 0);
}

// Managed variables need memory both sides map, which a process without a GPU cannot have:
// the host pointer stays null (dereferencing it faults in the candidate's own process).
void __cudaRegisterManagedVar(void**, void** hostVarPtrAddress, char*, const char*, int, size_t,
                              int, int) {
  if (hostVarPtrAddress) *hostVarPtrAddress = nullptr;
}

void __cudaRegisterHostVar(void**, const char*, char*, size_t) {}

void __cudaRegisterUnifiedTable(void**, void*) {}

char __cudaInitModule(void**) {
  return 1;
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st* stream) {
  State::get().config_stack().push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                       void* stream) {
  auto& stack = State::get().config_stack();
  if (stack.empty()) return State::get().record(cudaErrorMissingConfiguration);
  const State::LaunchConfig c = stack.back();
  stack.pop_back();
  *gridDim = c.grid;
  *blockDim = c.block;
  *sharedMem = c.shared_mem;
  std::memcpy(stream, &c.stream, sizeof c.stream);
  return cudaSuccess;
}

}  // extern "C"
