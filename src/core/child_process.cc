#include "core/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/interrupt.h"
#include "core/owned_fd.h"

namespace ptxbench {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A close-on-exec pipe; the parent's end is made non-blocking.
struct PipePair {
  OwnedFd read, write;
};
Result<PipePair> make_pipe(bool parent_reads) {
  int fd[2];
  if (::pipe2(fd, O_CLOEXEC) != 0)
    return make_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  PipePair p{OwnedFd(fd[0]), OwnedFd(fd[1])};
  int parent = parent_reads ? fd[0] : fd[1];
  ::fcntl(parent, F_SETFL, ::fcntl(parent, F_GETFL) | O_NONBLOCK);
  return p;
}

int poll_ms(Clock::time_point until) {
  auto ms = std::chrono::ceil<milliseconds>(until - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(ms, 0, 1 << 30));
}

}  // namespace

std::string_view to_string(ReadLineError e) {
  switch (e) {
    case ReadLineError::timed_out:
      return "no reply within the time limit";
    case ReadLineError::closed:
      return "the child closed its reply pipe or ended";
    case ReadLineError::too_long:
      return "a reply line was longer than allowed";
  }
  return "unknown read error";
}

struct ChildProcess::Fds {
  OwnedFd command;  // parent writes commands
  OwnedFd reply;    // parent reads replies
  OwnedFd out, err;
  OwnedFd in;                     // the child's stdin, until stdin_data is written
  OwnedFd wake_read, wake_write;  // stops the drain thread
};

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const ProcessSpec& spec, ChildPipes pipes,
                                                          std::span<const ChildFd> extra) {
  PTXB_CHECK(!pipes.enabled() || (pipes.command_fd >= 3 && pipes.reply_fd >= 3 &&
                                  pipes.command_fd != pipes.reply_fd),
             "ChildPipes: two distinct descriptors >= 3, or none");
  for (const ChildFd& e : extra)
    PTXB_CHECK(e.child_fd >= 3 && e.child_fd != pipes.command_fd && e.child_fd != pipes.reply_fd,
               "ChildProcess::spawn: an extra descriptor must be >= 3 and not a protocol pipe's");
  PipePair command, reply;
  if (pipes.enabled()) {
    PTXB_TRY(command, make_pipe(false));
    PTXB_TRY(reply, make_pipe(true));
  }
  PTXB_TRY(PipePair out, make_pipe(true));
  PTXB_TRY(PipePair err, make_pipe(true));
  PTXB_TRY(PipePair in, make_pipe(false));
  PTXB_TRY(PipePair wake, make_pipe(true));
  std::vector<ChildFd> child_fds = {{in.read.get(), 0}, {out.write.get(), 1}, {err.write.get(), 2}};
  if (pipes.enabled()) {
    child_fds.push_back({command.read.get(), pipes.command_fd});
    child_fds.push_back({reply.write.get(), pipes.reply_fd});
  }
  child_fds.insert(child_fds.end(), extra.begin(), extra.end());
  PTXB_TRY(LaunchedProcess launched, launch_process(spec, child_fds));
  auto fds = std::make_unique<Fds>();
  fds->command = std::move(command.write);
  fds->reply = std::move(reply.read);
  fds->out = std::move(out.read);
  fds->err = std::move(err.read);
  fds->in = std::move(in.write);
  fds->wake_read = std::move(wake.read);
  fds->wake_write = std::move(wake.write);
  // The child's ends close here (PipePairs go out of scope): only the child holds them.
  return std::unique_ptr<ChildProcess>(new ChildProcess(launched, spec, std::move(fds)));
}

ChildProcess::ChildProcess(LaunchedProcess launched, const ProcessSpec& spec,
                           std::unique_ptr<Fds> fds)
    : launched_(launched),
      wall_deadline_(launched.start + spec.limits.wall),
      fds_(std::move(fds)),
      stdin_data_(spec.stdin_data),
      stdout_(spec.limits.output_cap_bytes),
      stderr_(spec.limits.output_cap_bytes) {
  if (stdin_data_.empty()) fds_->in.reset();
  drainer_ = std::thread([this] { drain(); });
}

ChildProcess::~ChildProcess() {
  if (!result_) (void)finish(milliseconds(0));
}

void ChildProcess::expire_wall() {
  wall_expired_ = true;
  ::kill(-launched_.pid, SIGKILL);
}

void ChildProcess::kill() {
  if (!result_) ::kill(-launched_.pid, SIGKILL);
}

Status ChildProcess::send_line(std::string_view line) {
  if (result_) return make_error("the child process has been finished");
  if (!fds_->command.valid()) return make_error("this child process has no command pipe");
  PTXB_TRY_STATUS(check_one_line(line, "a command"));
  std::string whole;
  whole.reserve(line.size() + 1);
  whole.append(line).push_back('\n');
  Status s = write_all(fds_->command.get(), whole, wall_deadline_);
  if (!s.ok() && Clock::now() >= wall_deadline_) expire_wall();
  if (!s.ok()) return make_error("cannot send a command to the child: " + s.error().message);
  return s;
}

