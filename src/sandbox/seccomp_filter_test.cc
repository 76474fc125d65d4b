#include "sandbox/seccomp_filter.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/sockios.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>

#include "sandbox/refusal.h"
#include "sandbox/seccomp_test_support.h"

namespace ptxbench::seccomp {
namespace {

using test_support::Allowed;
using test_support::ChildEnd;
using test_support::raw;
using test_support::RefusedAs;
using test_support::run_filtered;

// --- blocks_excluding ---------------------------------------------------------------------

bool in_block(const MaskedValue& b, std::uint32_t v) {
  return (v & b.mask) == b.value;
}

int covering(const std::vector<MaskedValue>& blocks, std::uint32_t v) {
  int n = 0;
  for (const auto& b : blocks) n += in_block(b, v);
  return n;
}

TEST(BlocksExcluding, NothingExcludedIsOneBlock) {
  auto blocks = blocks_excluding({});
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0], (MaskedValue{0, 0}));
}

TEST(BlocksExcluding, CoversEveryOtherValueExactlyOnce) {
  std::vector<std::uint32_t> excluded = refused_ioctl_requests();
  auto blocks = blocks_excluding(excluded);
  EXPECT_LE(blocks.size(), 32 * excluded.size());
  for (std::uint32_t v : excluded) EXPECT_EQ(covering(blocks, v), 0) << v;
  // Neighbours of the excluded values and a spread of others.
  auto expected = [&](std::uint32_t v) {
    return std::find(excluded.begin(), excluded.end(), v) != excluded.end() ? 0 : 1;
  };
  for (std::uint32_t v : excluded)
    for (std::uint32_t d : {1u, 2u, 3u, 0x100u, 0x10000u}) {
      EXPECT_EQ(covering(blocks, v + d), expected(v + d)) << v + d;
      EXPECT_EQ(covering(blocks, v - d), expected(v - d)) << v - d;
    }
  std::mt19937 rng(7);
  for (int i = 0; i < 10000; ++i) {
    std::uint32_t v = rng();
    EXPECT_EQ(covering(blocks, v), expected(v)) << v;
  }
  EXPECT_EQ(covering(blocks, 0), 1);
  EXPECT_EQ(covering(blocks, 0xffffffffu), 1);
}

TEST(SeccompFilter, Builds) {
  auto f = Filter::build(::getpid());
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  std::string pfc = f->pseudo_code();
  EXPECT_NE(pfc.find("ioctl"), std::string::npos);
  EXPECT_NE(pfc.find("ERRNO(38)"), std::string::npos);  // clone3
}

TEST(SeccompFilter, KernelSupportsIt) {
  std::string why;
  if (!kernel_supports_filter(&why)) GTEST_SKIP() << "no seccomp filters here: " << why;
  SUCCEED();
}

class Loaded : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!kernel_supports_filter(&why)) GTEST_SKIP() << "no seccomp filters here: " << why;
  }
};

TEST_F(Loaded, AllowsOrdinaryCalls) {
  EXPECT_TRUE(Allowed([] { return raw(SYS_getpid); }));
  EXPECT_TRUE(Allowed([] {
    int p[2];
    if (::pipe(p) != 0) return -1l;
    return raw(SYS_fcntl, p[0], F_GETFL) >= 0 ? 0l : -1l;
  }));
  EXPECT_TRUE(Allowed([] {
    std::thread t([] {});  // clone3 answers ENOSYS, glibc falls back to clone(CLONE_THREAD)
    t.join();
    return 0l;
  }));
  EXPECT_TRUE(Allowed([] {
    struct rlimit old {};
    return raw(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, reinterpret_cast<long>(&old));
  }));
  EXPECT_TRUE(Allowed([] {
    struct termios t {};
    return raw(SYS_ioctl, 0, TCGETS, reinterpret_cast<long>(&t));  // ENOTTY, but allowed
  }));
  EXPECT_TRUE(Allowed([] { return raw(SYS_rt_sigaction, SIGUSR1, 0, 0, 8); }));
  EXPECT_TRUE(Allowed([] { return raw(SYS_prctl, PR_SET_NAME, reinterpret_cast<long>("probe")); }));
}

