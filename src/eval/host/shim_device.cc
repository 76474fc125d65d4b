// The device, the versions and the errors, answered from the broker's Hello: cudaGetDevice,
// cudaSetDevice (device 0, the only one), cudaGetDeviceProperties(_v2), cudaDeviceGetAttribute,
// cudaDriverGetVersion, cudaRuntimeGetVersion, cudaGetErrorName/String, and the last error
// (cudaGetLastError clears it, cudaPeekAtLastError does not). Before the Hello (the candidate's
// constructors) a query that needs it fails with cudaErrorInitializationError.
#include <cuda_runtime_api.h>

#include <cstring>

#include "eval/host/shim_state.h"

namespace ptxbench::eval::host::shim {
namespace {

constexpr char kUnrecognised[] = "unrecognized error code";

// The Hello's text for runtime error `code` (name or description), or nullptr.
const char* error_text(cudaError_t code, bool name) {
  const Hello* h = State::get().hello();
  if (!h) return nullptr;
  for (const ErrorText& e : h->runtime_errors)
    if (e.code == static_cast<std::int32_t>(code)) return name ? e.name.c_str() : e.text.c_str();
  return nullptr;
}

}  // namespace
}  // namespace ptxbench::eval::host::shim

namespace shim = ptxbench::eval::host::shim;
using shim::State;

extern "C" {

cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp* prop, int device);

cudaError_t cudaGetDevice(int* device) {
  if (!device) return State::get().record(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : State::get().record(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  State& s = State::get();
  if (!prop) return s.record(cudaErrorInvalidValue);
  if (device != 0) return s.record(cudaErrorInvalidDevice);
  if (!s.hello()) return s.record(cudaErrorInitializationError);
  std::memcpy(static_cast<void*>(prop), s.hello()->device_properties.data(), sizeof *prop);
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp* prop, int device) {
  return cudaGetDeviceProperties(prop, device);
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  State& s = State::get();
  if (!value) return s.record(cudaErrorInvalidValue);
  if (device != 0) return s.record(cudaErrorInvalidDevice);
  if (!s.hello()) return s.record(cudaErrorInitializationError);
  for (const auto& [id, v] : s.hello()->runtime_attributes)
    if (id == static_cast<std::int32_t>(attr)) {
      *value = v;
      return cudaSuccess;
    }
  return s.record(cudaErrorInvalidValue);
}

cudaError_t cudaDriverGetVersion(int* driverVersion) {
  State& s = State::get();
  if (!driverVersion) return s.record(cudaErrorInvalidValue);
  if (!s.hello()) return s.record(cudaErrorInitializationError);
  *driverVersion = s.hello()->driver_version;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  State& s = State::get();
  if (!runtimeVersion) return s.record(cudaErrorInvalidValue);
  *runtimeVersion = s.hello() ? s.hello()->runtime_version : CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  const cudaError_t e = State::get().last_error();
  State::get().clear_last_error();
  return e;
}

cudaError_t cudaPeekAtLastError(void) {
  return State::get().last_error();
}

const char* cudaGetErrorName(cudaError_t error) {
  const char* t = shim::error_text(error, true);
  return t ? t : shim::kUnrecognised;
}

const char* cudaGetErrorString(cudaError_t error) {
  const char* t = shim::error_text(error, false);
  return t ? t : shim::kUnrecognised;
}

}  // extern "C"
