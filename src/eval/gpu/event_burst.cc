#include "eval/gpu/event_burst.h"

#include <vector>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::gpu {

EventBurst::~EventBurst() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

void EventBurst::enqueue(std::size_t n, cudaStream_t stream, L2Flush& flush,
                         const std::function<void(std::size_t)>& work) {
  while (events_.size() < 2 * n) {
    cudaEvent_t e = nullptr;
    PTXB_CUDA(cudaEventCreate(&e));
    events_.push_back(e);
  }
  last_ = 0;
  for (std::size_t i = 0; i < n; ++i) {
    flush.flush(stream);
    PTXB_CUDA(cudaEventRecord(events_[2 * i], stream));
    work(i);
    PTXB_CUDA(cudaEventRecord(events_[2 * i + 1], stream));
  }
  last_ = n;
}

std::vector<double> EventBurst::elapsed_ms() const {
  std::vector<double> out;
  for (std::size_t i = 0; i < last_; ++i) {
    float ms = 0;
    PTXB_CUDA(cudaEventElapsedTime(&ms, events_[2 * i], events_[2 * i + 1]));
    out.push_back(ms);
  }
  return out;
}

}  // namespace ptxbench::gpu