TEST_F(Loaded, Clone3AnswersEnosys) {
  ChildEnd end = run_filtered([] { return raw(SYS_clone3, 0, 0); });
  ASSERT_TRUE(end.returned) << end.report;
  EXPECT_EQ(end.result, -ENOSYS);
}

TEST_F(Loaded, SignalsOnlyToItself) {
  EXPECT_TRUE(Allowed([] { return raw(SYS_kill, ::getpid(), 0); }));
  EXPECT_TRUE(Allowed([] { return raw(SYS_tgkill, ::getpid(), ::gettid(), 0); }));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_kill, 1, 0); }, "kill"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_kill, ::getppid(), 0); }, "kill"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_kill, 0, 0); }, "kill"));   // process group
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_kill, -1, 0); }, "kill"));  // everyone
  // The kernel reads pid as 32 bits: upper garbage must not dress up another pid as ours.
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_kill, ::getpid() | (1l << 32), 0); }, "kill"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_tgkill, ::getppid(), ::getppid(), 0); }, "tgkill"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_tkill, ::getppid(), 0); }, "tkill"));
  EXPECT_TRUE(
      RefusedAs([] { return raw(SYS_rt_sigqueueinfo, ::getppid(), 0, 0); }, "rt_sigqueueinfo"));
}

TEST_F(Loaded, WritableAndExecutableNeverTogether) {
  constexpr long anon = MAP_PRIVATE | MAP_ANONYMOUS;
  EXPECT_TRUE(Allowed([] { return raw(SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE, anon, -1); }));
  EXPECT_TRUE(Allowed([] { return raw(SYS_mmap, 0, 4096, PROT_READ | PROT_EXEC, anon, -1); }));
  EXPECT_TRUE(RefusedAs(
      [] { return raw(SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, anon, -1); }, "mmap"));
  EXPECT_TRUE(
      RefusedAs([] { return raw(SYS_mmap, 0, 4096, PROT_WRITE | PROT_EXEC, anon, -1); }, "mmap"));
  auto page = [] {
    return reinterpret_cast<long>(
        ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  };
  EXPECT_TRUE(Allowed([&] { return raw(SYS_mprotect, page(), 4096, PROT_READ | PROT_EXEC); }));
  EXPECT_TRUE(Allowed([&] { return raw(SYS_mprotect, page(), 4096, PROT_NONE); }));
  EXPECT_TRUE(
      RefusedAs([&] { return raw(SYS_mprotect, page(), 4096, PROT_READ | PROT_WRITE | PROT_EXEC); },
                "mprotect"));
  EXPECT_TRUE(RefusedAs(
      [&] { return raw(SYS_pkey_mprotect, page(), 4096, PROT_READ | PROT_WRITE | PROT_EXEC, -1); },
      "pkey_mprotect"));
}

TEST_F(Loaded, SigsysHandlerCannotBeDisarmed) {
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_rt_sigaction, SIGSYS, 0, 0, 8); }, "rt_sigaction"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_rt_sigaction, SIGSYS | (1l << 32), 0, 0, 8); },
                        "rt_sigaction"));
}

TEST_F(Loaded, LimitsAreReadOnly) {
  EXPECT_TRUE(RefusedAs(
      [] {
        struct rlimit lim = {1 << 20, 1 << 20};
        return raw(SYS_prlimit64, 0, RLIMIT_NOFILE, reinterpret_cast<long>(&lim), 0);
      },
      "prlimit64"));
  EXPECT_TRUE(RefusedAs(
      [] {
        struct rlimit old {};
        return raw(SYS_prlimit64, 1, RLIMIT_NOFILE, 0, reinterpret_cast<long>(&old));
      },
      "prlimit64"));
  EXPECT_TRUE(RefusedAs(
      [] {
        struct rlimit lim = {1 << 20, 1 << 20};
        return raw(SYS_setrlimit, RLIMIT_NOFILE, reinterpret_cast<long>(&lim));
      },
      "setrlimit"));
}

