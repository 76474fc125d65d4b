#include "sandbox/seccomp_filter.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <linux/sockios.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>

#include "sandbox/file_access.h"

namespace ptxbench::seccomp {
namespace {

// Rules compare whole 64-bit registers. For arguments the kernel truncates to 32 bits (int
// pids, signals, options) every rule below is an exact equality, so a value with garbage in
// the upper half matches no rule and is refused rather than slipping past a comparison.

class Builder {
 public:
  explicit Builder(scmp_filter_ctx ctx) : ctx_(ctx) {}

  // Allows `name` when every comparison holds (always, without comparisons).
  void allow(const char* name, std::vector<scmp_arg_cmp> cmps = {}) {
    add(SCMP_ACT_ALLOW, name, std::move(cmps));
  }
  // Allows `name` when argument `arg` equals one of `values` (one rule each).
  void allow_values(const char* name, unsigned arg, std::initializer_list<std::uint64_t> values) {
    for (std::uint64_t v : values) allow(name, {SCMP_CMP(arg, SCMP_CMP_EQ, v)});
  }
  void act(std::uint32_t action, const char* name, std::vector<scmp_arg_cmp> cmps = {}) {
    add(action, name, std::move(cmps));
  }
  const Status& status() const { return status_; }

 private:
  void add(std::uint32_t action, const char* name, std::vector<scmp_arg_cmp> cmps) {
    if (!status_.ok()) return;
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) {
      // Legacy calls that newer architectures dropped (open, stat, ...) are simply absent
      // there; an unknown name anywhere is a typo in this file.
      if (seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name) == __NR_SCMP_ERROR)
        status_ = make_error(std::string("seccomp: unknown system call name ") + name);
      return;
    }
    int rc =
        seccomp_rule_add_array(ctx_, action, nr, static_cast<unsigned>(cmps.size()), cmps.data());
    if (rc != 0)
      status_ = make_error(std::string("seccomp: cannot add the rule for ") + name + ": " +
                           std::strerror(-rc));
  }
  scmp_filter_ctx ctx_;
  Status status_;
};

scmp_arg_cmp masked(unsigned arg, std::uint64_t mask, std::uint64_t value) {
  return SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, mask, value);
}

// Memory. Mappings may be writable or executable, never both at once (the candidate's own
// code is executable already; this keeps it from making fresh writable code or patching
// the worker's code in place with one call). The host profile goes further: code comes only
// from files (the loader maps the candidate's segments from its file), so no anonymous
// executable mapping and no mprotect to PROT_EXEC. madvise without the root-only page
// poisoning.
void add_memory_rules(Builder& b, SandboxProfile profile) {
  constexpr std::uint64_t wx = PROT_WRITE | PROT_EXEC;
  const bool host = profile == SandboxProfile::host;
  for (const char* name : {"mmap", "mprotect", "pkey_mprotect"})
    for (std::uint64_t prot : {std::uint64_t{0}, std::uint64_t{PROT_WRITE}})
      b.allow(name, {masked(2, wx, prot)});
  if (host) {
    b.allow("mmap", {masked(2, wx, PROT_EXEC), masked(3, MAP_ANONYMOUS, 0)});
  } else {
    for (const char* name : {"mmap", "mprotect", "pkey_mprotect"})
      b.allow(name, {masked(2, wx, PROT_EXEC)});
  }
  for (const char* name : {"brk", "munmap", "mremap", "msync", "mlock", "munlock", "membarrier",
                           "get_mempolicy", "set_mempolicy", "mbind"})
    b.allow(name);
  b.allow_values(
      "madvise", 2,
      {MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED, MADV_DONTNEED, 8 /*FREE*/,
       MADV_REMOVE, MADV_DONTFORK, MADV_DOFORK, MADV_MERGEABLE, MADV_UNMERGEABLE, MADV_HUGEPAGE,
       MADV_NOHUGEPAGE, MADV_DONTDUMP, MADV_DODUMP, 18 /*WIPEONFORK*/, 19 /*KEEPONFORK*/,
       22 /*POPULATE_READ*/, 23 /*POPULATE_WRITE*/});
  // Page-cache residency and eviction: the host profile answers EPERM. With them a process can
  // read (mincore) and change (COLD, PAGEOUT) what is cached of a file it shares with another
  // process (a system library), a channel between candidates judged at once.
  if (host) {
    b.act(SCMP_ACT_ERRNO(EPERM), "mincore");
    for (std::uint64_t advice : {20 /*COLD*/, 21 /*PAGEOUT*/})
      b.act(SCMP_ACT_ERRNO(EPERM), "madvise", {SCMP_CMP(2, SCMP_CMP_EQ, advice)});
  } else {
    b.allow("mincore");
    b.allow_values("madvise", 2, {20 /*COLD*/, 21 /*PAGEOUT*/});
  }
  b.allow_values("move_pages", 0, {0});  // this process's pages only
}

