#include "core/subprocess.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/interrupt.h"
#include "core/output_capture.h"

extern char** environ;

namespace ptxbench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kMaxChildFds = 16;

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  void close_both() {
    for (int& f : fd)
      if (f >= 0) ::close(f), f = -1;
  }
};

// Lowers `resource` to `v` (soft and hard), never above the hard limit ptxbench itself was
// given: a limit set by the user (`ulimit -f 50`) binds the children too, even as root, who
// could raise it.
void set_limit(int resource, const std::optional<std::uint64_t>& v) {
  if (!v) return;
  rlimit now{};
  rlim_t want = static_cast<rlim_t>(*v);
  if (::getrlimit(resource, &now) == 0 && now.rlim_max != RLIM_INFINITY)
    want = std::min(want, now.rlim_max);
  rlimit rl{want, want};
  ::setrlimit(resource, &rl);
}

std::vector<std::string> build_env(const ProcessSpec& spec) {
  std::map<std::string, std::string> merged;
  if (!spec.clear_env) {
    for (char** e = environ; e && *e; ++e) {
      std::string kv(*e);
      auto eq = kv.find('=');
      if (eq != std::string::npos) merged[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  }
  for (const auto& [k, v] : spec.env) merged[k] = v;
  std::vector<std::string> out;
  out.reserve(merged.size());
  for (const auto& [k, v] : merged) out.push_back(k + "=" + v);
  return out;
}

bool try_isolate_network() {
  if (::unshare(CLONE_NEWNET) == 0) return true;
  return false;
}

// Marks every descriptor >= `first` close-on-exec. close_range through syscall() so the
// binary does not need glibc 2.34; a loop where the kernel is older than 5.11.
void mark_cloexec_from(int first) {
  if (::syscall(SYS_close_range, static_cast<unsigned>(first), ~0u, CLOSE_RANGE_CLOEXEC) == 0)
    return;
  rlimit rl{};
  ::getrlimit(RLIMIT_NOFILE, &rl);
  rlim_t last = std::min<rlim_t>(rl.rlim_cur, 1 << 20);
  for (rlim_t fd = static_cast<rlim_t>(first); fd < last; ++fd)
    ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
}

// Moves the child's descriptors into place: each parent_fd to its child_fd, `status_fd`
// out of their way (the new number is returned), every other descriptor close-on-exec.
// Copies go above all targets first, so a parent_fd whose number is another entry's
// child_fd is not lost, and dup2 onto the target clears its close-on-exec flag.
int place_fds(std::span<const ChildFd> fds, int status_fd) {
  int top = 2;
  for (const ChildFd& f : fds) top = std::max(top, f.child_fd);
  const int base = top + 1;
  status_fd = ::fcntl(status_fd, F_DUPFD_CLOEXEC, base);
  int moved[kMaxChildFds];
  for (std::size_t i = 0; i < fds.size(); ++i)
    moved[i] = ::fcntl(fds[i].parent_fd, F_DUPFD_CLOEXEC, base);
  for (int fd = 0; fd <= top; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  for (std::size_t i = 0; i < fds.size(); ++i) ::dup2(moved[i], fds[i].child_fd);
  mark_cloexec_from(base);
  return status_fd;
}

// The parent may ignore SIGPIPE or block signals in the forking thread; the program
// starts with the defaults.
void reset_signals() {
  ::signal(SIGPIPE, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// Between fork and exec (one thread; async-signal-safe): no_new_privs, then the Landlock ruleset
// the parent built (sandbox/landlock.h build_child_ruleset). 0, or the errno of the failed step.
int enter_landlock_view(int ruleset_fd) {
#ifndef SYS_landlock_restrict_self
  constexpr long SYS_landlock_restrict_self = 446;
#endif
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  return ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0) == 0 ? 0 : errno;
}

// Why a child could not start: the step that failed and its errno, sent through the status pipe.
enum class StartStep : int { chdir, setgroups, setresgid, setresuid, landlock, exec };

struct StartFailure {
  StartStep step;
  int err;
};

std::string describe(const StartFailure& f, const ProcessSpec& spec) {
  std::string what;
  switch (f.step) {
    case StartStep::chdir:
      what = "cannot enter " + spec.cwd.string();
      break;
    case StartStep::setgroups:
      what = "setgroups(0) failed";
      break;
    case StartStep::setresgid:
      what = "setresgid(" + std::to_string(spec.run_as_gid.value_or(0)) + ") failed";
      break;
    case StartStep::setresuid:
      what = "setresuid(" + std::to_string(spec.run_as_uid.value_or(0)) + ") failed";
      break;
    case StartStep::landlock:
      what = "cannot enter the Landlock view";
      break;
    case StartStep::exec:
      what = "exec failed";
      break;
  }
  return what + ": " + std::strerror(f.err);
}

[[noreturn]] void fail_start(int status_fd, StartStep step) {
  StartFailure f{step, errno};
  (void)!::write(status_fd, &f, sizeof f);
  ::_exit(127);
}

// Drops to the spec's user and group, if any: groups first, the user last (after it, the
// child could no longer change its groups).
void switch_identity(const ProcessSpec& spec, int status_fd) {
  if (!spec.run_as_uid && !spec.run_as_gid) return;
  if (::setgroups(0, nullptr) != 0) fail_start(status_fd, StartStep::setgroups);
  if (spec.run_as_gid) {
    gid_t g = *spec.run_as_gid;
    if (::setresgid(g, g, g) != 0) fail_start(status_fd, StartStep::setresgid);
  }
  if (spec.run_as_uid) {
    uid_t u = *spec.run_as_uid;
    if (::setresuid(u, u, u) != 0) fail_start(status_fd, StartStep::setresuid);
  }
}

// Runs in the child after fork: never returns. Reports a failed start through `status_fd`.
// Async-signal-safe calls only: the parent may have other threads.
[[noreturn]] void exec_child(const ProcessSpec& spec, std::span<const ChildFd> fds, int status_fd,
                             std::vector<char*>& argv, std::vector<char*>& envp) {
  ::setsid();
  char net = 'n';
  if (spec.isolate_network && try_isolate_network()) net = 'N';
  (void)!::write(status_fd, &net, 1);
  status_fd = place_fds(fds, status_fd);
  reset_signals();
  const auto& l = spec.limits;
  set_limit(RLIMIT_AS, l.address_space_bytes);
  set_limit(RLIMIT_CPU, l.cpu_seconds);
  set_limit(RLIMIT_FSIZE, l.file_size_bytes);
  set_limit(RLIMIT_NOFILE, l.open_files);
  set_limit(RLIMIT_NPROC, l.processes);
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  switch_identity(spec, status_fd);
  if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0) fail_start(status_fd, StartStep::chdir);
  if (spec.landlock_ruleset_fd >= 0) {
    if (int e = enter_landlock_view(spec.landlock_ruleset_fd); e != 0) {
      errno = e;
      fail_start(status_fd, StartStep::landlock);
    }
  }
  ::execvpe(argv[0], argv.data(), envp.data());
  fail_start(status_fd, StartStep::exec);
}
// User plus system CPU time of a waited-for child and the descendants it waited for.
double cpu_seconds_of(const rusage& u) {
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

}  // namespace

std::string ProcessResult::describe_end() const {
  if (timed_out) return "timed out after " + std::to_string(static_cast<int>(wall_seconds)) + " s";
  if (interrupted != 0)
    return std::string("stopped: ptxbench was interrupted (") + interrupt_name(interrupted) + ")";
  if (signal != 0)
    return "killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

std::string cap_text(const std::string& text, std::size_t cap, bool* truncated) {
  OutputCapture c(cap);
  c.add(text.data(), text.size());
  return c.text(truncated);
}

std::filesystem::path find_on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::string p(path);
  std::size_t start = 0;
  while (start <= p.size()) {
    std::size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::filesystem::path candidate = std::filesystem::path(p.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

Result<LaunchedProcess> launch_process(const ProcessSpec& spec, std::span<const ChildFd> fds) {
  PTXB_CHECK(!spec.argv.empty(), "run_process needs a program");
  PTXB_CHECK(fds.size() <= kMaxChildFds, "launch_process passes at most 16 descriptors");
  for (std::size_t i = 0; i < fds.size(); ++i) {
    PTXB_CHECK(fds[i].parent_fd >= 0 && fds[i].child_fd >= 0, "launch_process: a negative fd");
    for (std::size_t j = 0; j < i; ++j)
      PTXB_CHECK(fds[i].child_fd != fds[j].child_fd, "launch_process: a child fd given twice");
  }
  std::vector<std::string> env_strings = build_env(spec);
  std::vector<char*> argv, envp;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  // execvpe looks programs up on the child's PATH; resolve here so clear_env still works.
  std::string resolved = find_on_path(spec.argv[0]).string();
  if (resolved.empty())
    return make_error("program not found: " + spec.argv[0],
                      "install it or put it on PATH (scripts/setup.sh installs ptxbench's tools)");
  argv[0] = resolved.data();

  Pipe status;
  if (!status.open())
    return make_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  LaunchedProcess p;
  p.start = Clock::now();
  p.pid = ::fork();
  if (p.pid < 0) {
    status.close_both();
    return make_error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (p.pid == 0) exec_child(spec, fds, status.fd[1], argv, envp);
  ::close(status.fd[1]), status.fd[1] = -1;

  // Status pipe: one byte (network isolation), then a StartFailure if the start failed.
  char net = 'n';
  if (::read(status.fd[0], &net, 1) == 1) p.network_isolated = (net == 'N');
  StartFailure failure{};
  ssize_t got = ::read(status.fd[0], &failure, sizeof failure);
  status.close_both();
  if (got == static_cast<ssize_t>(sizeof failure)) {
    ::waitpid(p.pid, nullptr, 0);
    return make_error("cannot start " + spec.argv[0] + ": " + describe(failure, spec));
  }
  return p;
}

Result<ProcessResult> SystemProcessRunner::run(const ProcessSpec& spec) {
  PTXB_CHECK(!spec.argv.empty(), "run_process needs a program");
  Pipe in, out, err;
  if (!in.open() || !out.open() || !err.open()) {
    in.close_both(), out.close_both(), err.close_both();
    return make_error(std::string("cannot create pipes: ") + std::strerror(errno));
  }
  const ChildFd child_fds[] = {{in.fd[0], 0}, {out.fd[1], 1}, {err.fd[1], 2}};
  auto launched = launch_process(spec, child_fds);
  ::close(in.fd[0]), in.fd[0] = -1;
  ::close(out.fd[1]), out.fd[1] = -1;
  ::close(err.fd[1]), err.fd[1] = -1;
  if (!launched.ok()) {
    in.close_both(), out.close_both(), err.close_both();
    return launched.error();
  }
  const pid_t pid = launched->pid;
  const auto start = launched->start;
  ProcessResult r;
  r.network_isolated = launched->network_isolated;

  // Feed stdin (small inputs; the worker protocol passes files for bulk data).
  ::signal(SIGPIPE, SIG_IGN);
  if (!spec.stdin_data.empty())
    (void)!::write(in.fd[1], spec.stdin_data.data(), spec.stdin_data.size());
  ::close(in.fd[1]), in.fd[1] = -1;

  OutputCapture cout_(spec.limits.output_cap_bytes);
  OutputCapture cerr_(spec.limits.output_cap_bytes);
  auto deadline = start + spec.limits.wall;
  int open_fds = 2;
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  char buf[65536];
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    if (spec.stop_on_interrupt && (r.interrupted = interrupt_signal()) != 0) break;
    int n = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 200)));
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = ::read(fds[i].fd, buf, sizeof buf);
      if (k > 0) {
        (i == 0 ? cout_ : cerr_).add(buf, static_cast<std::size_t>(k));
      } else if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) {
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int wstatus = 0;
  rusage usage{};
  if (r.timed_out || r.interrupted) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    ::wait4(pid, &wstatus, 0, &usage);
  } else {
    // Output closed; wait for exit within the remaining time.
    while (true) {
      pid_t w = ::wait4(pid, &wstatus, WNOHANG, &usage);
      if (w == pid) break;
      if (spec.stop_on_interrupt && !r.interrupted) r.interrupted = interrupt_signal();
      if (Clock::now() >= deadline || r.interrupted) {
        r.timed_out = !r.interrupted;
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
        ::wait4(pid, &wstatus, 0, &usage);
        break;
      }
      ::usleep(2000);
    }
  }
  // Kill anything the child left running in its process group.
  ::kill(-pid, SIGKILL);
  out.close_both(), err.close_both();
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.cpu_seconds = cpu_seconds_of(usage);
  if (!r.timed_out && !r.interrupted) {
    if (WIFEXITED(wstatus)) r.exit_code = WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus)) r.signal = WTERMSIG(wstatus);
  }
  r.stdout_text = cout_.text(&r.stdout_truncated);
  r.stderr_text = cerr_.text(&r.stderr_truncated);
  return r;
}

}  // namespace ptxbench
