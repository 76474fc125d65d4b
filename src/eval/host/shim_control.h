// The host program's handle on its CUDA runtime shim (libcudart.so.13 of src/eval/host): the
// shim owns the one channel to the broker (the host protocol, eval/host_protocol.h) and the
// state its CUDA calls are answered from; the host program (host_main.cc) drives the session
// through this interface.
//
// The shim exports one function for it, ptxbench_host_shim_control (version node
// PTXBENCH_HOST, beside the CUDA runtime's libcudart.so.13), which the host finds with dlsym
// after loading the shim by its full path. Shim and host are built from the same sources by
// the same compiler (the interface passes C++ types).
#pragma once

#include <optional>
#include <string_view>

#include "core/result.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host {

class ShimControl {
 public:
  virtual ~ShimControl() = default;

  // The protocol's descriptors (the host reads fd 3 and writes fd 4). Once, before the rest.
  virtual void attach(int from_broker_fd, int to_broker_fd) = 0;

  // Sends one frame (Sandbox, Ready, LoadFailed, CallDone, CallThrew). When the broker is gone
  // the process exits 0: nobody is left to judge.
  virtual void send(MsgType type, std::string_view payload) = 0;

  // The broker's next frame; nullopt at end of file. A malformed stream ends the process
  // (exit kHostProtocolExit, the reason on stderr): the broker is trusted, so it is a bug.
  virtual std::optional<Frame> receive() = 0;

  // Installs the session's Hello: device properties, attributes, errors, and the kernel
  // functions, matched by name with those the candidate registered. An Error when the Hello
  // does not fit this shim (its cudaDeviceProp has another size).
  virtual Status install_hello(const Hello& hello) = 0;

  // Around each call of the entry point: the call's tensors (device ranges that
  // cudaMemcpyDefault and the allocation checks know), then "the call is over".
  virtual void begin_call(const RunCall& call) = 0;
  virtual void end_call() = 0;
};

using ShimControlGetter = ShimControl* (*)();
inline constexpr char kShimControlSymbol[] = "ptxbench_host_shim_control";

// The host's exit status when the broker broke the protocol (a malformed frame, an
// unexpected type, a Hello that does not fit). 87 is a sandbox refusal, 0 a normal end.
inline constexpr int kHostProtocolExit = 3;

}  // namespace ptxbench::eval::host
