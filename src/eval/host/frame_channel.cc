#include "eval/host/frame_channel.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ptxbench::eval::host {

Status FrameChannel::send(MsgType type, std::string_view payload) const {
  const std::string bytes = encode_frame(type, payload);
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(write_fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return make_error(std::string("cannot send a ") + std::string(to_string(type)) +
                        " frame: " + (n < 0 ? std::strerror(errno) : "nothing written"));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return {};
}

std::optional<Frame> FrameChannel::receive(ReceiveEnd* why,
                                           std::optional<std::chrono::milliseconds> timeout,
                                           std::string* error) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = timeout ? Clock::now() + *timeout : Clock::time_point::max();
  char buf[1 << 16];
  for (;;) {
    auto next = parser_.next();
    if (!next.ok()) {
      if (error) *error = next.error().message;
      *why = ReceiveEnd::malformed;
      return std::nullopt;
    }
    if (*next) return std::move(**next);
    if (timeout) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      pollfd p{read_fd_, POLLIN, 0};
      const int ready = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        *why = ReceiveEnd::timed_out;
        return std::nullopt;
      }
    }
    const ssize_t n = ::read(read_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      if (error) *error = std::strerror(errno);
      *why = ReceiveEnd::failed;
      return std::nullopt;
    }
    if (n == 0) {
      *why = ReceiveEnd::closed;
      return std::nullopt;
    }
    parser_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
  }
}

}  // namespace ptxbench::eval::host
