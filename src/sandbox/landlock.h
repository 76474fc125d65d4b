// Landlock, the filesystem view of apply_sandbox (sandbox.h): after restrict_filesystem the
// process (every thread of it) can open only what the policy's paths grant, whatever its user.
// Part of the sandbox's implementation; callers use apply_sandbox.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"

namespace ptxbench {

struct SandboxPolicy;

namespace landlock {

// The running kernel's Landlock ABI version (1 = Linux 5.13 ... 8 = Linux 7.0); 0 when the
// kernel has none, and then `why` says so (not built in, or disabled at boot).
int abi_version(std::string* why = nullptr);

// The newest ABI this code knows the rights of; a newer kernel's extra rights are not handled
// (so not restricted) and restrict_filesystem says so in its notes.
inline constexpr int kNewestKnownAbi = 8;

// Filesystem access rights (LANDLOCK_ACCESS_FS_*), the ABI that introduced each in comments.
inline constexpr unsigned long long kExecute = 1ull << 0;     // 1
inline constexpr unsigned long long kWriteFile = 1ull << 1;   // 1
inline constexpr unsigned long long kReadFile = 1ull << 2;    // 1
inline constexpr unsigned long long kReadDir = 1ull << 3;     // 1
inline constexpr unsigned long long kRemoveDir = 1ull << 4;   // 1
inline constexpr unsigned long long kRemoveFile = 1ull << 5;  // 1
inline constexpr unsigned long long kMakeChar = 1ull << 6;    // 1
inline constexpr unsigned long long kMakeDir = 1ull << 7;     // 1
inline constexpr unsigned long long kMakeReg = 1ull << 8;     // 1
inline constexpr unsigned long long kMakeSock = 1ull << 9;    // 1
inline constexpr unsigned long long kMakeFifo = 1ull << 10;   // 1
inline constexpr unsigned long long kMakeBlock = 1ull << 11;  // 1
inline constexpr unsigned long long kMakeSym = 1ull << 12;    // 1
inline constexpr unsigned long long kRefer = 1ull << 13;      // 2: link/rename across directories
inline constexpr unsigned long long kTruncate = 1ull << 14;   // 3
inline constexpr unsigned long long kIoctlDev = 1ull << 15;   // 5: ioctl on character/block devices

// Access-right masks for one ABI version (the `handled_access_*` a ruleset sets: everything the
// ABI knows, so anything not granted by a rule is refused).
struct Rights {
  unsigned long long fs = 0;      // LANDLOCK_ACCESS_FS_*
  unsigned long long net = 0;     // LANDLOCK_ACCESS_NET_* (ABI 4: TCP bind and connect)
  unsigned long long scoped = 0;  // LANDLOCK_SCOPE_* (ABI 6: signals, abstract unix sockets)
};
Rights handled_rights(int abi);

// What each kind of policy path grants, limited to `handled` (fs rights).
unsigned long long read_rights(unsigned long long handled);    // read, list, execute
unsigned long long write_rights(unsigned long long handled);   // + write/create/remove/rename
unsigned long long device_rights(unsigned long long handled);  // read/write + ioctl on devices
// What a rule on an inode can hold: `rights` as they are on a directory (they reach everything
// below it), only those that apply to a file itself on anything else.
unsigned long long rights_on_inode(unsigned long long rights, bool directory);

// One rule of the enforced ruleset: the inode a policy path named when the rule was added
// (symbolic links followed), and the rights it grants there and below. The file access
// reporter (file_access.h) decides with these, so it sees exactly the inodes Landlock holds.
struct RuleInode {
  dev_t dev = 0;
  ino_t ino = 0;
  unsigned long long rights = 0;  // already limited by rights_on_inode
};

struct Outcome {
  int abi = 0;
  int threads_restricted = 0;         // the calling thread included
  std::vector<int> threads_missed;    // thread ids left unrestricted (they block the sync signal)
  std::vector<std::string> notes;     // policy paths skipped (absent here), unknown newer rights
  std::vector<RuleInode> rules;       // the rules enforced, one per policy path present here
  unsigned long long handled_fs = 0;  // the filesystem rights the ruleset handles
};

// Builds the ruleset for `policy` and enforces it on every thread of the process: with
// LANDLOCK_RESTRICT_SELF_TSYNC where the kernel has it (ABI 8), else by making each other
// thread restrict itself from a signal handler (Landlock domains are per thread; threads
// created later inherit their creator's). Needs no_new_privs (set on each thread here).
// An Error when the kernel has Landlock but refuses the ruleset; abi_version() == 0 is the
// caller's case to report, not handled here.
Result<Outcome> restrict_filesystem(const SandboxPolicy& policy, int abi);

// For a child process that should run in a filesystem view (ProcessSpec::landlock_ruleset_fd,
// e.g. nvcc): the ruleset of `policy` built here in the parent, as a close-on-exec descriptor
// the caller closes once the child started. `out` gets the rules and notes.
Result<int> build_child_ruleset(const SandboxPolicy& policy, int abi, Outcome& out);
// (The child enforces it between fork and exec: core/subprocess.cc, enter_landlock_view.)

}  // namespace landlock
}  // namespace ptxbench
