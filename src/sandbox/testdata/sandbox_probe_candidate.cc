// A fake hostile candidate for the sandbox tests (no CUDA): a shared object whose constructor
// runs one attack at load time, chosen by PTXB_PROBE_ATTACK, each made with raw system call
// instructions (the bytes 0f 05, as a real candidate would hide them), never libc wrappers.
// It prints "result <value>" (the raw return value: -errno on failure) for attacks the
// sandbox lets return; the sandboxed process never gets that far for a refused call.
//
//   PTXB_PROBE_ATTACK   the attack (see run_attack)
//   PTXB_PROBE_TARGET   its path, where it has one
//   PTXB_PROBE_TARGET2  its second path (rename's new name, a name relative to a dirfd)
//   PTXB_PROBE_SYSCALL  the call number of the "raw" attack (made with zero arguments)
#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

#if defined(__x86_64__)
long sys(long nr, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0, long a5 = 0, long a6 = 0) {
  long ret;
  register long r10 asm("r10") = a4;
  register long r8 asm("r8") = a5;
  register long r9 asm("r9") = a6;
  asm volatile(".byte 0x0f, 0x05"
               : "=a"(ret)
               : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return ret;
}

// getpid through the 32-bit ABI (int 0x80, call 20), which a 64-bit filter must not miss.
long i386_getpid() {
  long ret;
  asm volatile("int $0x80" : "=a"(ret) : "a"(20) : "memory");
  return ret;
}
#else
#error "the sandbox probe candidate speaks x86_64 system calls"
#endif

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

long L(const void* p) {
  return reinterpret_cast<long>(p);
}

void report(long result) {
  std::printf("result %ld\n", result);
  std::fflush(stdout);
}

void report_old_thread(long result) {
  std::printf("old thread result %ld\n", result);
  std::fflush(stdout);
}

long read_file(const char* path) {
  long fd = sys(SYS_openat, AT_FDCWD, L(path), O_RDONLY);
  if (fd < 0) return fd;
  char buf[256] = {};
  long n = sys(SYS_read, fd, L(buf), sizeof buf - 1);
  if (n > 0) std::printf("read: %s\n", buf);
  sys(SYS_close, fd);
  return n;
}

long write_file(const char* path, int flags) {
  long fd = sys(SYS_openat, AT_FDCWD, L(path), flags, 0644);
  if (fd < 0) return fd;
  long n = sys(SYS_write, fd, L("pwned\n"), 6);
  sys(SYS_close, fd);
  return n;
}

long write_fd(long fd) {
  if (fd < 0) return fd;
  long n = sys(SYS_write, fd, L("pwned\n"), 6);
  sys(SYS_close, fd);
  return n;
}

// Path-taking file calls, each as the raw call the candidate would make (Landlock's part, and
// the file access reporter's: outside the policy they end the run, named).
long file_call(const std::string& a, const char* target, const char* target2) {
  if (a == "openat_read") return read_file(target);
  if (a == "open_create") return write_fd(sys(SYS_open, L(target), O_CREAT | O_WRONLY, 0644));
  if (a == "creat") return write_fd(sys(SYS_creat, L(target), 0644));
  if (a == "mkdir") return sys(SYS_mkdir, L(target), 0700);
  if (a == "mkdirat") return sys(SYS_mkdirat, AT_FDCWD, L(target), 0700);
  if (a == "unlink") return sys(SYS_unlink, L(target));
  if (a == "unlinkat") return sys(SYS_unlinkat, AT_FDCWD, L(target), 0);
  if (a == "rmdir") return sys(SYS_rmdir, L(target));
  if (a == "rename") return sys(SYS_rename, L(target), L(target2));
  if (a == "renameat2") return sys(SYS_renameat2, AT_FDCWD, L(target), AT_FDCWD, L(target2), 0);
  if (a == "openat_bad_pointer") return sys(SYS_openat, AT_FDCWD, 8, O_RDONLY);
  if (a == "opath") {
    long fd = sys(SYS_openat, AT_FDCWD, L(target), O_PATH);
    if (fd >= 0) sys(SYS_close, fd);
    return fd >= 0 ? 0 : fd;
  }
  if (a == "openat_dirfd") {  // target: a directory, target2: a name created in it
    long dir = sys(SYS_openat, AT_FDCWD, L(target), O_PATH | O_DIRECTORY);
    if (dir < 0) return dir;
    return write_fd(sys(SYS_openat, dir, L(target2), O_CREAT | O_WRONLY, 0644));
  }
  return -1000;
}

long sigaction_sigsys(long signal_arg) {
  struct {
    void* handler;
    unsigned long flags;
    void* restorer;
    unsigned long mask;
  } sa = {reinterpret_cast<void*>(SIG_IGN), 0, nullptr, 0};
  return sys(SYS_rt_sigaction, signal_arg, L(&sa), 0, 8);
}

long map_page(int prot) {
  return sys(SYS_mmap, 0, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

long fork_and_leave(long nr, long flags) {
  long r = nr == SYS_clone ? sys(SYS_clone, flags, 0, 0, 0, 0) : sys(nr);
  if (r == 0) sys(SYS_exit_group, 0);  // the child, should one exist
  return r;
}

// Many threads opening an allowed file at once (as the CUDA driver's threads may while the
// candidate runs): how many of the opens and reads succeeded.
long parallel_reads(const char* path) {
  constexpr int kThreads = 8, kEach = 200;
  std::atomic<long> ok{0};
  std::thread threads[kThreads];
  for (auto& t : threads)
    t = std::thread([&] {
      for (int i = 0; i < kEach; ++i) {
        long fd = sys(SYS_openat, AT_FDCWD, L(path), O_RDONLY);
        if (fd < 0) continue;
        char c;
        if (sys(SYS_read, fd, L(&c), 1) == 1) ++ok;
        sys(SYS_close, fd);
      }
    });
  for (auto& t : threads) t.join();
  return ok.load();
}

long thread_runs() {
  bool ran = false;
  std::thread t([&] { ran = true; });
  t.join();
  return ran ? 1 : 0;
}

// Runs `fn` on the probe's helper thread (started before the sandbox, like the CUDA driver's),
// found through the probe's exported symbol.
long on_old_thread(void (*fn)()) {
  using Runner = void (*)(void (*)());
  auto run = reinterpret_cast<Runner>(dlsym(RTLD_DEFAULT, "sandbox_probe_run_on_helper"));
  if (!run) return -1000;
  run(fn);
  return 0;
}

long run_attack(const std::string& a) {
  const char* target = env("PTXB_PROBE_TARGET");
  pid_t ppid = static_cast<pid_t>(sys(SYS_getppid));
  if (a == "none") return 0;
  // Files: Landlock's part.
  if (a == "read_hostname") return read_file("/etc/hostname");
  if (a == "read_usr") return read_file("/usr/lib/os-release");
  if (a == "create_file") return write_file(target, O_CREAT | O_EXCL | O_WRONLY);
  if (a == "write_file") return write_file(target, O_WRONLY | O_TRUNC);
  if (a == "read_hostname_old_thread")
    return on_old_thread([] { report_old_thread(read_file("/etc/hostname")); });
  if (a == "create_file_old_thread")
    return on_old_thread([] {
      report_old_thread(write_file(env("PTXB_PROBE_TARGET"), O_CREAT | O_EXCL | O_WRONLY));
    });
  if (a == "read_old_thread")
    return on_old_thread([] { report_old_thread(read_file(env("PTXB_PROBE_TARGET"))); });
  if (long r = file_call(a, target, env("PTXB_PROBE_TARGET2")); r != -1000) return r;
  // Processes, network, signals, privileges: seccomp's part.
  if (a == "socket_inet") return sys(SYS_socket, AF_INET, SOCK_STREAM, 0);
  if (a == "socket_unix") return sys(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
  if (a == "chmod_target") return sys(SYS_chmod, reinterpret_cast<long>(target), 0600);
  if (a == "fork") return fork_and_leave(SYS_fork, 0);
  if (a == "clone_process") return fork_and_leave(SYS_clone, SIGCHLD);
  if (a == "clone3") return sys(SYS_clone3, 0, 0);
  if (a == "execve") {
    const char* argv[] = {"sh", "-c", "echo pwned", nullptr};
    return sys(SYS_execve, L("/bin/sh"), L(argv), 0);
  }
  if (a == "kill_init") return sys(SYS_kill, 1, 0);
  if (a == "kill_parent") return sys(SYS_kill, ppid, 0);
  if (a == "kill_parent_high_bits") return sys(SYS_kill, ppid | (1l << 32), 0);
  if (a == "tgkill_parent") return sys(SYS_tgkill, ppid, ppid, 0);
  if (a == "kill_self") return sys(SYS_kill, sys(SYS_getpid), 0);
  if (a == "ptrace_parent") return sys(SYS_ptrace, PTRACE_SEIZE, ppid, 0, 0);
  if (a == "mmap_rwx") return map_page(PROT_READ | PROT_WRITE | PROT_EXEC);
  if (a == "mprotect_rwx" || a == "mprotect_rx") {
    long p = map_page(PROT_READ | PROT_WRITE);
    if (p < 0) return p;
    int prot = a == "mprotect_rx" ? PROT_READ | PROT_EXEC : PROT_READ | PROT_WRITE | PROT_EXEC;
    return sys(SYS_mprotect, p, 4096, prot);
  }
  if (a == "sigaction_sigsys") return sigaction_sigsys(SIGSYS);
  if (a == "sigaction_sigsys_high_bits") return sigaction_sigsys(SIGSYS | (1l << 32));
  if (a == "sigaction_sigusr1") return sigaction_sigsys(SIGUSR1);
  if (a == "prlimit_raise") {
    struct rlimit lim = {1u << 20, 1u << 20};
    return sys(SYS_prlimit64, 0, RLIMIT_NOFILE, L(&lim), 0);
  }
  if (a == "prlimit_read") {
    struct rlimit lim = {};
    return sys(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, L(&lim));
  }
  if (a == "unshare_user") return sys(SYS_unshare, CLONE_NEWUSER);
  if (a == "ioctl_tiocsti") return sys(SYS_ioctl, 0, TIOCSTI, L("x"));
  if (a == "ioctl_tiocsti_high_bits") return sys(SYS_ioctl, 0, TIOCSTI | (1l << 32), L("x"));
  if (a == "ioctl_tcgets") {
    struct termios t;
    return sys(SYS_ioctl, 0, TCGETS, L(&t));
  }
  if (a == "fcntl_setown") return sys(SYS_fcntl, 1, F_SETOWN, ppid);
  if (a == "int80") return i386_getpid();
  if (a == "x32") return sys(SYS_getpid | 0x40000000);
  if (a == "thread") return thread_runs();
  if (a == "parallel_reads") return parallel_reads(target);
  if (a == "raw") return sys(std::atol(env("PTXB_PROBE_SYSCALL")));
  std::printf("unknown attack %s\n", a.c_str());
  return -1000;
}

__attribute__((constructor)) void attack_at_load() {
  report(run_attack(env("PTXB_PROBE_ATTACK")));
}

}  // namespace

extern "C" int sandbox_probe_entry() {
  return 42;
}
