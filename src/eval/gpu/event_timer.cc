#include "eval/gpu/event_timer.h"

#include "eval/gpu/cuda_check.h"

namespace ptxbench::gpu {

EventTimer::EventTimer() {
  PTXB_CUDA(cudaEventCreate(&start_));
  PTXB_CUDA(cudaEventCreate(&stop_));
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

double EventTimer::time_ms(cudaStream_t stream, const std::function<void()>& work) {
  PTXB_CUDA(cudaEventRecord(start_, stream));
  work();
  PTXB_CUDA(cudaEventRecord(stop_, stream));
  PTXB_CUDA(cudaEventSynchronize(stop_));
  float ms = 0;
  PTXB_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

}  // namespace ptxbench::gpu
