#include "eval/worker/host_link.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace ptxbench::eval::worker {
using Clock = std::chrono::steady_clock;

bool PipeHostLink::send(host::MsgType type, const std::string& payload) {
  const std::string bytes = host::encode_frame(type, payload);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(out_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // EPIPE: the host is gone (SIGPIPE is ignored by the worker)
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool PipeHostLink::pull(int timeout_ms) {
  pollfd p{in_, POLLIN, 0};
  const int ready = ::poll(&p, 1, timeout_ms);
  if (ready < 0 && errno != EINTR) {
    ended_ = true;
    end_why_ = std::string("cannot read from the candidate's process: ") + std::strerror(errno);
    return false;
  }
  if (ready <= 0) return true;  // nothing yet
  char buf[65536];
  const ssize_t n = ::read(in_, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) {
    ended_ = true;
    end_why_ =
        n == 0 ? "the candidate's process closed its end (it ended)"
               : std::string("cannot read from the candidate's process: ") + std::strerror(errno);
    return false;
  }
  parser_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
  return true;
}

HostRead PipeHostLink::read(Clock::time_point deadline) {
  while (true) {
    auto next = parser_.next();
    if (!next.ok()) return {HostRead::Kind::garbled, {}, next.error().message};
    if (*next) return {HostRead::Kind::frame, std::move(**next), ""};
    if (ended_) return {HostRead::Kind::ended, {}, end_why_};
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return {HostRead::Kind::timed_out, {}, ""};
    (void)pull(static_cast<int>(std::min<long long>(left.count(), 1000)));
  }
}

bool PipeHostLink::has_unread() {
  if (!ended_) (void)pull(0);
  return parser_.buffered() > 0;
}

}  // namespace ptxbench::eval::worker