TEST_F(Loaded, ThreadsButNoProcesses) {
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_clone, SIGCHLD, 0, 0, 0, 0); }, "clone"));
  constexpr long thread = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD;
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_clone, thread | CLONE_NEWNET, 0, 0, 0, 0); }, "clone"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_fork); }, "fork"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_vfork); }, "vfork"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_execve, reinterpret_cast<long>("/bin/true"), 0, 0); },
                        "execve"));
}

TEST_F(Loaded, IoctlButNotTheSignalOrTerminalOnes) {
  EXPECT_TRUE(
      RefusedAs([] { return raw(SYS_ioctl, 0, TIOCSTI, reinterpret_cast<long>("x")); }, "ioctl"));
  EXPECT_TRUE(
      RefusedAs([] { return raw(SYS_ioctl, 0, TIOCSTI | (1l << 32), reinterpret_cast<long>("x")); },
                "ioctl"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_ioctl, 1, FIOSETOWN, 0); }, "ioctl"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_fcntl, 1, F_SETOWN, ::getppid()); }, "fcntl"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_fcntl, 1, F_SETSIG, SIGKILL); }, "fcntl"));
}

TEST_F(Loaded, ProcessControlOnlyHarmless) {
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_prctl, PR_SET_DUMPABLE, 1); }, "prctl"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_prctl, PR_SET_PTRACER, -1); }, "prctl"));
  EXPECT_TRUE(
      RefusedAs([] { return raw(SYS_madvise, 0, 4096, 100 /*MADV_HWPOISON*/); }, "madvise"));
  EXPECT_TRUE(RefusedAs(
      [] {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        return raw(SYS_sched_setaffinity, 1, sizeof set, reinterpret_cast<long>(&set));
      },
      "sched_setaffinity"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_socket, AF_UNIX, SOCK_STREAM, 0); }, "socket"));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_unshare, CLONE_NEWUSER); }, "unshare"));
}

// FileCalls::report: the file calls go to a listener (none here: they answer ENOSYS), O_PATH
// opens stay allowed, and the listener's reader works on this process only.
TEST_F(Loaded, ReportedFileCallsGoToTheListener) {
  std::string why;
  if (!kernel_supports_user_notification(&why)) GTEST_SKIP() << why;
  ChildEnd open =
      run_filtered([] { return raw(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/"), O_RDONLY); },
                   FileCalls::report);
  ASSERT_TRUE(open.returned) << open.report;
  EXPECT_EQ(open.result, -ENOSYS);  // sent to a listener, and there is none
  EXPECT_TRUE(Allowed(
      [] {
        long fd = raw(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/"), O_PATH);
        return fd >= 0 ? 0l : fd;
      },
      FileCalls::report));
  EXPECT_TRUE(Allowed(
      [] {
        char buf[8] = {};
        static const char src[] = "self";
        iovec local{buf, sizeof src}, remote{const_cast<char*>(src), sizeof src};
        long n = ::syscall(SYS_process_vm_readv, ::getpid(), &local, 1, &remote, 1, 0);
        return n == sizeof src && std::strcmp(buf, src) == 0 ? 0l : -1l;
      },
      FileCalls::report));
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_process_vm_readv, ::getppid(), 0, 0, 0, 0); },
                        "process_vm_readv", FileCalls::report));
  EXPECT_TRUE(
      RefusedAs([] { return raw(SYS_openat2, AT_FDCWD, 0, 0, 0); }, "openat2", FileCalls::report));
  // Without reporting the reader stays refused, and the file calls are plainly allowed.
  EXPECT_TRUE(RefusedAs([] { return raw(SYS_process_vm_readv, ::getpid(), 0, 0, 0, 0); },
                        "process_vm_readv"));
  EXPECT_TRUE(Allowed([] {
    long fd = raw(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/"), O_RDONLY);
    return fd >= 0 ? 0l : fd;
  }));
}

}  // namespace
}  // namespace ptxbench::seccomp
