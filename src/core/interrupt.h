// Ctrl-C (SIGINT) and `kill` (SIGTERM) while ptxbench waits for a program it started or for a
// model's reply. Children run in their own process group (subprocess.h), so the terminal's
// Ctrl-C reaches only ptxbench: left to the default action, ptxbench would die and leave nvcc
// or a worker running and its build folder behind. A command that waits (`compile`, `eval`,
// `audit`, `run`) holds an InterruptScope; within it the first such signal is only recorded,
// and the stages that wait poll the flag: the process runner stops the child's whole group
// and returns (ProcessResult::interrupted), a worker (ChildProcess) ends as at its wall
// deadline, an HTTP request is abandoned, the session loop stops before it records a
// half-done turn. Each stage unwinds and removes what it made (an interrupted nvcc leaves
// nothing in the compile cache), the command leaves its run file consistent, says how to
// resume where it can, and exits 128 + the signal. A second signal ends ptxbench at once
// (the default action), for a stage that does not notice — unless it comes within
// kCoalesceNs of the first: `timeout` and systemd send SIGTERM to the process and then to its
// process group, which is one request, not two.
#pragma once

namespace ptxbench {

inline constexpr long long kCoalesceNs = 1'000'000'000;  // 1 s

class InterruptScope {
 public:
  // installs the handlers (SIGINT, SIGTERM, SIGHUP), forgetting earlier signals
  InterruptScope();
  ~InterruptScope();  // restores the previous handlers and forgets the signal
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// The signal (SIGINT, SIGTERM or SIGHUP) recorded within the current scope; 0 when none (or outside
// any scope).
int interrupt_signal();
inline bool interrupted() {
  return interrupt_signal() != 0;
}

// "SIGINT", "SIGTERM", "SIGHUP"
const char* interrupt_name(int signal);

// The exit code of a command ended by `signal` (128 + signal: 130 for SIGINT, 143 for
// SIGTERM, 129 for SIGHUP), as a shell reports it.
inline int interrupted_exit_code(int signal) {
  return 128 + signal;
}

}  // namespace ptxbench
