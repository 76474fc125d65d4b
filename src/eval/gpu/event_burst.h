// EventBurst: GPU times of a burst of calls enqueued back to back on one stream: per call an
// L2 flush, then a pair of events around the call, with no host wait in between. The caller
// waits once for the whole burst, then reads the times. A burst of one is a single timed call.
//
// The clock regime depends on the burst: with a host round trip between calls the GPU pauses
// and stays near its boost clock; in long bursts it runs into its power cap and clocks down
// (1500-1800 MHz on the H200 under the previous judge's loop, 1830-1965 MHz in bursts of 4,
// docs/results/2026-12-01-h200-bursts.md), and ratios between kernels move with it by 1-5%.
// Caveats: like EventTimer, it sees only the timed stream; the flush is outside the events, so
// dirty lines of the flush buffer are written back during the call (about 10 us on the H200).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "eval/gpu/l2_flush.h"

namespace ptxbench::gpu {

class EventBurst {
 public:
  EventBurst() = default;
  ~EventBurst();
  EventBurst(const EventBurst&) = delete;
  EventBurst& operator=(const EventBurst&) = delete;

  // Enqueues n x (flush, start event, work(i), stop event) on `stream`; returns at once.
  // `work` may throw; the burst is then abandoned (elapsed_ms must not be called).
  void enqueue(std::size_t n, cudaStream_t stream, L2Flush& flush,
               const std::function<void(std::size_t)>& work);
  // After the caller waited for the stream: the milliseconds of each call of the last burst.
  std::vector<double> elapsed_ms() const;

 private:
  std::vector<cudaEvent_t> events_;  // start, stop per call of the longest burst so far
  std::size_t last_ = 0;
};

}  // namespace ptxbench::gpu
