// L2Flush, EventTimer, EventBurst and HostClockCheck (see their headers for method and
// caveats).
#include <algorithm>
#include <chrono>
#include <vector>

#include "eval/gpu/event_burst.h"
#include "eval/gpu/event_timer.h"
#include "eval/gpu/host_clock_check.h"
#include "eval/gpu/l2_flush.h"
#include "eval/stats.h"

namespace ptxbench::gpu {

L2Flush::L2Flush() {
  int device = 0, l2 = 0;
  PTXB_CUDA(cudaGetDevice(&device));
  PTXB_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  buffer_ = DeviceBuffer(static_cast<std::size_t>(std::max(l2, 1 << 20)) * 2);
}

void L2Flush::flush(cudaStream_t stream) {
  value_ ^= 0x5A;  // a different byte each time, so the writes are never elided
  PTXB_CUDA(cudaMemsetAsync(buffer_.get(), value_, buffer_.bytes(), stream));
}

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

Json HostClockResult::to_json() const {
  return Json{{"event_ms", event_ms}, {"host_ms", host_ms}, {"side_stream", side_stream}};
}

HostClockResult host_clock_check(cudaStream_t stream, const std::function<void()>& work,
                                 int calls) {
  using Clock = std::chrono::steady_clock;
  EventTimer timer;
  std::vector<double> ev, host;
  for (int c = 0; c < calls; ++c) {
    PTXB_CUDA(cudaDeviceSynchronize());
    auto t0 = Clock::now();
    double e = timer.time_ms(stream, work);
    PTXB_CUDA(cudaDeviceSynchronize());
    host.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    ev.push_back(e);
  }
  HostClockResult r;
  r.event_ms = eval::percentile(ev, 0.5);
  r.host_ms = eval::percentile(host, 0.5);
  r.side_stream = eval::escaped_timed_stream(r.event_ms, r.host_ms);
  return r;
}

}  // namespace ptxbench::gpu