// Threads, never processes: clone must carry CLONE_THREAD and no namespace flag. clone3
// answers ENOSYS (its flags live in memory a filter cannot read), so glibc falls back to clone.
// The host profile allows neither: its one other thread is started before the filter. With the
// listener there, both go to it (glibc clones with every signal blocked, so SIGSYS would kill
// the process unnamed; the listener names the call).
void add_thread_rules(Builder& b, pid_t pid, Mode mode, FileCalls files, SandboxProfile profile) {
  constexpr std::uint64_t guard = CLONE_THREAD | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS |
                                  CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;
  if (profile == SandboxProfile::gpu) {
    b.allow("clone", {masked(0, guard, CLONE_THREAD)});
    b.act(SCMP_ACT_ERRNO(ENOSYS), "clone3");
  } else if (mode == Mode::enforce && files == FileCalls::report) {
    b.act(SCMP_ACT_NOTIFY, "clone");
    b.act(SCMP_ACT_NOTIFY, "clone3");
  }
  for (const char* name :
       {"futex", "futex_waitv", "set_robust_list", "rseq", "set_tid_address", "sched_yield",
        "sched_getaffinity", "getcpu", "sched_getparam", "sched_getscheduler", "sched_getattr",
        "sched_get_priority_max", "sched_get_priority_min", "getpriority", "exit", "exit_group",
        "restart_syscall"})
    b.allow(name);
  b.allow_values("get_robust_list", 0, {0});
  b.allow_values("sched_setaffinity", 0, {0, static_cast<std::uint64_t>(pid)});
}

// The path-taking calls Landlock checks (file_access.h lists them): allowed, or sent to the
// listener, which reports the ones Landlock would refuse. In learning mode everything not
// allowed goes to the listener anyway (libseccomp refuses a rule repeating the default action).
void add_reported_file_rules(Builder& b, pid_t pid, Mode mode, FileCalls files) {
  for (const file_access::ReportedCall& call : file_access::reported_calls()) {
    if (files == FileCalls::allow) {
      b.allow(call.name);
      continue;
    }
    if (call.open_flags_arg >= 0) {
      const auto arg = static_cast<unsigned>(call.open_flags_arg);
      b.allow(call.name, {masked(arg, O_PATH, O_PATH)});  // Landlock does not check these
      if (mode == Mode::enforce) b.act(SCMP_ACT_NOTIFY, call.name, {masked(arg, O_PATH, 0)});
    } else if (mode == Mode::enforce) {
      b.act(SCMP_ACT_NOTIFY, call.name);
    }
  }
  // The listener reads path arguments from this process's memory; never another's, no flags.
  if (files == FileCalls::report)
    b.allow("process_vm_readv", {SCMP_CMP(0, SCMP_CMP_EQ, static_cast<std::uint64_t>(pid)),
                                 SCMP_CMP(5, SCMP_CMP_EQ, 0)});
}

