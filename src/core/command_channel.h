// CommandChannel: the child's end of ChildProcess's JSON-lines protocol. The worker reads
// one command line from fd 3 and answers with one reply line on fd 4 (ChildPipes).
// It does not use CUDA, so it lives in core and is tested here.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/line_io.h"
#include "core/result.h"

namespace ptxbench {

class CommandChannel {
 public:
  // Takes the two descriptors a ChildProcess gave this process (default fds 3 and 4) and
  // marks them close-on-exec, so programs this process starts do not hold the protocol
  // open. An Error when either is not open (the program was not started by ChildProcess).
  // The channel does not close them; they stay open for the life of the process.
  static Result<CommandChannel> from_fds(int in = 3, int out = 4);

  // The next command without its '\n', blocking until it arrives. nullopt at end of file
  // (the parent closed the pipe: finish() or the parent ended); an unterminated last line
  // is a command the parent did not finish sending and is dropped. An Error on a read
  // error or a line longer than `max_bytes` (the channel is then unusable).
  Result<std::optional<std::string>> next_line(std::size_t max_bytes = kMaxLineBytes);

  // Writes `line` and '\n' (one buffer, one write loop, so a reply is never interleaved).
  // An Error when the line holds a '\n' or the parent is gone (EPIPE; never SIGPIPE).
  Status reply(std::string_view line);

 private:
  CommandChannel(int in, int out) : in_(in), out_(out) {}

  int in_;
  int out_;
  LineBuffer buffer_;
};

}  // namespace ptxbench
