// Ctrl-C and `kill`: a command that runs for long (`ptxbench run`) installs these handlers
// so that SIGINT or SIGTERM sets a flag instead of ending the process at once. The stages
// that wait poll the flag: a running subprocess (nvcc, a tool) is killed with its process
// group, an HTTP request is abandoned, the session loop stops before it records a
// half-done turn; the command then removes what it made, leaves its run file consistent
// and says how to resume. A second signal ends the process at once (the default action).
#pragma once

namespace ptxbench {

// Installs the handlers for SIGINT and SIGTERM (idempotent).
void install_interrupt_handlers();

// The signal received since the handlers were installed (SIGINT or SIGTERM), or 0.
int interrupt_signal();
inline bool interrupted() {
  return interrupt_signal() != 0;
}

// The exit code of a process ended by `signal` (128 + signal: 130 for SIGINT, 143 for
// SIGTERM), as a shell reports it.
inline int interrupted_exit_code(int signal) {
  return 128 + signal;
}

// For tests: forget a received signal.
void clear_interrupt_for_testing();

}  // namespace ptxbench
