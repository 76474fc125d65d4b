#include "eval/gpu/host_clock_check.h"

#include <chrono>
#include <vector>

#include "eval/gpu/cuda_check.h"
#include "eval/gpu/event_timer.h"
#include "eval/stats.h"

namespace ptxbench::gpu {

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
