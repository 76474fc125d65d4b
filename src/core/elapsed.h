// Elapsed wall time on the steady clock, for phase and set-up timings (host side). GPU work is
// timed by CUDA events instead (eval/gpu/event_timer.h).
#pragma once

#include <chrono>

namespace ptxbench {

// Milliseconds from `t0` to now.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace ptxbench
