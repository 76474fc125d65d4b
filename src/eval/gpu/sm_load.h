// SmLoad: a second schedule for one checked call (issue 34 item 4). While it holds, half the
// GPU's SMs run a kernel of the broker's own (one block per SM, forced by its shared memory), so
// the candidate's blocks are scheduled onto the other half, in another order and with other
// blocks finishing first than on an idle GPU: a hand-off between blocks that lacks the memory
// ordering it needs, and passes at full occupancy by chance, can fail here.
//
// Method: hold() launches the load kernel on a stream of its own (never the call's) before the
// call's work is enqueued; each block spins on a flag in mapped host memory, sleeping between
// reads, until release() sets it or max_ms have passed by the GPU's global timer, so it ends
// whatever the candidate does (a candidate that waits for all its blocks to be resident is
// slowed, never hung). release() waits for it, bounded by max_ms plus a second. A call whose work
// was still running when max_ms had passed did not all run under the load (a kernel that waited
// the load out, red team leak4/sched_outwait_load.cu): the broker tells by its own clock and
// says so (session_protocol.h CallCommand::sm_load_ms), the judge sizes max_ms to several times
// the workload's unloaded calls, so an honest kernel slowed by half the SMs ends well before it.
// Caveats: blocks of the candidate that need no shared memory may still share those SMs (the
// load is "concurrent", not an exclusion); which schedule exposes a race is not guaranteed, so a
// race can still pass; a failure to launch the load holds nothing and says so (held() false):
// the call then ran on the usual schedule and the judge must not call it loaded.
#pragma once

#include <cuda_runtime.h>

namespace ptxbench::gpu {

class SmLoad {
 public:
  SmLoad();  // on the current device; makes nothing that can fail until hold()
  ~SmLoad();
  SmLoad(const SmLoad&) = delete;
  SmLoad& operator=(const SmLoad&) = delete;

  // Makes its stream, flag and kernel ready; call it before a sandbox closes what CUDA needs to
  // load (the broker's constructor). False when a CUDA call failed (hold() then holds nothing).
  bool prepare();
  // Starts the load on half the SMs for at most `max_ms`. False (nothing held) when a CUDA call
  // failed; the error is cleared.
  bool hold(double max_ms);
  // Ends the load and waits for it. No-op when nothing is held.
  void release();
  bool held() const { return held_; }

 private:
  cudaStream_t stream_ = nullptr;
  volatile int* stop_ = nullptr;  // mapped host memory
  int* stop_device_ = nullptr;
  int sms_ = 0, shared_bytes_ = 0;
  double max_ms_ = 0;
  bool held_ = false;
};

}  // namespace ptxbench::gpu
