// SmLoad: a second schedule for one checked call (issue 34 item 4). While it holds, half the
// GPU's SMs run a kernel of the broker's own (one block per SM, forced by its shared memory), so
// the candidate's blocks are scheduled onto the other half, in another order and with other
// blocks finishing first than on an idle GPU: a hand-off between blocks that lacks the memory
// ordering it needs, and passes at full occupancy by chance, can fail here.
//
// Method: hold() launches the load kernel on a stream of its own (never the call's) before the
// call's work is enqueued; one thread of each block polls a flag in device memory every 2 us
// (an L2 read), sleeping between reads, until release() raises it (a 4-byte host-to-device copy
// on a third stream, so it never waits behind the call) or max_ms have passed by the GPU's
// global timer, so it ends
// whatever the candidate does (a candidate that waits for all its blocks to be resident is
// slowed, never hung). release() waits for it, bounded by max_ms plus a second. A call whose work
// was still running when max_ms had passed did not all run under the load (a kernel that waited
// the load out, red team leak4/sched_outwait_load.cu): the broker tells by its own clock and
// says so (session_protocol.h CallCommand::sm_load_ms), the judge sizes max_ms to several times
// the workload's unloaded calls, so an honest kernel slowed by half the SMs ends well before it.
// Measured (H100, bench/loadprobe/load_probe.cu, docs/results/2026-12-07-h100-load.md): a tiled
// FFMA GEMM and a naive GEMM took 2.0x their unloaded time under the load (32-thread blocks then).
// Until 2026-12-07 the flag lived in mapped host memory: 66 threads reading it over PCIe every
// 2 us slowed the same kernels 8.6x and 4.2x, the reference GEMM 28x. A block with no shared
// memory still fitted beside a 32-thread load block (leak8/zero_smem_coresident.cu: its
// co-residency barrier held under the load, as read from its pass), so the load's block now also
// takes 1024 threads and the SM's whole register file (sm_load.cu; not yet measured on a GPU).
// Three shares (hold's `free`): half the SMs, all but an eighth of them (at least one SM free), or
// all but one (a grid with a barrier sized to fit on an eighth, leak11/eighth_fit_barrier.cu,
// passed beside the second; not yet measured on a GPU).
// The half load exposes a dependence on more than half the GPU only: a persistent grid with a
// grid-wide barrier that fits on the free half passes under it (leak8/zero_smem_coresident.cu on
// an H100); on an eighth of the SMs it cannot, unless it is tiny. The larger share is two
// kernels, the half and the rest. Before each launch of the call the broker says what it may run
// beside (before_launch): an ordinary kernel beside both parts, one in clusters of 2 beside the
// half only (a cluster's blocks must fit together in one GPC, which the rest could deny it), a
// cooperative grid or one in wider clusters beside none (measured on an H100: clusters of 4 and
// 16 waited for the half load to end). A part it may not run beside ends in the call's stream
// order, just before the launch; a part that ended so starts again for a later launch that may
// run beside it, also in stream order (its stream waits for an event recorded after the earlier
// launch) and with a gate on the call's stream that waits, 20 ms at most, until the part's blocks
// are resident: so an empty cooperative or cluster launch cannot switch the load off for the
// kernels after it (red team leak11/cluster_dummy_narrows.cu, coop_then_epilogue_blamed.cu: the
// first passed, the second, an honest epilogue, was failed while the load stayed off). Caveats:
// which schedule exposes a race is not guaranteed, so a race can still pass; a failure to launch
// the load holds nothing and says so (held() false): the call then ran on the usual schedule and
// the judge must not call it loaded.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <string>

namespace ptxbench::gpu {

class SmLoad {
 public:
  SmLoad();  // on the current device; makes nothing that can fail until hold()
  ~SmLoad();
  SmLoad(const SmLoad&) = delete;
  SmLoad& operator=(const SmLoad&) = delete;

