// FrameChannel: one end of the host protocol's pipes (eval/host_protocol.h), whole frames in
// and out. The host's shim holds the host's end (reads fd 3, writes fd 4); the tests' fake
// broker holds the other.
//
// Not thread-safe; one owner. Never throws: a failure is an Error (or, for receive, end of
// file), and the caller decides (the host exits, the fake broker fails the test).
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "core/result.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host {

// Why receive() returned no frame.
enum class ReceiveEnd {
  closed,     // end of file: the other side closed its end (or died)
  timed_out,  // nothing complete within the timeout (the partial frame is kept)
  malformed,  // the stream is out of step (FrameParser's error): every later call says so too
  failed,     // read(2) failed
};

class FrameChannel {
 public:
  FrameChannel() = default;
  FrameChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {}

  bool attached() const { return read_fd_ >= 0 && write_fd_ >= 0; }
  int read_fd() const { return read_fd_; }
  int write_fd() const { return write_fd_; }

  // Writes one whole frame (blocking while the pipe is full; EINTR retried). An Error when the
  // other side is gone (EPIPE: SIGPIPE must be ignored or blocked by the process) or the
  // descriptor fails.
  Status send(MsgType type, std::string_view payload) const;

  // The next complete frame. `timeout` (none: wait forever) bounds the wait for more bytes;
  // `why` says why there is none. The error text of a malformed stream is in `error`.
  std::optional<Frame> receive(ReceiveEnd* why,
                               std::optional<std::chrono::milliseconds> timeout = std::nullopt,
                               std::string* error = nullptr);

 private:
  int read_fd_ = -1;
  int write_fd_ = -1;
  FrameParser parser_;
};

}  // namespace ptxbench::eval::host
