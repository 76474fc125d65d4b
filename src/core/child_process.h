// ChildProcess: a program kept running for a whole conversation (the judging session's
// GPU workers). The parent sends one command line, the child answers with one reply line
// (JSON lines), over two pipes that are not stdin/stdout, so stray prints of the child
// cannot corrupt the protocol. Started exactly like SystemProcessRunner::run (the same
// ProcessSpec, limits, environment and network namespace, through launch_process).
// The child's end of the protocol is CommandChannel.
//
// Not thread-safe: one owner thread calls the methods; an internal thread drains the
// child's stdout/stderr and enforces the wall-clock limit.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>

#include "core/line_io.h"
#include "core/output_capture.h"
#include "core/result.h"
#include "core/subprocess.h"

namespace ptxbench {

// The descriptor numbers the child sees: it reads commands from command_fd and writes
// replies to reply_fd. Both must be >= 3 and differ, or both -1 (none(): a child the parent does
// not talk to, whose descriptors are all given as `extra`).
struct ChildPipes {
  int command_fd = 3;
  int reply_fd = 4;
  static ChildPipes none() { return {-1, -1}; }
  bool enabled() const { return command_fd >= 0; }
};

// Why read_line returned no line.
enum class ReadLineError {
  timed_out,  // no complete line within the timeout; the child is left running
  closed,     // end of file: the child ended, closed its reply fd, or was killed (kill(),
              // the wall limit, finish()); a partial last line is dropped
  too_long,   // a line exceeded max_bytes; the stream is out of step, so every later
              // read_line says too_long too (kill the child)
};
std::string_view to_string(ReadLineError e);

class ChildProcess {
 public:
  // Starts spec.argv with its stdin fed from spec.stdin_data (then closed), stdout and
  // stderr captured (drained continuously into OutputCaptures of
  // spec.limits.output_cap_bytes each, so a chatty child never blocks), and the two
  // protocol pipes at `pipes`; the child inherits no other descriptor.
  // spec.limits.wall counts from now: past it the process group is killed.
  // An Error when the program is not found or cannot be started.
  // `extra`: more descriptors of the parent the child gets, at the given numbers (>= 3, none
  // of the protocol pipes'); the caller still owns its copies.
  static Result<std::unique_ptr<ChildProcess>> spawn(const ProcessSpec& spec, ChildPipes pipes = {},
                                                     std::span<const ChildFd> extra = {});

  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Kills the whole process group if still running (as finish with no grace).
  ~ChildProcess();

  // Sends `line` and '\n'. Blocks while the pipe is full, at most until the wall limit.
  // An Error when the line holds a '\n', after finish(), or when the child is gone or has
  // closed its command fd (EPIPE; never SIGPIPE). A child that just died may still take a
  // line or two: the kernel can release its reply pipe (read_line: closed) before its
  // command pipe.
  Status send_line(std::string_view line);

  // The next reply line without its '\n', waiting at most `timeout` (a partial line read
  // by a timed-out call is kept for the next one). Past the wall limit the group is
  // killed and the answer is closed.
  Result<std::string, ReadLineError> read_line(std::chrono::milliseconds timeout,
                                               std::size_t max_bytes = kMaxLineBytes);

  // Ends the conversation: closes the command pipe (the child sees end of file), waits up
  // to `grace` (and at most until the wall limit) for the child to exit, then kills the
  // whole process group and reaps it. timed_out is set when the wall limit passed or the
  // child had to be killed after `grace`; otherwise exit_code or signal say how it ended
  // (signal 9 after kill()). wall_seconds counts from spawn. Later calls return the same.
  ProcessResult finish(std::chrono::milliseconds grace);

  // SIGKILL to the whole process group now (nothing after finish()). A read_line waiting
  // or later answers closed; finish() still reaps and reports.
  void kill();

  pid_t pid() const { return launched_.pid; }  // also the process group id
  bool network_isolated() const { return launched_.network_isolated; }

 private:
  struct Fds;  // the parent's ends of the pipes
  ChildProcess(LaunchedProcess launched, const ProcessSpec& spec, std::unique_ptr<Fds> fds);

  void drain();        // the drain thread's body
  void expire_wall();  // kill for the wall limit (either thread)
  bool wait_exit(std::chrono::steady_clock::time_point until);  // without reaping
  void stop_drain();

  LaunchedProcess launched_;
  std::chrono::steady_clock::time_point wall_deadline_;
  std::unique_ptr<Fds> fds_;
  std::string stdin_data_;
  OutputCapture stdout_;  // written by the drain thread until it is joined
  OutputCapture stderr_;
  LineBuffer replies_;
  bool reply_eof_ = false;
  bool out_of_step_ = false;
  std::atomic<bool> wall_expired_{false};
  std::optional<ProcessResult> result_;
  std::thread drainer_;
};

}  // namespace ptxbench
