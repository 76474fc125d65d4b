#include "core/child_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

namespace ptxbench {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

ProcessSpec peer_spec() {
  ProcessSpec spec;
  spec.argv = {PTXBENCH_CHILD_PEER};
  spec.clear_env = true;
  spec.limits.wall = std::chrono::seconds(60);
  return spec;
}

std::unique_ptr<ChildProcess> start(const ProcessSpec& spec = peer_spec()) {
  auto child = ChildProcess::spawn(spec);
  EXPECT_TRUE(child.ok()) << (child.ok() ? "" : child.error().to_string());
  return child.ok() ? std::move(*child) : nullptr;
}

std::string ask(ChildProcess& child, const std::string& command) {
  EXPECT_TRUE(child.send_line(command).ok());
  auto reply = child.read_line(std::chrono::seconds(20));
  EXPECT_TRUE(reply.ok()) << (reply.ok() ? "" : to_string(reply.error()));
  return reply.ok() ? *reply : "";
}

TEST(ChildProcess, RoundTripsManyLines) {
  auto child = start();
  ASSERT_TRUE(child);
  for (int i = 0; i < 500; ++i) {
    std::string text = "line " + std::to_string(i) + std::string(i % 37, '{');
    ASSERT_EQ(ask(*child, "echo " + text), text);
  }
  // Pipelined: many commands before any reply is read.
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(child->send_line("echo p" + std::to_string(i)).ok());
  for (int i = 0; i < 200; ++i) {
    auto reply = child->read_line(std::chrono::seconds(20));
    ASSERT_TRUE(reply.ok());
    EXPECT_EQ(*reply, "p" + std::to_string(i));
  }
  EXPECT_EQ(ask(*child, "big 3000000").size(), 3000000u);  // longer than a pipe buffer
  auto r = child->finish(std::chrono::seconds(10));
  EXPECT_TRUE(r.succeeded()) << r.describe_end();
  EXPECT_EQ(r.stderr_text, "bye\n");
  EXPECT_GT(r.wall_seconds, 0.0);
}

TEST(ChildProcess, RoundTripLatency) {
  auto child = start();
  ASSERT_TRUE(child);
  std::vector<double> us;
  for (int i = 0; i < 1000; ++i) {
    auto t0 = Clock::now();
    ASSERT_TRUE(child->send_line("echo ping").ok());
    auto reply = child->read_line(std::chrono::seconds(20));
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    ASSERT_TRUE(reply.ok());
    ASSERT_EQ(*reply, "ping");
  }
  std::sort(us.begin(), us.end());
  std::printf("round trip of one short line: median %.1f us, p90 %.1f us, max %.1f us\n", us[500],
              us[900], us.back());
  EXPECT_LT(us[500], 2000.0);  // tens of microseconds expected; generous for a loaded machine
}

TEST(ChildProcess, TimeoutLeavesTheChildRunningThenKill) {
  auto child = start();
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->send_line("hang").ok());
  auto t0 = Clock::now();
  auto reply = child->read_line(milliseconds(150));
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error(), ReadLineError::timed_out);
  EXPECT_GE(Clock::now() - t0, milliseconds(150));
  EXPECT_EQ(::kill(child->pid(), 0), 0);  // still there
  child->kill();
  reply = child->read_line(std::chrono::seconds(10));
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error(), ReadLineError::closed);
  auto r = child->finish(std::chrono::seconds(5));
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_FALSE(r.timed_out);
}

TEST(ChildProcess, FinishKillsAChildThatIgnoresEndOfInput) {
  auto child = start();
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->send_line("hang").ok());
  auto t0 = Clock::now();
  auto r = child->finish(milliseconds(200));
  EXPECT_TRUE(r.timed_out);
  EXPECT_GE(Clock::now() - t0, milliseconds(200));
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(5));
  EXPECT_FALSE(child->send_line("echo x").ok());
  EXPECT_EQ(child->read_line(milliseconds(10)).error(), ReadLineError::closed);
}

TEST(ChildProcess, ExitMidProtocolIsClosedWithTheExitCode) {
  auto child = start();
  ASSERT_TRUE(child);
  EXPECT_EQ(ask(*child, "echo before"), "before");
  ASSERT_TRUE(child->send_line("exit 7").ok());
  auto reply = child->read_line(std::chrono::seconds(10));
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error(), ReadLineError::closed);
  auto r = child->finish(std::chrono::seconds(5));
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.describe_end(), "exit code 7");
}

