#include "sandbox/landlock.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <set>
#include <thread>

#include "sandbox/sandbox.h"

// Debian 12's linux-libc-dev (6.1) stops at Landlock ABI 2, so the interface is spelled out
// here (include/uapi/linux/landlock.h of Linux 7.0). The system call numbers are the same on
// every architecture.
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

namespace ptxbench::landlock {
namespace {

constexpr unsigned long long kAbi1Fs = (1ull << 13) - 1;
// Rights that apply to a file itself (a rule on a non-directory may hold only these).
constexpr unsigned long long kFileRights =
    kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

constexpr unsigned long long kNetBindTcp = 1ull << 0;               // 4
constexpr unsigned long long kNetConnectTcp = 1ull << 1;            // 4
constexpr unsigned long long kScopeAbstractUnixSocket = 1ull << 0;  // 6
constexpr unsigned long long kScopeSignal = 1ull << 1;              // 6

constexpr unsigned kCreateRulesetVersion = 1u << 0;
constexpr unsigned kRestrictSelfTsync = 1u << 3;  // 8
constexpr int kRulePathBeneath = 1;

struct RulesetAttr {
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;  // ABI 4
  std::uint64_t scoped;              // ABI 6
};

struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowed_access;
  std::int32_t parent_fd;
};

long create_ruleset(const RulesetAttr* attr, std::size_t size, unsigned flags) {
  return ::syscall(__NR_landlock_create_ruleset, attr, size, flags);
}
long add_rule(int ruleset_fd, int type, const void* attr) {
  return ::syscall(__NR_landlock_add_rule, ruleset_fd, type, attr, 0u);
}
long restrict_self(int ruleset_fd, unsigned flags) {
  return ::syscall(__NR_landlock_restrict_self, ruleset_fd, flags);
}

std::string errno_text(int e) {
  return std::strerror(e);
}

// Adds one path-beneath rule; absent paths are skipped with a note.
Status add_path(int ruleset_fd, const std::filesystem::path& path, unsigned long long rights,
                Outcome& out) {
  int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT || e == ENOTDIR) {
      out.notes.push_back("landlock: policy path " + path.string() +
                          " does not exist here; skipped");
      return {};
    }
    return make_error("landlock: cannot open policy path " + path.string() + ": " + errno_text(e));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return make_error("landlock: cannot inspect policy path " + path.string() + ": " +
                      errno_text(e));
  }
  rights = rights_on_inode(rights, S_ISDIR(st.st_mode));
  PathBeneathAttr attr{rights, fd};
  long rc = add_rule(ruleset_fd, kRulePathBeneath, &attr);
  int e = errno;
  ::close(fd);
  if (rc != 0)
    return make_error("landlock: cannot add the rule for " + path.string() + ": " + errno_text(e));
  out.rules.push_back({st.st_dev, st.st_ino, rights});
  return {};
}

Result<int> build_ruleset(const SandboxPolicy& policy, int abi, Outcome& out) {
  Rights h = handled_rights(abi);
  RulesetAttr attr{h.fs, h.net, h.scoped};
  // A kernel older than the struct accepts it only up to the fields it knows.
  std::size_t size = abi >= 6   ? sizeof attr
                     : abi >= 4 ? 2 * sizeof(std::uint64_t)
                                : sizeof(std::uint64_t);
  long fd = create_ruleset(&attr, size, 0);
  if (fd < 0) return make_error("landlock: cannot create the ruleset: " + errno_text(errno));
  int ruleset = static_cast<int>(fd);
  auto add_all = [&](const std::vector<std::filesystem::path>& paths,
                     unsigned long long rights) -> Status {
    for (const auto& p : paths) PTXB_TRY_STATUS(add_path(ruleset, p, rights, out));
    return {};
  };
  Status st = add_all(policy.read_paths, read_rights(h.fs));
  if (st.ok()) st = add_all(policy.write_paths, write_rights(h.fs));
  if (st.ok()) st = add_all(policy.device_paths, device_rights(h.fs));
  if (!st.ok()) {
    ::close(ruleset);
    return st.error();
  }
  return ruleset;
}

// --- every thread ------------------------------------------------------------------------
// Before ABI 8 landlock_restrict_self restricts only the calling thread. The threads that exist
// already (the CUDA driver's) are each made to restrict themselves: a signal whose handler
// sets no_new_privs and enforces the same ruleset, then records its thread id.

