// PipeHostLink: the broker's end of the host protocol (host_protocol.h) over the two pipes the
// parent gave it (it reads the host's frames on one, writes on the other). Reads wait with a
// deadline (poll), so a host that hangs or stops mid-frame cannot stall the broker; a host that
// writes something that is not a frame is reported as garbled, and the link stays broken.
#pragma once

#include <string>

#include "eval/host_protocol.h"
#include "eval/worker/broker_calls.h"

namespace ptxbench::eval::worker {

class PipeHostLink final : public HostLink {
 public:
  PipeHostLink(int from_host, int to_host) : in_(from_host), out_(to_host) {}
  bool send(host::MsgType type, const std::string& payload) override;
  HostRead read(std::chrono::steady_clock::time_point deadline) override;
  bool has_unread() override;

 private:
  // Reads what is there now (at most one read); false at end of file or on an error.
  bool pull(int timeout_ms);
  int in_, out_;
  host::FrameParser parser_;
  bool ended_ = false;
  std::string end_why_;
};

}  // namespace ptxbench::eval::worker
