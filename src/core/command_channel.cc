#include "core/command_channel.h"

#include <fcntl.h>
#include <poll.h>

#include <cerrno>
#include <cstring>

namespace ptxbench {

Result<CommandChannel> CommandChannel::from_fds(int in, int out) {
  for (int fd : {in, out}) {
    int flags = ::fcntl(fd, F_GETFD);
    if (flags < 0)
      return make_error("fd " + std::to_string(fd) + " is not open",
                        "this program talks over fds 3 and 4 and is started by ptxbench");
    ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
  return CommandChannel(in, out);
}

Result<std::optional<std::string>> CommandChannel::next_line(std::size_t max_bytes) {
  while (true) {
    if (auto line = buffer_.next()) {
      if (line->size() > max_bytes) break;
      return std::optional<std::string>(std::move(*line));
    }
    if (buffer_.pending() > max_bytes) break;
    ssize_t n = buffer_.fill(in_);
    if (n == 0) return std::optional<std::string>();
    if (n < 0 && errno == EAGAIN) {  // a non-blocking fd: wait for data
      pollfd p{in_, POLLIN, 0};
      ::poll(&p, 1, -1);
    } else if (n < 0 && errno != EINTR) {
      return make_error(std::string("reading commands failed: ") + std::strerror(errno));
    }
  }
  return make_error("a command is longer than " + std::to_string(max_bytes) + " bytes");
}

Status CommandChannel::reply(std::string_view line) {
  PTXB_TRY_STATUS(check_one_line(line, "a reply"));
  std::string whole;
  whole.reserve(line.size() + 1);
  whole.append(line).push_back('\n');
  return write_all(out_, whole);
}

}  // namespace ptxbench
