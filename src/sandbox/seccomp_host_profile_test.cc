// The host profile's seccomp allow-list (sandbox_profile.h), loaded in a forked child: what
// it refuses beyond the gpu profile, and what the host process still needs.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "sandbox/seccomp_filter.h"
#include "sandbox/seccomp_test_support.h"

namespace ptxbench::seccomp {
namespace {

constexpr auto kHost = SandboxProfile::host;
constexpr long kAnon = MAP_PRIVATE | MAP_ANONYMOUS;

::testing::AssertionResult HostAllows(const std::function<long()>& call) {
  return test_support::Allowed(call, FileCalls::allow, kHost);
}
::testing::AssertionResult HostRefuses(const std::function<long()>& call, const std::string& name) {
  return test_support::RefusedAs(call, name, FileCalls::allow, kHost);
}
using test_support::raw;

long self_fd() {
  return ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
}

class HostProfile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!kernel_supports_filter(&why)) GTEST_SKIP() << "no seccomp filters here: " << why;
  }
};

TEST(HostProfileFilter, BuildsAndListsItsIoctls) {
  auto f = Filter::build(::getpid(), Mode::enforce, FileCalls::allow, Sockets::refused, kHost);
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  const auto requests = host_ioctl_requests();
  EXPECT_EQ(requests.size(), 5u);
  EXPECT_NE(std::find(requests.begin(), requests.end(), TCGETS), requests.end());
}

TEST_F(HostProfile, WhatTheHostNeedsStaysAllowed) {
  EXPECT_TRUE(HostAllows([] { return raw(SYS_getpid); }));
  EXPECT_TRUE(HostAllows([] {
    int p[2];
    return ::pipe(p) == 0 && raw(SYS_fcntl, p[0], F_GETFL) >= 0 ? 0l : -1l;
  }));
  EXPECT_TRUE(HostAllows([] {
    struct termios t {};
    return raw(SYS_ioctl, 0, TCGETS, reinterpret_cast<long>(&t));  // ENOTTY, but allowed
  }));
  EXPECT_TRUE(HostAllows([] {
    struct winsize w {};
    return raw(SYS_ioctl, 1, TIOCGWINSZ, reinterpret_cast<long>(&w));
  }));
  // The listener's ioctls (on a descriptor that is no listener's: EINVAL or ENOTTY).
  EXPECT_TRUE(HostAllows([] { return raw(SYS_ioctl, 0, SECCOMP_IOCTL_NOTIF_ID_VALID, 0); }));
  // Memory: anonymous read/write, and executable mappings of a file (the loader's).
  EXPECT_TRUE(HostAllows([] { return raw(SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE, kAnon, -1); }));
  EXPECT_TRUE(HostAllows([] {
    long r = raw(SYS_mmap, 0, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, self_fd(), 0);
    return r < 0 ? r : 0;
  }));
  EXPECT_TRUE(HostAllows([] {
    void* p = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, kAnon, -1, 0);
    return raw(SYS_mprotect, reinterpret_cast<long>(p), 4096, PROT_READ);
  }));
  EXPECT_TRUE(HostAllows([] { return raw(SYS_rt_sigaction, SIGUSR1, 0, 0, 8); }));
  EXPECT_TRUE(HostAllows([] {
    struct timespec t {};
    return raw(SYS_clock_gettime, CLOCK_MONOTONIC, reinterpret_cast<long>(&t));
  }));
}

TEST_F(HostProfile, NoDeviceOrOtherIoctl) {
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_ioctl, 0, FIONREAD, 0); }, "ioctl"));
  // The kernel reads the request as 32 bits: the comparison looks at the low half only.
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_ioctl, 0, TCSETS | (1l << 32), 0); }, "ioctl"));
  EXPECT_TRUE(HostAllows([] {
    struct termios t {};
    return raw(SYS_ioctl, 0, TCGETS | (1l << 32), reinterpret_cast<long>(&t));
  }));
  EXPECT_TRUE(
      HostRefuses([] { return raw(SYS_ioctl, 3, 0xc0c0464e /* an nvidia one */, 0); }, "ioctl"));
}

// A lock would be state two candidates' processes share: every lock call answers EPERM, quietly
// (nothing is carried, and a candidate that only tries is not ended for it).
TEST_F(HostProfile, FileLocksAnswerEperm) {
  auto answers_eperm = [](const std::function<long()>& call) {
    test_support::ChildEnd end = test_support::run_filtered(call, FileCalls::allow, kHost);
    return end.returned && end.result == -EPERM;
  };
  EXPECT_TRUE(answers_eperm([] { return raw(SYS_flock, self_fd(), LOCK_SH); }));
  for (long cmd : {F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW})
    EXPECT_TRUE(answers_eperm([cmd] { return raw(SYS_fcntl, self_fd(), cmd, 0); })) << cmd;
}

