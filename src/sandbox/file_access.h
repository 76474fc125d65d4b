// Whether Landlock refuses a path-taking file system call, decided before the call runs, so
// that the sandbox can end the process with a verdict naming the call and the path (ptxbench
// issue 13) instead of letting the candidate see EACCES and go on. Part of the sandbox's
// implementation (sandbox.h); the listener that asks is in refusal.h.
//
// Landlock stays the enforcement. The seccomp filter sends the calls below to a listener
// thread (SECCOMP_RET_USER_NOTIF); the listener asks decide(): allowed or undecided -> the call
// continues (SECCOMP_USER_NOTIF_FLAG_CONTINUE) and Landlock checks it as before; refused -> the
// process writes the refusal line and exits 87. The decision only chooses between a silent
// EACCES and a named refusal, never whether the file is reached.
//
// Reported (x86_64): open, openat, creat (not with O_PATH: Landlock does not check O_PATH
// opens), mkdir, mkdirat, rmdir, unlink, unlinkat, rename, renameat, renameat2.
// Not reported, by decision:
//   - link, linkat, symlink, symlinkat, mknod, mknodat, truncate, openat2: refused outright by
//     the seccomp filter (SIGSYS, named without the path), as before.
//   - stat family, access, readlink, getdents, statfs, chdir: Landlock does not govern them
//     (existence and metadata stay visible), so "the same rules as Landlock" allow them; a
//     stricter rule would break the loader and the driver, which probe paths freely.
//   - O_PATH opens (see above) and O_TMPFILE opens (undecided, below).
//
// How a call is decided, with the rules Landlock enforces (landlock::RuleInode: the inodes
// the policy paths named when the ruleset was built, with the rights each grants):
//   - The path argument is read from the caller's memory (same process: process_vm_readv on
//     itself, page by page, at most PATH_MAX). An unreadable pointer is a refusal: no honest
//     caller passes one, and it would otherwise hide the path from the reporter.
//   - The path is resolved as the kernel resolves it for the caller: relative to the call's
//     dirfd or the working directory (the listener's own, which every thread shares unless it
//     was made with a raw clone without CLONE_FS/CLONE_FILES), intermediate components by
//     the kernel (an O_PATH open of the parent), a final symbolic link by readlinkat where the
//     call follows it.
//   - The rights the call needs are Landlock's: reading a file or listing a directory, writing,
//     truncating (O_TRUNC on an existing regular file), making a regular file, a directory,
//     removing, REFER across directories, each limited to the rights the kernel's ABI handles.
//   - They are granted when the rules on the target itself (a rule on a file, such as a
//     device) and on every directory above it, up through ".." across mount points to the
//     root, together hold them: Landlock's own walk over the same inodes.
//   Undecided, so left to Landlock (it may refuse with EACCES silently): anything the call
//   would fail at by itself (ENOENT, EEXIST, ENOTDIR, ELOOP, EISDIR, ...), a path through a
//   /proc "magic" link (it names no path), O_TMPFILE, RENAME_WHITEOUT, a resolution step the
//   listener cannot take (its own descriptors exhausted, a directory it may not search).
//
// Correctness traps:
//   - TOCTOU: the caller's memory, working directory and files can change between the decision
//     and the kernel's own resolution. That changes only which report is made, never access:
//     Landlock decides on what the kernel resolves. (This is why CONTINUE is safe here.)
//   - Deadlock: while a call waits for the listener, the listener must be able to answer. So
//     decide() takes no lock and allocates nothing, and makes only calls the filter allows
//     without asking the listener (O_PATH opens, fstat/fstatat/fstatfs, readlinkat, close,
//     process_vm_readv on itself). The CUDA driver's threads are answered like any other.
//   - The candidate shares the address space: it can overwrite the rules, the listener's
//     buffers or its code, close the notification descriptor, or forge lines. Then reports are
//     wrong or missing, but Landlock still refuses (silently), and with the descriptor gone
//     every reported call fails with ENOSYS. The report is a courtesy, the enforcement is not.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sandbox/landlock.h"

namespace ptxbench::file_access {

// A reported call as the filter must treat it: its name and, for opens, the argument that
// holds the open flags (O_PATH opens are allowed outright; -1: not an open).
struct ReportedCall {
  const char* name;
  int open_flags_arg;
};
std::vector<ReportedCall> reported_calls();

// Whether native call number `nr` is one of the reported calls, and its name (nullptr if not).
const char* reported_name(long nr);

// A call as the filter saw it (seccomp_data's number and arguments).
struct Call {
  long nr = -1;
  std::uint64_t args[6] = {};
};

enum class Verdict {
  allowed,    // Landlock would allow what the call asks for
  refused,    // Landlock would refuse it (EACCES): report it
  undecided,  // the call fails by itself, or the listener cannot tell: leave it to Landlock
};

inline constexpr std::size_t kPathMax = 4096;  // PATH_MAX, with the terminating NUL

// Working memory of decide(), allocated once by its owner (one per listener).
struct Scratch {
  char paths[2][kPathMax];  // the call's path arguments, as read
  char work[kPathMax];      // the path being resolved
  char link[kPathMax];      // a symbolic link's target
};

struct Decision {
  Verdict verdict = Verdict::undecided;
  // refused: the path argument concerned (in Scratch::paths, NUL-terminated), or nullptr when
  // the pointer could not be read.
  const char* path = nullptr;
};

// The enforced rules, fixed once built: lookups allocate nothing.
class Rules {
 public:
  // `rules` and `handled_fs` as landlock::restrict_filesystem reported them; `pid` this
  // process (whose memory the path arguments are read from).
  Rules(std::vector<landlock::RuleInode> rules, unsigned long long handled_fs, pid_t pid);
  unsigned long long rights_at(dev_t dev, ino_t ino) const;  // 0: no rule on that inode
  unsigned long long handled() const { return handled_; }
  pid_t pid() const { return pid_; }
  // Files whose refused read-only opens are left to Landlock (a quiet EACCES): SandboxPolicy's
  // quiet_paths.
  void add_quiet(dev_t dev, ino_t ino) { quiet_.push_back({dev, ino}); }
  bool quiet(dev_t dev, ino_t ino) const;

 private:
  std::vector<landlock::RuleInode> rules_;
  unsigned long long handled_ = 0;
  pid_t pid_ = 0;
  std::vector<std::pair<dev_t, ino_t>> quiet_;
};

// Decides `call` against `rules`. Allocation-free and lock-free (see the traps above). A call
// that is not reported is undecided.
Decision decide(const Call& call, const Rules& rules, Scratch& scratch);

// Whether decide() works in this process: it can read the process's own memory (an unreadable
// pointer would otherwise refuse every call); `why` says why not. Call it before the filter
// is loaded: its trial decision also resolves, while nothing is filtered yet, whatever
// decide() uses.
bool decisions_work(const Rules& rules, std::string* why);

}  // namespace ptxbench::file_access
