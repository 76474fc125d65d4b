// HostClockCheck: detects work that escapes the timed stream.
//
// Method: for a few calls, cudaDeviceSynchronize(), read the host's steady clock,
// enqueue the work, cudaDeviceSynchronize() again and read the clock. That interval
// covers all device work of the call, on any stream. It is compared with the event
// time of the same call on the timed stream; when the host interval exceeds
// 1.5x the event time plus 0.2 ms (launch and synchronisation overhead), the call did
// device work the events did not see, and the flag "side_stream" is set.
// Caveats: host timing includes launch overhead, so it is only a coarse check; the
// thresholds favour no false alarms over catching tiny side-stream work.
#pragma once

#include <cuda_runtime.h>

#include <functional>

#include "core/json.h"
#include "eval/stats.h"  // escaped_timed_stream: the decision rule

namespace ptxbench::gpu {

struct HostClockResult {
  double event_ms = 0;  // median event time of the checked calls
  double host_ms = 0;   // median device-synchronised host time of the same calls
  bool side_stream = false;
  Json to_json() const;
};

HostClockResult host_clock_check(cudaStream_t stream, const std::function<void()>& work,
                                 int calls = 5);

}  // namespace ptxbench::gpu
