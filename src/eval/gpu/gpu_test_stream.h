// The start of the GPU test programs (reference_test.cu, sample_check_test.cu): a stream on the
// first device, or nothing when there is none, and the program then exits with 77, ctest's
// "skipped" (SKIP_RETURN_CODE), having said why.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <optional>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::gpu {

inline constexpr int kSkippedExit = 77;

inline std::optional<cudaStream_t> gpu_test_stream() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return std::nullopt;
  }
  cudaStream_t s;
  PTXB_CUDA(cudaStreamCreate(&s));
  return s;
}

}  // namespace ptxbench::gpu