TEST(ChildProcess, ChattyChildDoesNotBlockAndOutputIsCapped) {
  ProcessSpec spec = peer_spec();
  spec.limits.output_cap_bytes = 4096;
  auto child = start(spec);
  ASSERT_TRUE(child);
  EXPECT_EQ(ask(*child, "spam 8000000"), "done");  // 8 MB on each stream, parent waiting
  EXPECT_EQ(ask(*child, "echo still here"), "still here");
  auto r = child->finish(std::chrono::seconds(10));
  EXPECT_TRUE(r.succeeded()) << r.describe_end();
  for (const auto& [text, cut] : {std::pair{r.stdout_text, r.stdout_truncated},
                                  std::pair{r.stderr_text, r.stderr_truncated}}) {
    EXPECT_TRUE(cut);
    EXPECT_LT(text.size(), 4096u + 100u);
    EXPECT_EQ(text.rfind("HEAD-MARK", 0), 0u);
    EXPECT_NE(text.find("bytes cut by ptxbench"), std::string::npos);
  }
  EXPECT_NE(r.stdout_text.find("TAIL-MARK\n"), std::string::npos);
  EXPECT_TRUE(r.stderr_text.ends_with("TAIL-MARK\nbye\n"));
}

TEST(ChildProcess, WallLimitKillsWhileReading) {
  ProcessSpec spec = peer_spec();
  spec.limits.wall = milliseconds(300);
  auto child = start(spec);
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->send_line("hang").ok());
  auto t0 = Clock::now();
  auto reply = child->read_line(std::chrono::seconds(30));
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error(), ReadLineError::closed);
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(5));
  auto r = child->finish(std::chrono::seconds(5));
  EXPECT_TRUE(r.timed_out);
  EXPECT_NE(r.describe_end().find("timed out"), std::string::npos);
}

TEST(ChildProcess, WallLimitKillsWhileTheParentIsBusy) {
  ProcessSpec spec = peer_spec();
  spec.limits.wall = milliseconds(200);
  auto child = start(spec);
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->send_line("hang").ok());
  std::this_thread::sleep_for(milliseconds(700));
  // The drain thread killed the group at the deadline: the reply pipe is already closed.
  siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(child->pid()), &info, WEXITED | WNOHANG | WNOWAIT),
            0);
  EXPECT_EQ(info.si_pid, child->pid());
  EXPECT_EQ(info.si_status, SIGKILL);
  EXPECT_EQ(child->read_line(std::chrono::seconds(0)).error(), ReadLineError::closed);
  EXPECT_TRUE(child->finish(std::chrono::seconds(5)).timed_out);
}

TEST(ChildProcess, SendingToADeadChildIsAnErrorNotSigpipe) {
  auto old = ::signal(SIGPIPE, SIG_DFL);  // a SIGPIPE would end this test program
  auto child = start();
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->send_line("exit 0").ok());
  EXPECT_EQ(child->read_line(std::chrono::seconds(10)).error(), ReadLineError::closed);
  // The reply pipe's end of file can come before the command pipe's reader is released
  // (the kernel releases an exiting process's files in no fixed order); once the child is a
  // zombie it holds nothing.
  siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(child->pid()), &info, WEXITED | WNOWAIT), 0);
  Status sent = child->send_line("echo anyone");
  ASSERT_FALSE(sent.ok());
  EXPECT_NE(sent.error().message.find("closed"), std::string::npos);
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE));
  EXPECT_EQ(child->finish(std::chrono::seconds(5)).exit_code, 0);
  ::signal(SIGPIPE, old);
}

TEST(ChildProcess, ChildSeesOnlyItsFiveDescriptors) {
  int leaky = ::open("/dev/null", O_RDONLY);  // deliberately without O_CLOEXEC
  ASSERT_GE(leaky, 0);
  auto child = start();
  ASSERT_TRUE(child);
  EXPECT_EQ(ask(*child, "fds"), "0 1 2 3 4");
  ::close(leaky);
}