constexpr int kMaxThreads = 4096;
struct ThreadSync {
  std::atomic<bool> active{false};
  std::atomic<int> ruleset_fd{-1};
  std::atomic<int> done{0};
  std::atomic<int> done_tids[kMaxThreads];
  std::atomic<int> failed_tids[kMaxThreads];
};
ThreadSync g_sync;

void on_sync_signal(int) {
  if (!g_sync.active.load()) return;  // a late delivery after the sandbox is complete
  int saved = errno;
  int tid = static_cast<int>(::syscall(SYS_gettid));
  bool ok = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
            restrict_self(g_sync.ruleset_fd.load(), 0) == 0;
  int slot = g_sync.done.fetch_add(1);
  if (slot < kMaxThreads) {
    g_sync.done_tids[slot].store(ok ? tid : 0);
    g_sync.failed_tids[slot].store(ok ? 0 : tid);
  }
  errno = saved;
}

std::vector<int> list_threads() {
  std::vector<int> tids;
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return tids;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9') tids.push_back(std::atoi(e->d_name));
  }
  ::closedir(d);
  return tids;
}

// Whether thread `tid` blocks signal `sig` (the SigBlk mask of /proc/self/task/TID/status).
bool blocks_signal(int tid, int sig) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("SigBlk:", 0) != 0) continue;
    unsigned long long mask = std::strtoull(line.c_str() + 7, nullptr, 16);
    return (mask >> (sig - 1)) & 1;
  }
  return false;
}

// A real-time signal nobody in this process handles (SIG_DFL), from the top down.
int pick_sync_signal() {
  for (int sig = SIGRTMAX; sig > SIGRTMIN + 1; --sig) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL &&
        !(old.sa_flags & SA_SIGINFO))
      return sig;
  }
  return -1;
}

bool contains(const std::set<int>& s, int v) {
  return s.find(v) != s.end();
}

// The threads that have run the handler: restricted (ok) or not (the call failed there).
std::set<int> answered(bool ok_only) {
  std::set<int> tids;
  int n = std::min(g_sync.done.load(), kMaxThreads);
  for (int i = 0; i < n; ++i) {
    if (int t = g_sync.done_tids[i].load()) tids.insert(t);
    if (int t = g_sync.failed_tids[i].load(); t && !ok_only) tids.insert(t);
  }
  return tids;
}

