// PTXB_CUDA(expr): the one CUDA error check of the GPU side. A failing call throws
// CudaError, carrying the call, where it was made and CUDA's own error name and text.
// The worker catches it at the top of each phase and reports it as data
// (runtime_error for a candidate's failure, harness_error for ptxbench's own), so a
// sticky error such as an illegal address never crashes the parent.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace ptxbench::gpu {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// "cudaErrorIllegalAddress: an illegal memory access was encountered"
inline std::string describe_cuda_error(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* expr, const char* file,
                                          int line) {
  throw CudaError(e, describe_cuda_error(e) + " (in " + expr + " at " + file + ":" +
                         std::to_string(line) + ")");
}

// The driver API's twin (PTXB_CU), for the calls the runtime has no form of (virtual memory
// management): a std::runtime_error with the driver's error name. Only code that uses the macro
// links the driver.
[[noreturn]] inline void throw_driver_error(CUresult r, const char* expr, const char* file,
                                            int line) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  throw std::runtime_error(std::string(name ? name : "CUDA_ERROR_UNKNOWN") + " (in " + expr +
                           " at " + file + ":" + std::to_string(line) + ")");
}

}  // namespace ptxbench::gpu

#define PTXB_CUDA(expr)                                                             \
  do {                                                                              \
    cudaError_t ptxb_cuda_err_ = (expr);                                            \
    if (ptxb_cuda_err_ != cudaSuccess)                                              \
      ::ptxbench::gpu::throw_cuda_error(ptxb_cuda_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define PTXB_CU(expr)                                                               \
  do {                                                                              \
    CUresult ptxb_cu_err_ = (expr);                                                 \
    if (ptxb_cu_err_ != CUDA_SUCCESS)                                               \
      ::ptxbench::gpu::throw_driver_error(ptxb_cu_err_, #expr, __FILE__, __LINE__); \
  } while (0)
