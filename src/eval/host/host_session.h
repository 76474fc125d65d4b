// The session part of ptxbench-host, once the candidate is loaded and Ready is sent: the
// broker's Hello, then one entry-point call per RunCall until Quit or end of file.
//
// Each call: the RunCall's tensors as DLTensors (device {kDLCUDA, 0}, compact, byte_offset 0;
// their shapes live until the next RunCall), the shim told the call's tensors, the entry
// point called with the harness's stream (kHarnessStream; tvm-ffi: the environment stream set
// to it first), then CallDone, or CallThrew with the message of what it threw (a C++
// exception's what(), a tvm-ffi error's "Kind: message").
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>
#include <vector>

#include "eval/host/candidate.h"
#include "eval/host/shim_control.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host {

// One call's DLTensors over a RunCall's tensors (in order: inputs, then outputs).
class CallTensors {
 public:
  explicit CallTensors(const RunCall& run);
  CallTensors(const CallTensors&) = delete;
  CallTensors& operator=(const CallTensors&) = delete;
  const std::vector<DLTensor*>& pointers() const { return pointers_; }

 private:
  std::vector<std::vector<std::int64_t>> shapes_;
  std::vector<DLTensor> tensors_;
  std::vector<DLTensor*> pointers_;
};

// Serves the broker (the Hello, then the calls); returns the process's exit status: 0 at Quit
// or end of file, kHostProtocolExit when the broker broke the protocol (reason on stderr).
int serve(ShimControl& shim, const CandidateLibrary& candidate);

}  // namespace ptxbench::eval::host
