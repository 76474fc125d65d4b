// The CUDA runtime shim's state (libcudart.so.13 of ptxbench-host): one per process, used by
// the shim's CUDA entry points (shim_*.cc) and driven by the host program through
// ShimControl (shim_control.h).
//
// Every CUDA call of the candidate is answered here: locally what the Hello carries (device
// properties and attributes, error texts, function attributes, versions) and what the runtime
// refuses synchronously (launch_check.h); the rest becomes a message to the broker: ordered
// work sent as it happens, synchronous requests answered by one Reply. Errors follow the
// runtime's last-error rule: every failing runtime call records its error, cudaGetLastError
// returns and clears it, cudaPeekAtLastError only returns it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "eval/host/frame_channel.h"
#include "eval/host/shim_control.h"
#include "eval/host/shim_registry.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host::shim {

class State final : public ShimControl {
 public:
  static State& get();

  // ShimControl (the host program's side).
  void attach(int from_broker_fd, int to_broker_fd) override;
  void send(MsgType type, std::string_view payload) override;
  // The same without exiting: false when the broker is gone or the channel is not attached.
  bool try_send(MsgType type, std::string_view payload);
  std::optional<Frame> receive() override;
  Status install_hello(const Hello& hello) override;
  void begin_call(const RunCall& call) override;
  void end_call() override;

  // The CUDA entry points' side.
  Registry& registry() { return registry_; }
  const Hello* hello() const { return hello_ ? &*hello_ : nullptr; }

  // Records `e` as the last error when it is one; returns it.
  cudaError_t record(cudaError_t e);
  cudaError_t last_error() const { return last_error_; }
  void clear_last_error() { last_error_ = cudaSuccess; }

  // Whether messages may go to the broker now: after the Hello, during a call. Otherwise the
  // error a runtime call returns (cudaErrorInitializationError before the Hello, as in the
  // candidate's constructors; cudaErrorNotPermitted outside a call).
  cudaError_t may_send() const;
  // Ordered work: sent as it happens, no reply.
  void send_work(MsgType type, const std::string& payload);
  // A synchronous request: sent, then the process waits for the broker's Reply.
  ReplyMsg request(MsgType type, const std::string& payload);

  // Device memory the candidate may name: this call's tensors and its own allocations.
  bool is_device(std::uint64_t address) const;
  void add_allocation(std::uint64_t address, std::uint64_t bytes);
  bool remove_allocation(std::uint64_t address);  // false: not one of its allocations

  // Events: handles of the shim's own (no-ops on the one stream).
  cudaEvent_t new_event();
  bool has_event(cudaEvent_t e) const;
  bool remove_event(cudaEvent_t e);

  // Pushed launch configurations (<<<...>>>, popped by the kernel's stub).
  struct LaunchConfig {
    dim3 grid, block;
    std::size_t shared_mem = 0;
    cudaStream_t stream = nullptr;
  };
  std::vector<LaunchConfig>& config_stack() { return configs_; }

  // Ends the process for a broken protocol: the reason on stderr, exit kHostProtocolExit.
  [[noreturn]] static void protocol_failure(std::string_view why);

 private:
  State() = default;
  FrameChannel channel_;
  std::optional<Hello> hello_;
  Registry registry_;
  cudaError_t last_error_ = cudaSuccess;
  bool in_call_ = false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> tensors_;  // [address, address + bytes)
  std::map<std::uint64_t, std::uint64_t> allocations_;            // address -> bytes
  std::set<std::uintptr_t> events_;
  std::uintptr_t next_event_ = 0;
  std::vector<LaunchConfig> configs_;
};

// The stream value a message carries for `stream` as the candidate passed it; `per_thread`:
// the call came through a _ptsz entry point, where 0 means cudaStreamPerThread.
std::uint64_t stream_value(cudaStream_t stream, bool per_thread = false);

}  // namespace ptxbench::eval::host::shim
