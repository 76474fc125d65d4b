// A hostile host fixture (plain C++, no CUDA): its entry point makes the attack named by
// PTXB_HOST_ATTACK (its constructor: PTXB_HOST_ATTACK_AT_LOAD), with the path in
// PTXB_HOST_TARGET where it takes one, and prints "result <value>" (-errno on failure) when
// the sandbox lets the call return.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

std::atomic<long> g_foreign_handler{0};  // a SIGTRAP handler that ran on another thread: its tid

long checked(long r) {
  return r < 0 ? -errno : r;
}

long read_path(const char* path) {
  const int fd = ::open(path, O_RDONLY);
  if (fd < 0) return -errno;
  char buf[64];
  const long n = checked(::read(fd, buf, sizeof buf));
  ::close(fd);
  return n;
}

// This fixture's own file, which the sandbox lets the process read.
const char* own_file() {
  Dl_info info{};
  return ::dladdr(reinterpret_cast<void*>(&own_file), &info) ? info.dli_fname : "";
}

long page(int prot) {
  void* p = ::mmap(nullptr, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? -errno : reinterpret_cast<long>(p);
}

long attack(const std::string& a) {
  const char* target = std::getenv("PTXB_HOST_TARGET");
  if (a == "none") return 0;
  if (a == "read") return read_path(target);
  if (a == "write") return checked(::open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644));
  if (a == "socket") return checked(::socket(AF_UNIX, SOCK_STREAM, 0));
  if (a == "read_self") return read_path(own_file());
  if (a == "flock_self") {
    const int fd = ::open(own_file(), O_RDONLY);
    return fd < 0 ? -errno : checked(::flock(fd, LOCK_EX));
  }
  if (a == "mmap_exec") return page(PROT_READ | PROT_EXEC);
  if (a == "mprotect_exec") {
    const long p = page(PROT_READ | PROT_WRITE);
    return checked(::mprotect(reinterpret_cast<void*>(p), 4096, PROT_READ | PROT_EXEC));
  }
  if (a == "thread") {
    std::thread t([] {});
    t.join();
    return 1;
  }
  if (a == "clone_thread")  // a thread's flags, on the caller's own stack: refused or never run
    return checked(::syscall(
        SYS_clone, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM,
        0, 0, 0, 0));
  if (a == "itimer") {
    itimerval v{};
    v.it_value.tv_sec = 60;
    return checked(::setitimer(ITIMER_REAL, &v, nullptr));
  }
  if (a == "sigalrm_handler") {
    struct sigaction sa {};
    sa.sa_handler = [](int) {};
    return checked(::sigaction(SIGALRM, &sa, nullptr));
  }
  // Signals every other thread of the process (the sandbox's listener) with a handler installed:
  // the result is the tid of a thread the handler ran on, 0 when none (the listener blocks them).
  if (a == "signal_listener") {
    struct sigaction sa {};
    sa.sa_handler = [](int) {
      const long tid = ::syscall(SYS_gettid);
      if (tid != ::getpid()) g_foreign_handler = tid;
    };
    if (::sigaction(SIGTRAP, &sa, nullptr) != 0) return -errno;
    const long pid = ::getpid();
    for (long tid = pid + 1; tid < pid + 256; ++tid) (void)::syscall(SYS_tgkill, pid, tid, SIGTRAP);
    ::usleep(100000);
    return g_foreign_handler.load();
  }
  if (a == "tcgets") {
    termios t{};
    return checked(::ioctl(0, TCGETS, &t));
  }
  std::printf("unknown attack %s\n", a.c_str());
  return -1000;
}

void report(long r) {
  std::printf("result %ld\n", r);
  std::fflush(stdout);
}

__attribute__((constructor)) void at_load() {
  if (const char* a = std::getenv("PTXB_HOST_ATTACK_AT_LOAD")) report(attack(a));
}

}  // namespace

extern "C" void ptxbench_launch(const void*, void*) {
  if (const char* a = std::getenv("PTXB_HOST_ATTACK")) report(attack(a));
}