// Files. Which paths may be opened, created or removed is Landlock's job; these calls work
// on descriptors or on paths Landlock checks. Not here: chmod/chown/utimes/xattr families
// (Landlock does not check them), link/mknod, truncate by path, openat2,
// open_by_handle_at (bypasses paths), inotify/fanotify. symlink/symlinkat are allowed: CUPTI
// makes one (seen on the H200, 2026-11-30), Landlock allows making one only below the
// private directory, and opening through one is checked against its target.
void add_file_rules(Builder& b, pid_t pid, Mode mode, FileCalls files, SandboxProfile profile) {
  const bool host = profile == SandboxProfile::host;
  add_reported_file_rules(b, pid, mode, files);
  for (const char* name :
       {"read",    "write",           "pread64",    "pwrite64",   "readv",      "writev",
        "preadv",  "pwritev",         "preadv2",    "pwritev2",   "close",      "close_range",
        "lseek",   "fstat",           "stat",       "lstat",      "newfstatat", "statx",
        "statfs",  "fstatfs",         "getdents",   "getdents64", "readlink",   "readlinkat",
        "access",  "faccessat",       "faccessat2", "getcwd",     "chdir",      "fchdir",
        "umask",   "ftruncate",       "fallocate",  "fsync",      "fdatasync",  "sendfile",
        "dup",     "copy_file_range", "dup2",       "dup3",       "pipe",       "pipe2",
        "symlink", "symlinkat"})
    b.allow(name);
  // fcntl without F_SETOWN(_EX)/F_SETSIG/F_NOTIFY/F_SETLEASE (signals to chosen processes).
  b.allow_values(
      "fcntl", 1,
      {F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETOWN, F_GETSIG, F_GETOWN_EX,
       F_DUPFD_CLOEXEC, F_SETPIPE_SZ, F_GETPIPE_SZ, F_ADD_SEALS, F_GET_SEALS, F_GETLEASE});
  // fadvise (DONTNEED evicts a file's cached pages): EPERM in the host profile (see mincore).
  if (host)
    b.act(SCMP_ACT_ERRNO(EPERM), "fadvise64");
  else
    b.allow("fadvise64");
  // Locks: the host profile answers EPERM rather than ending the process. A lock on a file two
  // hosts may read (their own executable) would be a channel between candidates judged at once;
  // refused quietly, it carries nothing, and a candidate that merely tries is not punished.
  if (host) {
    b.act(SCMP_ACT_ERRNO(EPERM), "flock");
    for (std::uint64_t cmd : {F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW})
      b.act(SCMP_ACT_ERRNO(EPERM), "fcntl", {SCMP_CMP(1, SCMP_CMP_EQ, cmd)});
  } else {
    b.allow("flock");
    b.allow_values("fcntl", 1,
                   {F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW});
  }
  // ioctl: the CUDA driver's interface. Devices the process may open are Landlock's job
  // (LANDLOCK_ACCESS_FS_IOCTL_DEV); the request is truncated to 32 bits by the kernel, so the
  // blocks compare the low half only. The host profile has no device: the listener's and the
  // terminal queries only.
  if (host) {
    for (std::uint32_t request : host_ioctl_requests())
      b.allow("ioctl", {masked(1, 0xffffffffu, request)});
    return;
  }
  for (const MaskedValue& blk : blocks_excluding(refused_ioctl_requests()))
    b.allow("ioctl", {masked(1, blk.mask, blk.value)});
}

// Not allowed by default: sockets, including send/recv on existing ones. The worker has none
// (its protocol is files and pipes, where read/write serve), and an inherited or passed socket
// would be the one way out of the network namespace. Sockets::allowed (the ncu route) allows
// them: Nsight Compute's injected library talks to ncu over local sockets and sets the mode
// of files it makes (chmod; Landlock still decides which files may be opened or written).
void add_socket_rules(Builder& b) {
  for (const char* name :
       {"socket",   "socketpair", "connect",     "bind",        "listen",     "accept",
        "accept4",  "sendto",     "recvfrom",    "sendmsg",     "recvmsg",    "sendmmsg",
        "recvmmsg", "shutdown",   "getsockname", "getpeername", "setsockopt", "getsockopt",
        "chmod",    "fchmod",     "fchmodat"})
    b.allow(name);
}

// Waiting and events on descriptors the process already has (timer descriptors: gpu only).
void add_event_rules(Builder& b, SandboxProfile profile) {
  for (const char* name : {"poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1",
                           "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd",
                           "eventfd2", "signalfd", "signalfd4"})
    b.allow(name);
  if (profile == SandboxProfile::gpu)
    for (const char* name : {"timerfd_create", "timerfd_settime", "timerfd_gettime"}) b.allow(name);
}

// Clocks of this process (never setting the system clock), and its timers (gpu only: in the
// host profile no timer may run candidate code while the host waits).
void add_time_rules(Builder& b, SandboxProfile profile) {
  for (const char* name : {"nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres",
                           "gettimeofday", "time", "times"})
    b.allow(name);
  if (profile == SandboxProfile::gpu)
    for (const char* name : {"getitimer", "setitimer", "alarm", "timer_create", "timer_settime",
                             "timer_gettime", "timer_getoverrun", "timer_delete"})
      b.allow(name);
}