TEST(ChildProcess, TwoChildrenAtOnceDoNotHoldEachOthersPipes) {
  auto a = start();
  auto b = start();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(ask(*b, "fds"), "0 1 2 3 4");
  EXPECT_EQ(ask(*a, "echo to a"), "to a");
  EXPECT_EQ(ask(*b, "echo to b"), "to b");
  // a sees end of input and exits at once: b holds no copy of a's command pipe.
  auto ra = a->finish(std::chrono::seconds(10));
  EXPECT_TRUE(ra.succeeded()) << ra.describe_end();
  EXPECT_LT(ra.wall_seconds, 5.0);
  EXPECT_EQ(ask(*b, "echo b still"), "b still");
  EXPECT_TRUE(b->finish(std::chrono::seconds(10)).succeeded());
}

TEST(ChildProcess, OtherDescriptorNumbersAndShellChildren) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "while read -r l <&5; do echo \"got $l\" >&6; done; exit 3"};
  auto child = ChildProcess::spawn(spec, ChildPipes{.command_fd = 5, .reply_fd = 6});
  ASSERT_TRUE(child.ok());
  EXPECT_EQ(ask(**child, "a b"), "got a b");
  auto r = (*child)->finish(std::chrono::seconds(5));
  EXPECT_EQ(r.exit_code, 3);
}

TEST(ChildProcess, OverlongLineIsTypedAndSticky) {
  auto child = start();
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->send_line("big 5000").ok());
  auto reply = child->read_line(std::chrono::seconds(10), 1000);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error(), ReadLineError::too_long);
  EXPECT_EQ(child->read_line(std::chrono::seconds(1)).error(), ReadLineError::too_long);
}

TEST(ChildProcess, PartialLineSurvivesATimeout) {
  auto child = start();
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->send_line("split").ok());
  EXPECT_EQ(child->read_line(milliseconds(50)).error(), ReadLineError::timed_out);
  auto reply = child->read_line(std::chrono::seconds(10));
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(*reply, "half");
}

TEST(ChildProcess, FeedsStdin) {
  ProcessSpec spec = peer_spec();
  spec.stdin_data = "from stdin";
  auto child = start(spec);
  ASSERT_TRUE(child);
  EXPECT_EQ(ask(*child, "stdin"), "from stdin");
}

TEST(ChildProcess, RejectsEmbeddedNewlines) {
  auto child = start();
  ASSERT_TRUE(child);
  EXPECT_FALSE(child->send_line("echo a\nb").ok());
  EXPECT_EQ(ask(*child, "echo fine"), "fine");
}

TEST(ChildProcess, MissingProgramIsAnError) {
  ProcessSpec spec;
  spec.argv = {"ptxbench-no-such-program"};
  auto child = ChildProcess::spawn(spec);
  ASSERT_FALSE(child.ok());
  EXPECT_NE(child.error().message.find("not found"), std::string::npos);
}

// A process is gone when /proc has no entry for it or it is a zombie (killed, not reaped).
bool gone(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  auto paren = text.rfind(')');
  return paren == std::string::npos || text.substr(paren + 2, 1) == "Z";
}

TEST(ChildProcess, DestructorKillsTheGroup) {
  std::string grandchild;
  {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "sleep 30 & echo $! >&4; wait"};
    auto child = ChildProcess::spawn(spec);
    ASSERT_TRUE(child.ok());
    auto reply = (*child)->read_line(std::chrono::seconds(10));
    ASSERT_TRUE(reply.ok());
    grandchild = *reply;
    EXPECT_FALSE(gone(grandchild));
  }
  for (int i = 0; i < 100 && !gone(grandchild); ++i) std::this_thread::sleep_for(milliseconds(10));
  EXPECT_TRUE(gone(grandchild));
}

TEST(ChildProcess, NetworkIsolationWhenAllowed) {
  ProcessSpec spec = peer_spec();
  spec.isolate_network = true;
  auto child = start(spec);
  ASSERT_TRUE(child);
  std::string lines = ask(*child, "net");
  if (!child->network_isolated()) GTEST_SKIP() << "this machine does not allow network namespaces";
  // Only the header lines and the loopback device remain in a fresh namespace.
  EXPECT_EQ(lines, "3");
}

TEST(ChildProcess, NoIsolationUnlessAsked) {
  auto child = start();
  ASSERT_TRUE(child);
  EXPECT_FALSE(child->network_isolated());
}

}  // namespace
}  // namespace ptxbench