Result<std::string, ReadLineError> ChildProcess::read_line(milliseconds timeout,
                                                           std::size_t max_bytes) {
  if (out_of_step_) return ReadLineError::too_long;
  if (result_ || !fds_->reply.valid()) return ReadLineError::closed;
  const auto until = std::min(Clock::now() + timeout, wall_deadline_);
  while (true) {
    if (auto line = replies_.next()) {
      if (line->size() <= max_bytes) return std::move(*line);
      out_of_step_ = true;
      return ReadLineError::too_long;
    }
    if (replies_.pending() > max_bytes) {
      out_of_step_ = true;
      return ReadLineError::too_long;
    }
    if (reply_eof_) return ReadLineError::closed;
    if (Clock::now() >= until) {
      if (until < wall_deadline_) return ReadLineError::timed_out;
      expire_wall();
      return ReadLineError::closed;
    }
    pollfd p{fds_->reply.get(), POLLIN, 0};
    int r = ::poll(&p, 1, poll_ms(until));
    if (r <= 0) continue;  // timeout or EINTR: the checks above decide
    ssize_t n = replies_.fill(fds_->reply.get());
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) reply_eof_ = true;
  }
}

// The drain thread: reads stdout/stderr into the captures, feeds stdin, and kills the
// group at the wall deadline. Runs until stop_drain(), then reads what is left.
void ChildProcess::drain() {
  sigset_t pipe_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, nullptr);  // a closed stdin gives EPIPE
  int out = fds_->out.get(), err = fds_->err.get(), in = fds_->in.get();
  std::size_t stdin_done = 0;
  bool stopping = false;
  char buf[65536];
  while (true) {
    // ptxbench interrupted (core/interrupt.h): the worker ends as at its wall deadline.
    if (!wall_expired_ && (Clock::now() >= wall_deadline_ || interrupted())) expire_wall();
    pollfd p[4] = {{out, POLLIN, 0},
                   {err, POLLIN, 0},
                   {in, POLLOUT, 0},
                   {stopping ? -1 : fds_->wake_read.get(), POLLIN, 0}};
    int timeout = stopping ? 20 : wall_expired_ ? -1 : std::min(poll_ms(wall_deadline_), 200);
    int r = ::poll(p, 4, timeout);
    if (r < 0 && errno != EINTR) break;
    if (r == 0 && stopping) break;  // nothing more arrived
    if (p[3].revents) stopping = true;
    for (int i = 0; i < 2; ++i) {
      if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = ::read(p[i].fd, buf, sizeof buf);
      if (k > 0) (i == 0 ? stdout_ : stderr_).add(buf, static_cast<std::size_t>(k));
      if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR)) (i == 0 ? out : err) = -1;
    }
    if (in >= 0 && p[2].revents) {
      ssize_t k = ::write(in, stdin_data_.data() + stdin_done, stdin_data_.size() - stdin_done);
      if (k > 0) stdin_done += static_cast<std::size_t>(k);
      if (stdin_done == stdin_data_.size() || (k < 0 && errno != EAGAIN && errno != EINTR)) {
        fds_->in.reset();
        in = -1;
      }
    }
    if (stopping && out < 0 && err < 0) break;
  }
}

void ChildProcess::stop_drain() {
  char b = 's';
  (void)!::write(fds_->wake_write.get(), &b, 1);
  drainer_.join();
}

bool ChildProcess::wait_exit(Clock::time_point until) {
  while (true) {
    siginfo_t info{};
    // WNOWAIT: the zombie keeps the process group id reserved until it is reaped.
    if (::waitid(P_PID, static_cast<id_t>(launched_.pid), &info, WEXITED | WNOHANG | WNOWAIT) ==
            0 &&
        info.si_pid == launched_.pid)
      return true;
    if (Clock::now() >= until) return false;
    ::usleep(1000);
  }
}

ProcessResult ChildProcess::finish(milliseconds grace) {
  if (result_) return *result_;
  fds_->command.reset();
  ProcessResult r;
  r.network_isolated = launched_.network_isolated;
  bool exited = wait_exit(std::min(Clock::now() + grace, wall_deadline_));
  ::kill(-launched_.pid, SIGKILL);  // the child if it is still running, and whatever it left
  stop_drain();
  int wstatus = 0;
  while (::waitpid(launched_.pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - launched_.start).count();
  r.timed_out = !exited || wall_expired_;
  if (!r.timed_out) {
    if (WIFEXITED(wstatus)) r.exit_code = WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus)) r.signal = WTERMSIG(wstatus);
  }
  r.stdout_text = stdout_.text(&r.stdout_truncated);
  r.stderr_text = stderr_.text(&r.stderr_truncated);
  fds_.reset();
  result_ = r;
  return r;
}

}  // namespace ptxbench
