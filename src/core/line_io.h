// Line-oriented I/O on pipes, shared by both ends of a JSON-lines protocol (ChildProcess in
// the parent, CommandChannel in the child): a buffer that splits what read(2) returns into
// '\n'-terminated lines, and a write loop that never raises SIGPIPE.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench {

// Longest line either side accepts by default (a reply may carry a result table).
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

class LineBuffer {
 public:
  // One read(2) of `fd` appended to the buffer: the byte count, 0 at end of file, -1 with
  // errno set on an error (EAGAIN for an empty non-blocking pipe, EINTR).
  ssize_t fill(int fd);
  // The next complete line without its '\n'; nullopt when no complete line is buffered.
  std::optional<std::string> next();
  // Bytes of an incomplete line buffered so far (what next() could not return yet).
  std::size_t pending() const { return end_ - begin_; }

 private:
  std::vector<char> buf_;  // bytes [begin_, end_) are unread; the rest is free space
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::size_t scanned_ = 0;  // [begin_, scanned_) holds no '\n'
};

// Writes all of `data` to `fd`. SIGPIPE is blocked in the calling thread for the call (and
// a SIGPIPE it raised is consumed), so a reader that is gone yields an Error, never a
// signal. For a non-blocking fd the call waits for room until `deadline`, then fails.
Status write_all(
    int fd, std::string_view data,
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

// Reports whether `data` can travel as one line (no '\n' inside), as an Error naming `what`.
Status check_one_line(std::string_view data, std::string_view what);

}  // namespace ptxbench
