// Which kind of process apply_sandbox (sandbox.h) confines: it picks the seccomp allow-list
// (seccomp_filter.h). Part of the sandbox's policy.
#pragma once

#include <string_view>

namespace ptxbench {

enum class SandboxProfile {
  // A process that holds a CUDA context and loads a candidate (the runner, the audit worker):
  // what glibc, the C++ runtime, the CUDA runtime and driver and CUPTI need (threads, ioctl
  // on the GPU's device files, timers, file locks).
  gpu,
  // The candidate's host process (eval/host, docs/judging.md): no GPU, one thread of its own
  // (the file access listener, started before the filter), its CUDA calls sent as messages.
  // Everything of `gpu` except: ioctl (only the listener's SECCOMP_IOCTL_NOTIF_* and the
  // terminal queries TCGETS and TIOCGWINSZ), flock and fcntl's locks (F_GETLK, F_SETLK(W),
  // F_OFD_*), clone and clone3 (no thread, no process), timers and alarms (setitimer, alarm,
  // timer_*, timerfd_*) and handlers for SIGALRM, SIGVTALRM and SIGPROF (no candidate code
  // runs while the host waits for the broker), mprotect/pkey_mprotect with PROT_EXEC, and
  // anonymous executable mappings (PROT_EXEC only for a mapping of a file).
  host,
};

inline std::string_view to_string(SandboxProfile p) {
  return p == SandboxProfile::host ? "host" : "gpu";
}

}  // namespace ptxbench