// Waits until every signalled thread answered. A thread that blocks the signal answers when
// it unblocks it (a thread being created does, briefly); one that still blocks it after
// kBlockedGrace is taken for one that never will.
void await_answers(const std::set<int>& signalled, int sig) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kBlockedGrace = std::chrono::milliseconds(250);
  constexpr auto kLimit = std::chrono::seconds(3);
  auto start = Clock::now();
  while (Clock::now() - start < kLimit) {
    std::set<int> done = answered(false);
    bool all_blocked = true, any_waiting = false;
    for (int tid : signalled) {
      if (contains(done, tid)) continue;
      any_waiting = true;
      all_blocked = all_blocked && blocks_signal(tid, sig);
    }
    if (!any_waiting || (all_blocked && Clock::now() - start > kBlockedGrace)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Restricts every other thread; returns the ids of those that could not be.
Result<std::vector<int>> restrict_other_threads(int ruleset_fd, int& restricted) {
  int sig = pick_sync_signal();
  if (sig < 0) return make_error("landlock: no free real-time signal to reach the other threads");
  struct sigaction sa {
  }, old{};
  sa.sa_handler = on_sync_signal;
  sa.sa_flags = SA_RESTART;
  ::sigfillset(&sa.sa_mask);
  if (::sigaction(sig, &sa, &old) != 0)
    return make_error("landlock: cannot install the thread-sync handler: " + errno_text(errno));
  g_sync.ruleset_fd.store(ruleset_fd);
  g_sync.done.store(0);
  g_sync.active.store(true);

  const int self = static_cast<int>(::syscall(SYS_gettid));
  const pid_t pid = ::getpid();
  std::set<int> signalled;
  // Threads may start threads while this runs: list again until a round finds none new.
  for (int round = 0; round < 100; ++round) {
    bool found_new = false;
    for (int tid : list_threads()) {
      if (tid == self || contains(signalled, tid)) continue;
      found_new = true;
      // Sent even to a thread that blocks it: it stays pending until the thread unblocks.
      if (::syscall(SYS_tgkill, pid, tid, sig) == 0) signalled.insert(tid);
    }
    if (!found_new) break;
    await_answers(signalled, sig);
  }
  g_sync.active.store(false);
  std::set<int> ok = answered(true);
  std::vector<int> missed;
  for (int tid : list_threads())
    if (tid != self && !contains(ok, tid)) missed.push_back(tid);
  restricted = static_cast<int>(ok.size());
  // A signal still pending in a thread that never ran the handler must not meet SIG_DFL
  // (which ends the process): the now inert handler stays installed then.
  if (missed.empty()) ::sigaction(sig, &old, nullptr);
  return missed;
}

}  // namespace

int abi_version(std::string* why) {
  long v = create_ruleset(nullptr, 0, kCreateRulesetVersion);
  if (v > 0) return static_cast<int>(v);
  if (why) {
    int e = errno;
    *why = e == ENOSYS       ? "the kernel is built without Landlock (ENOSYS)"
           : e == EOPNOTSUPP ? "Landlock is disabled at boot (EOPNOTSUPP; add landlock to lsm=)"
                             : "Landlock is unavailable: " + errno_text(e);
  }
  return 0;
}

Rights handled_rights(int abi) {
  Rights r;
  if (abi < 1) return r;
  r.fs = kAbi1Fs;
  if (abi >= 2) r.fs |= kRefer;
  if (abi >= 3) r.fs |= kTruncate;
  if (abi >= 4) r.net = kNetBindTcp | kNetConnectTcp;
  if (abi >= 5) r.fs |= kIoctlDev;
  if (abi >= 6) r.scoped = kScopeAbstractUnixSocket | kScopeSignal;
  return r;
}

unsigned long long read_rights(unsigned long long handled) {
  return handled & (kExecute | kReadFile | kReadDir);
}

unsigned long long write_rights(unsigned long long handled) {
  // No device nodes, sockets, FIFOs or symbolic links: nothing a worker writes needs them,
  // and a planted link could send a trusted reader of the directory elsewhere.
  return read_rights(handled) | (handled & (kWriteFile | kRemoveDir | kRemoveFile | kMakeDir |
                                            kMakeReg | kRefer | kTruncate));
}

unsigned long long device_rights(unsigned long long handled) {
  return handled & (kReadFile | kWriteFile | kReadDir | kIoctlDev);
}

unsigned long long rights_on_inode(unsigned long long rights, bool directory) {
  return directory ? rights : rights & kFileRights;
}

Result<int> build_child_ruleset(const SandboxPolicy& policy, int abi, Outcome& out) {
  PTXB_CHECK(abi > 0, "build_child_ruleset needs a kernel with Landlock");
  out.abi = abi;
  out.handled_fs = handled_rights(abi).fs;
  return build_ruleset(policy, abi, out);
}

Result<Outcome> restrict_filesystem(const SandboxPolicy& policy, int abi) {
  PTXB_CHECK(abi > 0, "restrict_filesystem needs a kernel with Landlock");
  Outcome out;
  out.abi = abi;
  if (abi > kNewestKnownAbi)
    out.notes.push_back("landlock: the kernel's ABI " + std::to_string(abi) +
                        " is newer than this build knows (" + std::to_string(kNewestKnownAbi) +
                        "): rights added since are not restricted");
  out.handled_fs = handled_rights(abi).fs;
  PTXB_TRY(int ruleset, build_ruleset(policy, abi, out));
  auto fail = [&](const std::string& what) -> Error {
    int e = errno;
    ::close(ruleset);
    return make_error("landlock: " + what + ": " + errno_text(e));
  };
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail("cannot set no_new_privs");
  if (abi >= 8) {
    if (restrict_self(ruleset, kRestrictSelfTsync) != 0) return fail("cannot enforce the ruleset");
    out.threads_restricted = static_cast<int>(list_threads().size());
  } else {
    auto missed = restrict_other_threads(ruleset, out.threads_restricted);
    if (!missed.ok()) {
      ::close(ruleset);
      return missed.error();
    }
    out.threads_missed = *missed;
    if (restrict_self(ruleset, 0) != 0) return fail("cannot enforce the ruleset");
    out.threads_restricted += 1;
  }
  ::close(ruleset);
  return out;
}

}  // namespace ptxbench::landlock
