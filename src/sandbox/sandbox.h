// The operating-system sandbox of the process that loads a candidate (ptxbench issue 13).
//
// A candidate's shared object runs code as soon as it is loaded (constructors) and can issue
// any system call (raw `syscall` instruction bytes; no source rule sees them). So the process
// that loads it confines itself with mechanisms the kernel enforces, after it initialised
// CUDA (which needs files, devices and threads the candidate must not get) and before it
// loads the candidate:
//
//   apply_sandbox, in this order:
//   1. no_new_privs (PR_SET_NO_NEW_PRIVS): nothing the process executes can gain privileges
//      (set-uid, file capabilities); Landlock and unprivileged seccomp require it.
//   2. not dumpable (PR_SET_DUMPABLE 0): processes of the same user (another candidate's
//      worker) cannot ptrace it or read its /proc/PID/mem; no core dump. Side effect: its
//      /proc/self files become root-owned, so an unprivileged worker cannot list /proc/self/fd.
//   3. Landlock (filesystem view): files may be opened only below the policy's paths —
//      read_paths to read and map (libraries, the toolkit), write_paths to read, write,
//      create, rename and remove (the private directory), device_paths to read, write and
//      ioctl (/dev/nvidia*). Every right the kernel's ABI knows is handled, so everything
//      else is refused with EACCES whatever the process's user (root included): ABI 2
//      cross-directory rename/link, ABI 3 truncate, ABI 4 TCP bind/connect (none granted),
//      ABI 5 device ioctl (only device_paths), ABI 6 signals and abstract unix sockets to
//      processes outside the sandbox. Landlock does not govern stat/readlink/access
//      (existence and metadata stay visible), chmod/chown/xattrs (refused by seccomp) or
//      descriptors opened before the sandbox (the CUDA driver's device files keep working).
//      Enforced on every thread, also those the CUDA driver started earlier (see landlock.h);
//      a thread that cannot be reached is reported, never ignored.
//   4. seccomp (system calls): an allow-list of what glibc, libstdc++, the CUDA runtime and
//      driver and CUPTI need after initialisation (seccomp_filter.cc, one commented group per
//      purpose). Refused, among others: sockets, fork/exec, clone without CLONE_THREAD,
//      signals/ptrace/process_vm_* to other processes, namespaces and mounts, bpf,
//      perf_event_open, keyrings, userfaultfd, io_uring, modules, setuid family, prlimit
//      raising a limit, rt_sigaction(SIGSYS), mappings writable and executable at once, any
//      call through another ABI (int 0x80). A refused call raises SIGSYS: the reporter
//      (refusal.h) writes "ptxbench-sandbox: refused system call <nr> <name>" to report_fd and
//      exits kSandboxRefusalExit (87). Loaded on every thread (TSYNC). SandboxPolicy::profile
//      picks the list: a process holding a CUDA context, or the candidate's host process,
//      which gets a stricter one (sandbox_profile.h: no ioctl on devices, threads, timers,
//      file locks or fresh executable memory).
//   5. file access reporting (file_access.h), with Landlock and the filter both in place:
//      the path-taking calls Landlock checks (open, openat, creat, mkdir(at), rmdir,
//      unlink(at), rename(at/at2)) go to a listener thread, started after Landlock and before
//      the filter, which decides with Landlock's own rules whether Landlock would refuse the
//      call. Allowed (or undecided): the call continues and Landlock checks it. Refused: the
//      listener writes "ptxbench-sandbox: refused system call <nr> <name> <path>" and exits
//      87, so a read or write outside the policy ends the run with a verdict naming the call
//      instead of an EACCES the candidate could shrug off. Landlock stays the enforcement:
//      what the listener decides only chooses between a silent EACCES and a named refusal.
//   The unprivileged user (never root) is set by the process's parent before exec
//   (ProcessSpec::run_as_uid, identity.h): apply_sandbox only reports it.
//
// What code running inside the sandboxed process can still do: everything the process itself
// does. It shares the address space with the worker, so it can read and overwrite any of the
// worker's memory — the timer, the sample list, the outputs, the result about to be written,
// the reporter's line — and call any allowed system call, including ioctls on the GPU the
// worker opened. The sandbox keeps it from reaching anything OUTSIDE the process (other
// files, the network, other processes, the kernel's wider surface); whatever the verdict
// depends on must be measured or cross-checked by a process the candidate does not share.
// Likewise it can disable or mislead the file access listener (step 5): its reports are a
// courtesy that names a refusal; Landlock still refuses what the listener lets through.
//
// When a mechanism is unavailable (a kernel without Landlock, or with Landlock but without
// some later ABI's rights, or running as root) apply_sandbox still applies the rest and says
// what is missing in SandboxReport::missing; it is never silently weaker. Whether to judge
// with a weaker sandbox is the caller's decision (probe_sandbox_support and
// sandbox_weaknesses, for `ptxbench version` and --allow-weaker-sandbox).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "sandbox/refusal.h"
#include "sandbox/sandbox_profile.h"