  // Makes its streams, flags and kernels ready; call it before a sandbox closes what CUDA needs
  // to load (the broker's constructor). False when a CUDA call failed (hold() then holds nothing).
  bool prepare();
  // The SMs a hold leaves free: half of them; an eighth (at least one); one.
  enum class Free { half, eighth, one };
  // Starts the load, leaving `free` of the SMs free, for at most `max_ms`. False (nothing held)
  // when a CUDA call failed; the error is cleared.
  bool hold(double max_ms, Free free = Free::half);
  // Before a launch is enqueued on `in_order` (the call's stream): the parts it may run beside
  // (`half`; `rest`, which the half share lacks). Ends, in stream order, a running part it may
  // not; starts again, in stream order and gated, a part it may that an earlier launch ended.
  // A start that fails leaves that work unloaded: finish() then says so.
  void before_launch(bool half, bool rest, cudaStream_t in_order);
  // Ends the load and waits for it. No-op when nothing is held.
  void release();
  bool held() const { return held_; }
  // Once the call's work is done, by the broker's clock (no candidate code writes it): whether
  // the work outlasted the load, i.e. a part that should have been running then had ended (its
  // time was up, or device code of the candidate raised its flag, which lives in the broker's
  // context), or a restart failed: either way that work did not all run under the load. `note`:
  // the times, for people (the eval result's withheld text). Then release(). Not held: {}.
  struct End {
    bool outlasted = false;
    bool unloaded = false;  // a stop or restart of the broker's failed: the call was not loaded
    // A launch of the call ran beside no part of the load (cooperative, or in clusters wider
    // than 2): that kernel's schedule was not varied (red team leak13/
    // wide_cluster_barrier_unloaded.cu, a grid barrier in clusters of 4, passed as loaded).
    bool bare = false;
    std::string note;
  };
  End finish();

 private:
  // One load kernel: its blocks, one per SM, count themselves in `resident` and poll `flag` until
  // it reaches `generation`.
  struct Part {
    cudaStream_t stream = nullptr;         // the load kernel's
    cudaStream_t signal_stream = nullptr;  // the host's flag copy that ends it
    unsigned* flag = nullptr;              // device memory: the last generation released
    unsigned* resident = nullptr;          // device memory: blocks started since the launch
    unsigned* expired = nullptr;           // device memory: the last generation that ended early
    unsigned* signal = nullptr;            // pinned host memory: the host copy's source
    unsigned generation = 0;               // of the launch made last
    unsigned first = 0;                    // the first generation of the current hold
    int blocks = 0;
    bool launched = false;  // since hold(): its kernel was launched (release() ends it)
    bool on = false;        // running and meant to (not ended by before_launch)
    bool prepare();
    void destroy();
    // `count_from_zero`: reset `resident` on its own stream (a restart resets it on the call's).
    bool launch(int shared_bytes, double max_ms, bool count_from_zero);
    // A launch of this hold ended by its time, or had its flag raised before a stop (read back).
    bool expired_since_first() const;
    void end(std::chrono::steady_clock::time_point deadline);  // raise the flag, wait
    bool end_in(cudaStream_t in_order);  // the flag raised in that stream's order; false: failed
    bool done() const;                   // the kernel has ended (by its flag or its time)
  };
  bool restart(Part& p, cudaStream_t in_order);  // before_launch's start again
  Part half_, rest_;                             // rest_: the larger share's second kernel
  std::chrono::steady_clock::time_point deadline() const;  // for waiting on an end
  int sms_ = 0, shared_bytes_ = 0;
  double max_ms_ = 0;
  std::chrono::steady_clock::time_point start_;  // hold()'s
  cudaEvent_t after_ = nullptr;                  // recorded on the call's stream for a restart
  bool held_ = false;
  bool most_ = false;      // hold()'s share is larger than the half (the rest part runs)
  bool unloaded_ = false;  // since hold(): a restart failed, so some work ran without its part
  bool bare_ = false;      // since hold(): a launch ran beside no part (End::bare)
};

}  // namespace ptxbench::gpu