// Signals: handlers for anything but SIGSYS (the refusal reporter must stay) and, in the host
// profile, the timer signals; masks, and sending only to this process.
void add_signal_rules(Builder& b, pid_t pid, SandboxProfile profile) {
  auto handled = [&](int sig) {
    if (sig == SIGSYS) return false;
    return profile == SandboxProfile::gpu || (sig != SIGALRM && sig != SIGVTALRM && sig != SIGPROF);
  };
  for (int sig = 1; sig <= 64; ++sig)
    if (handled(sig)) b.allow_values("rt_sigaction", 0, {static_cast<std::uint64_t>(sig)});
  for (const char* name : {"rt_sigprocmask", "rt_sigreturn", "sigaltstack", "rt_sigpending",
                           "rt_sigtimedwait", "rt_sigsuspend", "pause"})
    b.allow(name);
  for (const char* name : {"kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"})
    b.allow_values(name, 0, {static_cast<std::uint64_t>(pid)});
}

// Who am I, what are my limits: reads only (prlimit64 with a NULL new limit, of this process).
// sysinfo tells machine-wide memory and load, which another process moves: EPERM in the host
// profile (a channel between candidates, and nothing a kernel's host code needs).
void add_identity_rules(Builder& b, pid_t pid, SandboxProfile profile) {
  for (const char* name : {"getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid",
                           "getresuid", "getresgid", "getgroups", "getpgrp", "getpgid", "getsid",
                           "capget", "getrlimit", "getrusage", "uname", "getrandom"})
    b.allow(name);
  if (profile == SandboxProfile::host)
    b.act(SCMP_ACT_ERRNO(EPERM), "sysinfo");
  else
    b.allow("sysinfo");
  for (std::uint64_t target : {std::uint64_t{0}, static_cast<std::uint64_t>(pid)})
    b.allow("prlimit64", {SCMP_CMP(0, SCMP_CMP_EQ, target), SCMP_CMP(2, SCMP_CMP_EQ, 0)});
}

// prctl: thread names and harmless queries; arch_prctl: queries and the AMX permission request.
void add_process_control_rules(Builder& b) {
  b.allow_values("prctl", 0,
                 {PR_SET_NAME, PR_GET_NAME, PR_SET_PDEATHSIG, PR_GET_PDEATHSIG, PR_GET_DUMPABLE,
                  PR_GET_KEEPCAPS, PR_GET_SECCOMP, PR_CAPBSET_READ, PR_GET_TIMERSLACK,
                  PR_MCE_KILL_GET, PR_GET_CHILD_SUBREAPER, PR_GET_NO_NEW_PRIVS, PR_GET_TID_ADDRESS,
                  PR_GET_THP_DISABLE, PR_GET_SPECULATION_CTRL, 0x53564d41 /*PR_SET_VMA*/});
  b.allow_values(
      "arch_prctl", 0,
      {0x1003 /*GET_FS*/, 0x1004 /*GET_GS*/, 0x1011 /*GET_CPUID*/, 0x1021 /*GET_XCOMP_SUPP*/,
       0x1022 /*GET_XCOMP_PERM*/, 0x1023 /*REQ_XCOMP_PERM*/, 0x1024 /*GET_XCOMP_GUEST_PERM*/});
}

Status set_attributes(scmp_filter_ctx ctx) {
  struct {
    scmp_filter_attr attr;
    std::uint32_t value;
  } attrs[] = {
      // Calls through another ABI (int 0x80 on x86_64) are refused and named too.
      {SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP},
      {SCMP_FLTATR_CTL_NNP, 1},
      // Every thread: the CUDA driver's threads exist before the sandbox does.
      {SCMP_FLTATR_CTL_TSYNC, 1},
      // A binary search over system call numbers instead of a linear scan.
      {SCMP_FLTATR_CTL_OPTIMIZE, 2},
      // Speculative store bypass mitigation guards a process's memory against code it runs;
      // that code (the candidate) reads the memory directly anyway, so it would only cost time.
      {SCMP_FLTATR_CTL_SSB, 1},
  };
  for (const auto& a : attrs) {
    int rc = seccomp_attr_set(ctx, a.attr, a.value);
    if (rc != 0)
      return make_error(std::string("seccomp: cannot set a filter attribute: ") +
                        std::strerror(-rc));
  }
  return {};
}