namespace ptxbench {

struct SandboxPolicy {
  // Read and map (also executably: Landlock's read right covers mmap PROT_EXEC; execve is
  // refused by seccomp anyway), and list directories, below each path.
  std::vector<std::filesystem::path> read_paths;
  // Also write, create, truncate, rename and remove files and directories below each path
  // (no device nodes, sockets, FIFOs or symbolic links).
  std::vector<std::filesystem::path> write_paths;
  // Read, write and ioctl on these device files (/dev/nvidiactl, /dev/nvidia0, ...).
  std::vector<std::filesystem::path> device_paths;
  bool landlock = true;  // false: skip Landlock (reported as missing)
  bool seccomp = true;   // false: skip the filter (reported as missing)
  int report_fd = 2;     // where the SIGSYS reporter writes its line
  // Diagnosis only, never for judging (reported as missing): calls outside the allow-list
  // run, and each is listed once on report_fd as "ptxbench-sandbox: would refuse <nr>
  // <name>" (parse_would_refuse); file accesses Landlock refuses are listed as "... would
  // refuse <nr> <name> <path>" and fail with EACCES. For finding what a new driver or
  // library needs.
  bool seccomp_learn = false;
  // End the process with a named refusal when a path-taking file call would be refused by
  // Landlock (step 5); false: such a call fails with EACCES and the process goes on (reported
  // as missing). Needs Landlock and seccomp user notification.
  bool report_file_access = true;
  // Allow the socket calls (reported as missing): only for a process that Nsight Compute
  // profiles, whose injected library talks to ncu over local sockets.
  bool allow_sockets = false;
  // Which seccomp allow-list (sandbox_profile.h): a process holding a CUDA context, or the
  // candidate's host process (no GPU, stricter).
  SandboxProfile profile = SandboxProfile::gpu;
  // Files whose refused read-only opens fail quietly (EACCES, the process goes on) instead of
  // ending it: libraries the process has mapped already, which a library of its own may try to
  // re-read (a traceback's symbols); reading them would teach nothing, so trying is no offence.
  std::vector<std::filesystem::path> quiet_paths;
};

// Which mechanisms apply_sandbox put in place.
struct SandboxReport {
  bool no_new_privs = false;
  bool not_dumpable = false;
  bool landlock = false;     // the ruleset restricts every thread of the process
  int landlock_abi = 0;      // the kernel's Landlock ABI; 0: none
  int landlock_threads = 0;  // threads the ruleset was enforced on (this one included)
  bool seccomp = false;      // the allow-list filter is loaded on every thread
  // A file access Landlock refuses ends the process with a refusal naming the call and path
  // (step 5); false: it fails with EACCES and the process goes on.
  bool file_access_reported = false;
  bool unprivileged = false;                     // effective uid != 0
  SandboxProfile profile = SandboxProfile::gpu;  // the policy's, as applied
  std::vector<std::string> missing;  // one line per mechanism that is off or partial, and why
  std::vector<std::string> notes;    // harmless details: policy paths absent here, ...

  bool complete() const { return missing.empty(); }
  Json to_json() const;
};

// Applies the sandbox to the calling process (all its threads), in the order above.
// Irreversible. An Error when a mechanism the kernel offers fails to apply (a policy path
// that cannot be opened, a filter the kernel rejects): the process is then partly sandboxed
// and should exit rather than load the candidate. Missing mechanisms are not Errors.
Result<SandboxReport> apply_sandbox(const SandboxPolicy& policy);

// What this machine offers, without changing the calling process.
struct SandboxSupport {
  int landlock_abi = 0;         // 0: no Landlock
  std::string landlock_detail;  // "ABI 7" or why there is none
  bool seccomp_filter = false;  // filters with SECCOMP_RET_TRAP and TSYNC
  std::string seccomp_detail;
  bool running_as_root = false;
  bool can_run_unprivileged = false;  // already unprivileged, or root able to switch to nobody
  std::string identity_detail;

  Json to_json() const;
};
SandboxSupport probe_sandbox_support();

// Why judging here would be weaker than the full sandbox, one sentence each; empty when the
// machine offers everything (Landlock, the seccomp filter, an unprivileged user).
std::vector<std::string> sandbox_weaknesses(const SandboxSupport& support);

}  // namespace ptxbench
