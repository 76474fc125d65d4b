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
// A path-taking file call that Landlock would refuse (file_access.h) is reported the same way
// by the notification listener below, with the path after the name:
//
//   ptxbench-sandbox: refused system call <nr> <name> <path>
//
// <path> is the call's argument as it read it, cut to kShownPathBytes bytes (then "[...]"
// follows), with bytes outside printable ASCII and the backslash written as \xNN; it is
// "(unreadable)" when the pointer could not be read.
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
#include "sandbox/file_access.h"

namespace ptxbench {

inline constexpr int kSandboxRefusalExit = 87;
// How every refusal line starts (the reporters' lines above).
inline constexpr std::string_view kRefusalLinePrefix = "ptxbench-sandbox: refused system call ";

inline constexpr std::size_t kShownPathBytes = 240;

struct RefusedCall {
  int number = -1;   // the system call number as the filter saw it; -1 when unknown
  std::string name;  // "socket", "i386:getpid", or "unknown"
  std::string path;  // a refused file access: the path, as written on the line; else empty
  // Spelled out: CUDA sources that include this header are C++17.
  bool operator==(const RefusedCall& o) const {
    return number == o.number && name == o.name && path == o.path;
  }
};

// The last refusal line in `text` (a process's stderr or a report file), if any: the reporter's
// line is the last a refused process writes, so a line the candidate printed before it cannot
// name another call (red team of 2026-12-06, words/laundered_refusal_reason.cu). Lines without
// a path (the SIGSYS reporter's) give an empty path.
std::optional<RefusedCall> parse_refusal(std::string_view text);

// The refusal that ended `r`: exit kSandboxRefusalExit (its call read from the last refusal line
// on stderr, else on stdout, else unknown), or death by SIGSYS (the reporter could not run; the
// call is then unknown). nullopt otherwise.
std::optional<RefusedCall> refusal_of(const ProcessResult& r);

// The line the reporters write for call `number` named `name` (with its newline), and the
// path of a refused file access (escaped and cut as above; none when empty).
std::string refusal_line(int number, std::string_view name, std::string_view path = {});

// Installs the SIGSYS reporter writing to `report_fd`, having looked up every call's name.
// Called by apply_sandbox before it loads the filter.
Status install_refusal_reporter(int report_fd);

// The notification listener: a thread that answers the calls the filter sends to user space
// (SECCOMP_RET_USER_NOTIF) from the filter's notification descriptor.
//   - files (not null): the reported file calls (file_access.h). Decided allowed or undecided:
//     the call continues (Landlock checks it). Refused: the refusal line with the path, then
//     _exit(kSandboxRefusalExit); in learning mode instead "ptxbench-sandbox: would refuse
//     <nr> <name> <path>" (each distinct call and path once, up to a bound) and it continues.
//   - learn (SandboxPolicy::seccomp_learn, diagnosis only): every other call, outside the
//     allow-list, runs, and "ptxbench-sandbox: would refuse <nr> <name>" is written once per
//     call.
//   - any other call the filter sends it while enforcing (the host profile's clone and clone3,
//     which glibc makes with every signal blocked, so the SIGSYS reporter could not name them):
//     the refusal line, then _exit(kSandboxRefusalExit).
// Start it before loading the filter (after Landlock, so that it is confined too), then hand
// it the descriptor; install_refusal_reporter first (names, fd). `files` must outlive the
// process. The thread blocks every asynchronous signal (a handler run on it could make a call
// that waits for itself), makes only calls the filter allows without asking it, and lives
// until the process ends. If its descriptor fails while it enforces (closed by the candidate),
// it writes why and a refusal of call -1 "unknown" and exits kSandboxRefusalExit.
// An Error when it cannot start. Check file_access::decisions_work(*files) first.
Status start_notification_listener(bool learn, const file_access::Rules* files);
void hand_notification_listener(int notify_fd);

// The first "would refuse" lines of `text`, in order: what learning mode saw.
std::vector<RefusedCall> parse_would_refuse(std::string_view text);

}  // namespace ptxbench
