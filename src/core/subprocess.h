// Running another program with a wall-clock limit, resource limits and captured,
// size-capped output. Used for nvcc, cuobjdump, the GPU worker and ncu.
//
// ProcessRunner is the I/O seam: stages take a ProcessRunner& so their tests can
// substitute a fake that returns recorded outputs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace ptxbench {

// Limits set in the child before exec, soft and hard alike; each is capped by the hard limit
// this process has, so a child never gets more than ptxbench was given.
struct ProcessLimits {
  std::chrono::milliseconds wall{std::chrono::minutes(5)};
  std::optional<std::uint64_t> address_space_bytes;  // RLIMIT_AS
  std::optional<std::uint64_t> cpu_seconds;          // RLIMIT_CPU
  std::optional<std::uint64_t> file_size_bytes;      // RLIMIT_FSIZE
  std::optional<std::uint64_t> open_files;           // RLIMIT_NOFILE
  std::optional<std::uint64_t> processes;            // RLIMIT_NPROC
  std::size_t output_cap_bytes = 1 << 20;            // per stream; head and tail are kept
};

struct ProcessSpec {
  std::vector<std::string> argv;           // argv[0] is looked up on PATH when it has no '/'
  std::filesystem::path cwd;               // empty: inherit
  std::map<std::string, std::string> env;  // added to (or replacing) the inherited environment
  bool clear_env = false;                  // start from an empty environment
  std::string stdin_data;                  // written to the child's stdin, then closed
  ProcessLimits limits;
  // Put the child in a new network namespace with no interfaces (needs root or user
  // namespaces). When that is not allowed the child still runs, and the result says so.
  bool isolate_network = false;
  // Run the child as this user and group (identity.h: unprivileged_identity), switched in
  // the child before exec: supplementary groups dropped (setgroups(0), when either is set),
  // then setresgid, then setresuid. Needs root. A failed step fails the start with its errno.
  // Unset: the child keeps this process's identity.
  std::optional<uid_t> run_as_uid;
  std::optional<gid_t> run_as_gid;
  // A Landlock ruleset (landlock::build_child_ruleset) the child enforces on itself, with
  // no_new_privs, just before exec: the program and everything it starts can open only what
  // the ruleset grants. -1: none. The caller keeps the descriptor.
  int landlock_ruleset_fd = -1;
  // Stop the child (its whole process group) when ptxbench is interrupted (interrupt.h):
  // the result then has `interrupted` set.
  bool stop_on_interrupt = true;
};

struct ProcessResult {
  int exit_code = -1;  // valid when !signaled && !timed_out
  int signal = 0;      // the signal that ended it, if any
  bool timed_out = false;
  // The signal (SIGINT, SIGTERM) that interrupted ptxbench (core/interrupt.h), or 0; the
  // child's group was then stopped, and neither timed_out nor exit_code/signal are set: the
  // caller decides what an interrupted child means (compile caches nothing, compiler.cc).
  int interrupted = 0;
  std::string stdout_text;
  std::string stderr_text;
  bool stdout_truncated = false;
  bool stderr_truncated = false;
  double wall_seconds = 0;
  // User + system CPU seconds of the child and of every descendant it waited for (wait4's
  // rusage: nvcc's cicc and ptxas count; what it left running, killed at the end, does not).
  double cpu_seconds = 0;
  bool network_isolated = false;

  bool succeeded() const { return !timed_out && !interrupted && signal == 0 && exit_code == 0; }
  // "exit code 2", "killed by signal 11 (Segmentation fault)", "timed out after 30 s"
  std::string describe_end() const;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // An Error only when the program could not be started at all (not found, fork failed).
  virtual Result<ProcessResult> run(const ProcessSpec& spec) = 0;
};

// The real runner: fork/exec in a new process group (setsid); the whole group is
// killed on timeout, and when ptxbench is interrupted (core/interrupt.h).
class SystemProcessRunner final : public ProcessRunner {
 public:
  Result<ProcessResult> run(const ProcessSpec& spec) override;
};

// One descriptor the child starts with: the parent's `parent_fd` becomes the child's
// `child_fd` (0, 1, 2 for stdio; 3 and up for extra channels such as ChildProcess's pipes).
struct ChildFd {
  int parent_fd;
  int child_fd;
};

// A started child: its pid (also its process group id, the child calls setsid) and when
// it was started.
struct LaunchedProcess {
  pid_t pid = -1;
  bool network_isolated = false;
  std::chrono::steady_clock::time_point start;
};

// The one way ptxbench starts a program (SystemProcessRunner and ChildProcess both use it):
// fork, then in the child setsid, the empty network namespace when asked, the descriptors
// in `fds` at their child numbers and every other descriptor closed on exec, default
// SIGPIPE and an empty signal mask, the rlimits of spec.limits (and no core files), cwd,
// and exec of spec.argv with the environment of spec.env/clear_env.
// spec.stdin_data and spec.limits.wall/output_cap_bytes are the caller's business.
// The caller keeps ownership of the parent_fds (close them after this returns).
// An Error when the program is not found or cannot be started (the child is then reaped).
Result<LaunchedProcess> launch_process(const ProcessSpec& spec, std::span<const ChildFd> fds);

// Keeps the first and last halves of `text` within `cap` bytes, marking the cut.
std::string cap_text(const std::string& text, std::size_t cap, bool* truncated = nullptr);

// Finds a program on PATH; empty when absent.
std::filesystem::path find_on_path(const std::string& name);

}  // namespace ptxbench
