#include "core/line_io.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ptxbench {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;

// Blocks SIGPIPE in this thread for its lifetime; a SIGPIPE raised meanwhile by a write to
// a closed pipe (thread-directed, so it stays pending here) is consumed on the way out.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    ::pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlock() {
    if (raised_ && !was_pending_) {
      timespec zero{0, 0};
      while (::sigtimedwait(&pipe_, nullptr, &zero) < 0 && errno == EINTR) {
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  void note_epipe() { raised_ = true; }

 private:
  sigset_t pipe_;
  sigset_t old_;
  bool was_pending_ = false;
  bool raised_ = false;
};

int ms_until(std::chrono::steady_clock::time_point deadline) {
  if (deadline == std::chrono::steady_clock::time_point::max()) return -1;
  auto left = deadline - std::chrono::steady_clock::now();
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return static_cast<int>(std::clamp<long long>(ms, 0, 1 << 30));
}

}  // namespace

ssize_t LineBuffer::fill(int fd) {
  if (begin_ == end_ && buf_.size() > 16 * kReadChunk) {  // after a huge line: give it back
    buf_ = std::vector<char>();
    begin_ = end_ = scanned_ = 0;
  }
  if (begin_ > 0 && (begin_ == end_ || begin_ >= buf_.size() / 2)) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    scanned_ -= begin_;
    begin_ = 0;
  }
  if (buf_.size() - end_ < kReadChunk) buf_.resize(std::max(buf_.size() * 2, end_ + kReadChunk));
  ssize_t n = ::read(fd, buf_.data() + end_, buf_.size() - end_);
  if (n > 0) end_ += static_cast<std::size_t>(n);
  return n;
}

std::optional<std::string> LineBuffer::next() {
  scanned_ = std::max(scanned_, begin_);
  if (scanned_ == end_) return std::nullopt;  // nothing new (buf_ may not even exist yet)
  const char* base = buf_.data();
  const void* nl = std::memchr(base + scanned_, '\n', end_ - scanned_);
  if (!nl) {
    scanned_ = end_;
    return std::nullopt;
  }
  std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
  std::string line(base + begin_, at - begin_);
  begin_ = scanned_ = at + 1;
  return line;
}

Status write_all(int fd, std::string_view data, std::chrono::steady_clock::time_point deadline) {
  SigpipeBlock block;
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n >= 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EPIPE) {
      block.note_epipe();
      return make_error("the reading end of the pipe is closed");
    }
    if (errno != EAGAIN) return make_error(std::string("write failed: ") + std::strerror(errno));
    pollfd p{fd, POLLOUT, 0};
    int r = ::poll(&p, 1, ms_until(deadline));
    if (r == 0) return make_error("the pipe stayed full until the deadline");
    if (r < 0 && errno != EINTR)
      return make_error(std::string("poll failed: ") + std::strerror(errno));
  }
  return {};
}

Status check_one_line(std::string_view data, std::string_view what) {
  if (data.find('\n') != std::string_view::npos)
    return make_error(std::string(what) + " contains a newline and cannot travel as one line");
  return {};
}

}  // namespace ptxbench