void collect_blocks(std::uint32_t prefix, int bits, const std::vector<std::uint32_t>& excluded,
                    std::vector<MaskedValue>& out) {
  std::uint32_t mask = bits == 0 ? 0u : ~0u << (32 - bits);
  std::vector<std::uint32_t> inside;
  for (std::uint32_t v : excluded)
    if ((v & mask) == prefix) inside.push_back(v);
  if (inside.empty()) {
    out.push_back({mask, prefix});
    return;
  }
  if (bits == 32) return;  // exactly an excluded value
  std::uint32_t bit = 1u << (31 - bits);
  collect_blocks(prefix, bits + 1, inside, out);
  collect_blocks(prefix | bit, bits + 1, inside, out);
}

}  // namespace

std::vector<MaskedValue> blocks_excluding(std::vector<std::uint32_t> excluded) {
  std::vector<MaskedValue> out;
  collect_blocks(0, 0, excluded, out);
  return out;
}

std::vector<std::uint32_t> refused_ioctl_requests() {
  return {TIOCSTI, TIOCLINUX, FIOSETOWN, SIOCSPGRP};
}

std::vector<std::uint32_t> host_ioctl_requests() {
  return {static_cast<std::uint32_t>(SECCOMP_IOCTL_NOTIF_RECV),
          static_cast<std::uint32_t>(SECCOMP_IOCTL_NOTIF_SEND),
          static_cast<std::uint32_t>(SECCOMP_IOCTL_NOTIF_ID_VALID), TCGETS, TIOCGWINSZ};
}

Result<Filter> Filter::build(pid_t own_pid, Mode mode, FileCalls files, Sockets sockets,
                             SandboxProfile profile) {
  scmp_filter_ctx ctx = seccomp_init(mode == Mode::learn ? SCMP_ACT_NOTIFY : SCMP_ACT_TRAP);
  if (!ctx) return make_error("seccomp: cannot create a filter context");
  Filter f(ctx);
  PTXB_TRY_STATUS(set_attributes(ctx));
  Builder b(ctx);
  add_memory_rules(b, profile);
  add_thread_rules(b, own_pid, mode, files, profile);
  add_file_rules(b, own_pid, mode, files, profile);
  add_event_rules(b, profile);
  add_time_rules(b, profile);
  add_signal_rules(b, own_pid, profile);
  add_identity_rules(b, own_pid, profile);
  add_process_control_rules(b);
  if (sockets == Sockets::allowed) add_socket_rules(b);
  if (!b.status().ok()) return b.status().error();
  return f;
}

Filter& Filter::operator=(Filter&& other) noexcept {
  if (this != &other) {
    if (ctx_) seccomp_release(ctx_);
    ctx_ = other.ctx_;
    other.ctx_ = nullptr;
  }
  return *this;
}

Filter::~Filter() {
  if (ctx_) seccomp_release(ctx_);
}

Status Filter::load() {
  int rc = seccomp_load(ctx_);
  if (rc != 0)
    return make_error(std::string("seccomp: cannot load the filter: ") + std::strerror(-rc));
  return {};
}

int Filter::notify_fd() const {
  return seccomp_notify_fd(ctx_);
}

std::string Filter::pseudo_code() const {
  std::FILE* f = std::tmpfile();
  if (!f) return {};
  std::string text;
  if (seccomp_export_pfc(ctx_, ::fileno(f)) == 0) {
    std::rewind(f);
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  }
  std::fclose(f);
  return text;
}

bool kernel_supports_filter(std::string* why) {
  auto no = [&](std::string text) {
    if (why) *why = std::move(text);
    return false;
  };
  if (::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL)
    return no("the kernel is built without seccomp");
  std::uint32_t trap = SECCOMP_RET_TRAP;
  if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &trap) != 0)
    return no(std::string("seccomp filters with SECCOMP_RET_TRAP are unavailable: ") +
              std::strerror(errno));
  if (seccomp_api_get() < 2) return no("the kernel's seccomp lacks thread sync (TSYNC)");
  return true;
}

bool kernel_supports_user_notification(std::string* why) {
  if (!kernel_supports_filter(why)) return false;
  std::uint32_t notify = SECCOMP_RET_USER_NOTIF;
  if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &notify) != 0) {
    if (why)
      *why = std::string("seccomp user notification is unavailable: ") + std::strerror(errno);
    return false;
  }
  if (seccomp_api_get() < 6) {
    if (why)
      *why =
          "seccomp user notification cannot be combined with thread sync here (needs Linux "
          "5.7 and libseccomp API level 6)";
    return false;
  }
  return true;
}

}  // namespace ptxbench::seccomp
