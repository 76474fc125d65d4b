// Ctrl-C (SIGINT) and SIGTERM while ptxbench waits for a program it started. Children run in
// their own process group (subprocess.h), so the terminal's Ctrl-C reaches only ptxbench: left
// to the default action, ptxbench would die and leave nvcc running and its build folder
// behind. Within an InterruptScope the first such signal is only recorded: the process runner
// stops the child's whole group and returns (ProcessResult::interrupted), each stage unwinds
// and removes what it made, and the command exits 128 + the signal. A second signal ends
// ptxbench at once (the default action), for a stage that does not notice.
#pragma once

namespace ptxbench {

class InterruptScope {
 public:
  InterruptScope();   // installs the handlers (SIGINT, SIGTERM), forgetting earlier signals
  ~InterruptScope();  // restores the previous handlers and forgets the signal
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// The signal recorded within the current scope; 0 when none (or outside any scope).
int interrupt_signal();

// "interrupted (SIGINT)"
const char* interrupt_name(int signal);

}  // namespace ptxbench
