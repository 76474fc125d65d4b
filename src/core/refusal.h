// How a sandboxed process reports a system call the seccomp filter refused, and how its
// parent reads that report back.
//
// The filter answers a refused call with SIGSYS; the reporter installed by apply_sandbox
// writes exactly one line to the policy's report_fd (stderr by default)
//
//   ptxbench-sandbox: refused system call <nr> <name>
//
// and ends the process with _exit(kSandboxRefusalExit). <name> is the native name ("socket"),
// or "i386:<name>" / "x32:<name>" for a call through another ABI, or "unknown". The handler
// allocates nothing: names are looked up when the sandbox is applied.
//
// The line is written by code in the candidate's own process, so a candidate can forge it
// (or suppress it by blocking SIGSYS: the kernel then kills the process with SIGSYS, which
// refusal_of also reads as a refusal). Either way the candidate only fails itself.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/subprocess.h"

namespace ptxbench {

inline constexpr int kSandboxRefusalExit = 87;

struct RefusedCall {
  int number = -1;   // the system call number as the filter saw it; -1 when unknown
  std::string name;  // "socket", "i386:getpid", or "unknown"
  bool operator==(const RefusedCall& o) const { return number == o.number && name == o.name; }
};

// The first refusal line in `text` (a process's stderr or a report file), if any.
std::optional<RefusedCall> parse_refusal(std::string_view text);

// The refusal that ended `r`: exit kSandboxRefusalExit with a refusal line on stderr, or death
// by SIGSYS (the reporter could not run; the call is then unknown). nullopt otherwise.
std::optional<RefusedCall> refusal_of(const ProcessResult& r);

// The line the reporter writes for call `number` named `name` (with its newline).
std::string refusal_line(int number, std::string_view name);

// Installs the SIGSYS reporter writing to `report_fd`, having looked up every call's name.
// Called by apply_sandbox before it loads the filter.
Status install_refusal_reporter(int report_fd);

// Learning mode (SandboxPolicy::seccomp_learn, diagnosis only): a thread that receives every
// call outside the allow-list from the filter's notification descriptor, lets it run, and
// writes "ptxbench-sandbox: would refuse <nr> <name>" to the reporter's fd once per call.
// Start it before loading the filter (its start-up must not need a listed call), then hand
// it the descriptor; install_refusal_reporter first (names, fd).
// The thread lives until the process ends.
Status start_learning_reporter();
void hand_learning_reporter(int notify_fd);

// The first "would refuse" lines of `text`, in order: what learning mode saw.
std::vector<RefusedCall> parse_would_refuse(std::string_view text);

}  // namespace ptxbench
