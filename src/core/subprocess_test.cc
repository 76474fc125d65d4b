#include "core/subprocess.h"

#include <grp.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <thread>

#include "core/interrupt.h"

namespace ptxbench {
namespace {

ProcessResult run_sh(const std::string& script, ProcessLimits limits = {}) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.limits = limits;
  auto r = runner.run(spec);
  EXPECT_TRUE(r.ok());
  return *r;
}

TEST(Subprocess, CapturesOutputAndExitCode) {
  auto r = run_sh("echo out; echo err >&2; exit 3");
  EXPECT_EQ(r.stdout_text, "out\n");
  EXPECT_EQ(r.stderr_text, "err\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.describe_end(), "exit code 3");
}

TEST(Subprocess, KillsOnTimeoutIncludingChildren) {
  ProcessLimits l;
  l.wall = std::chrono::milliseconds(300);
  auto r = run_sh("sleep 30 & sleep 30; echo never", l);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.wall_seconds, 5.0);
  EXPECT_EQ(r.stdout_text.find("never"), std::string::npos);
}

// CPU time, not wall time: a sleeping child costs (almost) none; a grandchild that spins and
// is waited for counts, as nvcc's cicc and ptxas do.
TEST(Subprocess, MeasuresTheChildsCpuTimeNotItsWallTime) {
  auto idle = run_sh("sleep 0.5");
  EXPECT_GE(idle.wall_seconds, 0.5);
  EXPECT_LT(idle.cpu_seconds, 0.2);
  auto busy = run_sh("sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'");
  EXPECT_GT(busy.cpu_seconds, 0.05);
  EXPECT_LE(busy.cpu_seconds, busy.wall_seconds * 2 + 0.05);
}
// Ctrl-C within an InterruptScope stops the child's whole group (a grandchild included)
// at once and says so; outside a scope nothing is recorded.
TEST(Subprocess, StopsTheChildWhenInterrupted) {
  EXPECT_EQ(interrupt_signal(), 0);
  InterruptScope scope;
  std::thread ctrl_c([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGINT);
  });
  ProcessResult r = run_sh("sleep 30 & sleep 30");
  ctrl_c.join();
  EXPECT_EQ(r.interrupted, SIGINT);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.succeeded());
  EXPECT_LT(r.wall_seconds, 5.0);
  EXPECT_NE(r.describe_end().find("interrupted (SIGINT)"), std::string::npos);
  EXPECT_EQ(interrupt_signal(), SIGINT);
}

TEST(Subprocess, ReportsSignals) {
  auto r = run_sh("kill -SEGV $$");
  EXPECT_EQ(r.signal, 11);
  EXPECT_NE(r.describe_end().find("signal 11"), std::string::npos);
}

TEST(Subprocess, CapsOutputKeepingHeadAndTail) {
  ProcessLimits l;
  l.output_cap_bytes = 1000;
  auto r = run_sh("echo FIRST; yes filler | head -c 200000; echo; echo LAST", l);
  EXPECT_TRUE(r.stdout_truncated);
  EXPECT_LT(r.stdout_text.size(), 1200u);
  EXPECT_EQ(r.stdout_text.rfind("FIRST", 0), 0u);
  EXPECT_NE(r.stdout_text.find("LAST"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("bytes cut by ptxbench"), std::string::npos);
}

TEST(Subprocess, PassesStdinAndEnvironment) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "cat; echo $PTXB_X"};
  spec.stdin_data = "hello\n";
  spec.env["PTXB_X"] = "42";
  auto r = runner.run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text, "hello\n42\n");
}

TEST(Subprocess, MissingProgramIsAnError) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"ptxbench-no-such-program"};
  auto r = runner.run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not found"), std::string::npos);
}

TEST(Subprocess, MemoryLimitStopsAHog) {
  ProcessLimits l;
  l.address_space_bytes = 256ull << 20;
  auto r = run_sh("python3 -c 'x = bytearray(1 << 30)' 2>/dev/null || exit 9", l);
  EXPECT_EQ(r.exit_code, 9);
}

// Under a file-size hard limit of 50 KiB, a child asked to get 1 GiB (and 64 open files) gets
// 50 KiB (and 64): exits 0 when its /proc/self/limits says so.
[[noreturn]] void run_child_under_a_small_file_size_limit() {
  rlimit small{51200, 51200};
  ::setrlimit(RLIMIT_FSIZE, &small);
  ProcessLimits l;
  l.file_size_bytes = 1ull << 30;
  l.open_files = 64;
  const ProcessResult r =
      run_sh("grep -E '^Max (file size|open files)' /proc/self/limits | tr -s ' '", l);
  std::exit(r.stdout_text == "Max file size 51200 51200 bytes \nMax open files 64 64 files \n" ? 0
                                                                                               : 1);
}

// A child's limit is capped by the hard limit this process has: `ulimit -f 50` around ptxbench
// binds nvcc too, even as root, who could raise it (CI, 2026-12-05: nvcc under a raised limit
// never ran out of room). In a death-test child, so the test process keeps its limits.
TEST(Subprocess, NeverRaisesALimitAboveItsOwnHardLimit) {
  EXPECT_EXIT(run_child_under_a_small_file_size_limit(), ::testing::ExitedWithCode(0), "");
}

TEST(Subprocess, NetworkIsolationWhenAllowed) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "cat /proc/net/dev | wc -l"};
  spec.isolate_network = true;
  auto r = runner.run(spec);
  ASSERT_TRUE(r.ok());
  if (!r->network_isolated) GTEST_SKIP() << "this machine does not allow network namespaces";
  // Only the header lines and the loopback device remain in a fresh namespace.
  EXPECT_EQ(std::stoi(r->stdout_text), 3);
}

TEST(Subprocess, RunsAsAnotherUser) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch users";
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "id -u; id -g; id -G"};
  spec.run_as_uid = 65534;
  spec.run_as_gid = 65534;
  auto r = runner.run(spec);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->stdout_text, "65534\n65534\n65534\n");  // no supplementary groups left
}

TEST(Subprocess, KeepsItsUserWhenNoneIsGiven) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "id -u"};
  auto r = runner.run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text, std::to_string(::geteuid()) + "\n");
}

TEST(Subprocess, AFailedUserSwitchIsAStartError) {
  // From an unprivileged process (a forked child dropped to nobody when we are root) the
  // switch to root must fail, naming the step and the errno.
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p[0]);
    if (::geteuid() == 0 &&
        (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
         ::setresuid(65534, 65534, 65534) != 0))
      ::_exit(1);
    SystemProcessRunner runner;
    ProcessSpec spec;
    spec.argv = {"/bin/true"};
    spec.run_as_uid = 0;
    spec.run_as_gid = 0;
    auto r = runner.run(spec);
    std::string msg = r.ok() ? "started" : r.error().message;
    (void)!::write(p[1], msg.data(), msg.size());
    ::_exit(0);
  }
  ::close(p[1]);
  std::string msg;
  char buf[512];
  ssize_t n;
  while ((n = ::read(p[0], buf, sizeof buf)) > 0) msg.append(buf, static_cast<std::size_t>(n));
  ::close(p[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(msg.find("cannot start /bin/true: setgroups(0) failed: Operation not permitted"),
            std::string::npos)
      << msg;
}

TEST(CapText, KeepsShortTextWhole) {
  bool t = true;
  EXPECT_EQ(cap_text("abc", 100, &t), "abc");
  EXPECT_FALSE(t);
}

}  // namespace
}  // namespace ptxbench
