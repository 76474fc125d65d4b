// PTXB_CUBLAS(expr): the cuBLAS status check of the GPU side, beside PTXB_CUDA
// (cuda_check.h). A failing call throws CublasError (a std::runtime_error) carrying the
// call, where it was made and cuBLAS's status name; the worker reports it as a
// harness_error like any other failure of ptxbench's own GPU code.
#pragma once

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace ptxbench::gpu {

class CublasError : public std::runtime_error {
 public:
  CublasError(cublasStatus_t status, const std::string& what)
      : std::runtime_error(what), status_(status) {}
  cublasStatus_t status() const { return status_; }

 private:
  cublasStatus_t status_;
};

[[noreturn]] inline void throw_cublas_error(cublasStatus_t st, const char* expr, const char* file,
                                            int line) {
  throw CublasError(st, std::string("cuBLAS ") + cublasGetStatusName(st) + " (in " + expr + " at " +
                            file + ":" + std::to_string(line) + ")");
}

}  // namespace ptxbench::gpu

#define PTXB_CUBLAS(expr)                                                              \
  do {                                                                                 \
    cublasStatus_t ptxb_cublas_st_ = (expr);                                           \
    if (ptxb_cublas_st_ != CUBLAS_STATUS_SUCCESS)                                      \
      ::ptxbench::gpu::throw_cublas_error(ptxb_cublas_st_, #expr, __FILE__, __LINE__); \
  } while (0)
