// CudaBrokerDevice: the real GPU behind the broker's executor (broker_calls.h). Everything is
// enqueued on the broker's one stream; each call of a burst has its own pair of events, recorded
// by the broker around the call's work (the L2 flush before the start event). H2D copies keep
// their source bytes until the burst has been waited for. CUDA failures become DeviceFailure,
// a wait past its limit DeviceTimeout.
//
// Also here: the Hello the host gets once (device properties, attributes, error names, the
// candidate's kernels), built from this device and the candidate's module.
#pragma once

#include <cuda_runtime.h>

#include <deque>
#include <string>
#include <vector>

#include "eval/gpu/l2_flush.h"
#include "eval/host_protocol.h"
#include "eval/worker/broker_calls.h"
#include "eval/worker/candidate_module.h"

namespace ptxbench::eval::worker {

class CudaBrokerDevice final : public BrokerDevice {
 public:
  CudaBrokerDevice(cudaStream_t stream, gpu::L2Flush& flush, const CandidateModule& module);
  ~CudaBrokerDevice() override;
  CudaBrokerDevice(const CudaBrokerDevice&) = delete;
  CudaBrokerDevice& operator=(const CudaBrokerDevice&) = delete;

  // The burst's call `i` gets event pair i (made on first use).
  void select_call(std::size_t i);
  // After wait(): each call's time between its events, in ms (0 for a call without both).
  std::vector<double> elapsed_ms(std::size_t calls) const;
  // After the burst: nothing of it needs to stay alive any more.
  void burst_done() { keep_.clear(); }
  // CallCommand::function_times for this burst: an event pair around each launch, the first
  // kMaxTimedLaunchesPerCall of each call (set before its first select_call).
  void time_launches(bool on) { time_launches_ = on; }
  // After wait(), with time_launches: per call of the burst, (function, ms of its launches) in
  // first-launch order, and the launches past the bound.
  std::vector<std::vector<std::pair<std::string, double>>> function_ms(std::size_t calls) const;
  std::vector<int> untimed_launches(std::size_t calls) const;

  void begin_call_timing() override;
  void end_call_timing() override;
  void launch(const host::Launch& l, const KernelInfo& k) override;
  void memset(std::uint64_t dst, std::int32_t value, std::uint64_t count) override;
  void copy_h2d(std::uint64_t dst, const std::string& bytes) override;
  void copy_d2d(std::uint64_t dst, std::uint64_t src, std::uint64_t count) override;
  std::string copy_d2h(std::uint64_t src, std::uint64_t count, double seconds) override;
  std::optional<std::uint64_t> allocate(std::uint64_t bytes) override;
  void free(std::uint64_t ptr) override;
  std::optional<DeviceRegion> symbol(const std::string& name) override;
  std::int32_t set_attribute(const std::string& function, std::int32_t attribute,
                             std::int32_t value) override;
  std::pair<std::int32_t, std::int64_t> occupancy(const host::Occupancy& q) override;
  std::pair<std::int32_t, std::string> encode(const host::EncodeTensorMap& m) override;
  std::pair<std::int32_t, std::string> replace_address(const std::string& map,
                                                       std::uint64_t address) override;
  void wait(double seconds) override;

 private:
  cudaStream_t stream_;
  gpu::L2Flush& flush_;
  const CandidateModule& module_;
  std::vector<cudaEvent_t> events_;  // start, stop per call of the longest burst so far
  std::vector<bool> recorded_;       // per call of this burst: both events recorded
  std::size_t call_ = 0;
  std::deque<std::string> keep_;  // H2D sources of this burst
  // Per-launch timing (time_launches): launch k of the burst has events 2k, 2k+1 of the pool.
  struct TimedLaunch {
    std::size_t call = 0;
    std::string function;
  };
  bool launch_timed();  // records the start event of the next timed launch, or counts it untimed
  bool time_launches_ = false;
  std::vector<cudaEvent_t> launch_events_;
  std::vector<TimedLaunch> timed_;  // this burst's, in launch order
  std::vector<int> timed_in_call_, untimed_in_call_;
};

// The Hello for the host process (host_protocol.h): everything the shims answer locally.
host::Hello make_hello(const CandidateModule& module, std::uint64_t workspace_quota);

}  // namespace ptxbench::eval::worker
