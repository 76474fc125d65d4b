// EventTimer: GPU time of work enqueued on one stream, by a pair of CUDA events
// recorded on that same stream around the work.
//
// Caveats: it measures only the timed stream: work launched on another stream (or the legacy
// default stream, which does not synchronise with a non-blocking stream) escapes it; a judging
// session holds the parent's wall clock against a candidate's events to catch that
// (session_decision.h). Resolution is about 0.5 us.
#pragma once

#include <cuda_runtime.h>

#include <functional>

namespace ptxbench::gpu {

class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // Records start, runs `work` (which enqueues on `stream`), records stop, waits for
  // stop and returns the elapsed milliseconds.
  double time_ms(cudaStream_t stream, const std::function<void()>& work);

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace ptxbench::gpu