// The page cache of a shared file and the machine's free memory are state other processes see:
// residency (mincore), eviction (fadvise DONTNEED, madvise COLD/PAGEOUT) and sysinfo answer EPERM.
TEST_F(HostProfile, NoPageCacheOrMachineMemoryChannel) {
  auto answers_eperm = [](const std::function<long()>& call) {
    test_support::ChildEnd end = test_support::run_filtered(call, FileCalls::allow, kHost);
    return end.returned && end.result == -EPERM;
  };
  auto page = [] {
    return reinterpret_cast<long>(::mmap(nullptr, 4096, PROT_READ, kAnon | MAP_POPULATE, -1, 0));
  };
  unsigned char vec[1];
  EXPECT_TRUE(
      answers_eperm([&] { return raw(SYS_mincore, page(), 4096, reinterpret_cast<long>(vec)); }));
  EXPECT_TRUE(
      answers_eperm([] { return raw(SYS_fadvise64, self_fd(), 0, 0, POSIX_FADV_DONTNEED); }));
  EXPECT_TRUE(answers_eperm([&] { return raw(SYS_madvise, page(), 4096, 21 /*PAGEOUT*/); }));
  EXPECT_TRUE(answers_eperm([&] { return raw(SYS_madvise, page(), 4096, 20 /*COLD*/); }));
  struct sysinfo_buf {
    char bytes[128];
  } si;
  EXPECT_TRUE(answers_eperm([&] { return raw(SYS_sysinfo, reinterpret_cast<long>(&si)); }));
  EXPECT_TRUE(HostAllows([&] { return raw(SYS_madvise, page(), 4096, MADV_DONTNEED); }));
  // The GPU-process profile keeps them (the CUDA driver may use them).
  EXPECT_TRUE(test_support::Allowed([&] { return raw(SYS_sysinfo, reinterpret_cast<long>(&si)); }));
}

TEST_F(HostProfile, NoFreshExecutableMemory) {
  EXPECT_TRUE(
      HostRefuses([] { return raw(SYS_mmap, 0, 4096, PROT_READ | PROT_EXEC, kAnon, -1); }, "mmap"));
  EXPECT_TRUE(HostRefuses(
      [] { return raw(SYS_mmap, 0, 4096, PROT_EXEC, MAP_SHARED | MAP_ANONYMOUS, -1); }, "mmap"));
  auto page = [] {
    return reinterpret_cast<long>(::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, kAnon, -1, 0));
  };
  EXPECT_TRUE(HostRefuses([&] { return raw(SYS_mprotect, page(), 4096, PROT_READ | PROT_EXEC); },
                          "mprotect"));
  EXPECT_TRUE(HostRefuses([&] { return raw(SYS_pkey_mprotect, page(), 4096, PROT_EXEC, -1); },
                          "pkey_mprotect"));
  EXPECT_TRUE(HostRefuses(
      [] { return raw(SYS_mmap, 0, 4096, PROT_WRITE | PROT_EXEC, MAP_PRIVATE, self_fd(), 0); },
      "mmap"));
}

TEST_F(HostProfile, NoThreadsAtAll) {
  // glibc clones with every signal blocked, so without the listener (FileCalls::allow) the
  // refusal is a death by SIGSYS, unnamed; ptxbench-host has the listener, which names the call
  // (host_sandbox_test).
  const test_support::ChildEnd end = test_support::run_filtered(
      [] {
        std::thread t([] {});
        t.join();
        return 0l;
      },
      FileCalls::allow, kHost);
  EXPECT_FALSE(end.returned);
  EXPECT_EQ(end.signal, SIGSYS) << end.report;
  constexpr long thread = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD;
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_clone, thread, 0, 0, 0, 0); }, "clone"));
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_fork); }, "fork"));
}

TEST_F(HostProfile, NoTimersOrTheirHandlers) {
  EXPECT_TRUE(HostRefuses(
      [] {
        struct itimerval v {};
        v.it_value.tv_sec = 100;
        return raw(SYS_setitimer, ITIMER_REAL, reinterpret_cast<long>(&v), 0);
      },
      "setitimer"));
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_alarm, 100); }, "alarm"));
  EXPECT_TRUE(
      HostRefuses([] { return raw(SYS_timer_create, CLOCK_MONOTONIC, 0, 0); }, "timer_create"));
  EXPECT_TRUE(
      HostRefuses([] { return raw(SYS_timerfd_create, CLOCK_MONOTONIC, 0); }, "timerfd_create"));
  for (long sig : {SIGALRM, SIGVTALRM, SIGPROF})
    EXPECT_TRUE(HostRefuses([sig] { return raw(SYS_rt_sigaction, sig, 0, 0, 8); }, "rt_sigaction"))
        << sig;
}

TEST_F(HostProfile, NoSharedStateWithOtherProcesses) {
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_memfd_create, reinterpret_cast<long>("x"), 0); },
                          "memfd_create"));
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_shmget, 0, 4096, 0); }, "shmget"));
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_msgget, 0, 0); }, "msgget"));
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_semget, 0, 1, 0); }, "semget"));
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_inotify_init1, 0); }, "inotify_init1"));
  EXPECT_TRUE(HostRefuses([] { return raw(SYS_fanotify_init, 0, 0); }, "fanotify_init"));
}

// The gpu profile keeps what the CUDA driver needs: the same calls are allowed there.
TEST_F(HostProfile, TheGpuProfileIsUnchanged) {
  EXPECT_TRUE(test_support::Allowed([] { return raw(SYS_flock, self_fd(), LOCK_SH); }));
  EXPECT_TRUE(test_support::Allowed([] { return raw(SYS_alarm, 0); }));
  EXPECT_TRUE(test_support::Allowed(
      [] { return raw(SYS_mmap, 0, 4096, PROT_READ | PROT_EXEC, kAnon, -1) > 0 ? 0l : -1l; }));
}

}  // namespace
}  // namespace ptxbench::seccomp
