#include "sandbox/refusal.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace ptxbench {
namespace {

TEST(Refusal, ParsesTheReportersLine) {
  auto call = parse_refusal("ptxbench-sandbox: refused system call 41 socket\n");
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->number, 41);
  EXPECT_EQ(call->name, "socket");
}

// The last line is the reporter's: one the candidate printed before it names nothing.
TEST(Refusal, FindsTheLastLineAmongOtherOutput) {
  auto call = parse_refusal(
      "warming up\nptxbench-sandbox: refused system call 20 i386:getpid\nmore\n"
      "ptxbench-sandbox: refused system call 41 socket\n");
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(*call, (RefusedCall{41, "socket"}));
  // A forged line left without its newline, then the reporter's.
  EXPECT_EQ(parse_refusal("ptxbench-sandbox: refused system call 39 getpid"
                          "ptxbench-sandbox: refused system call 41 socket\n"),
            (RefusedCall{41, "socket"}));
}

// The reporter's status with its line on stdout (fd 2 pointed at fd 1), or with no line at all.
TEST(Refusal, TheReportersStatusIsARefusalWhereverItsLineWent) {
  ProcessResult r;
  r.exit_code = kSandboxRefusalExit;
  r.stdout_text = "ptxbench-sandbox: refused system call 41 socket\n";
  EXPECT_EQ(refusal_of(r), (RefusedCall{41, "socket"}));
  r.stdout_text.clear();
  EXPECT_EQ(refusal_of(r), (RefusedCall{-1, "unknown"}));
  r.exit_code = 1;
  EXPECT_FALSE(refusal_of(r).has_value());
}

TEST(Refusal, RoundTripsTheLineItWrites) {
  EXPECT_EQ(refusal_line(1073741863, "x32:getpid"),
            "ptxbench-sandbox: refused system call 1073741863 x32:getpid\n");
  EXPECT_EQ(parse_refusal(refusal_line(57, "fork")), (RefusedCall{57, "fork"}));
}

TEST(Refusal, RejectsMalformedLines) {
  EXPECT_FALSE(parse_refusal("").has_value());
  EXPECT_FALSE(parse_refusal("ptxbench-sandbox: refused system call socket\n").has_value());
  EXPECT_FALSE(parse_refusal("ptxbench-sandbox: refused system call 41\n").has_value());
  EXPECT_FALSE(parse_refusal("ptxbench-sandbox: refused system call 41 \n").has_value());
  EXPECT_FALSE(parse_refusal("refused system call 41 socket\n").has_value());
}

TEST(Refusal, AFileRefusalCarriesItsPath) {
  auto call = parse_refusal("ptxbench-sandbox: refused system call 257 openat /etc/hostname\n");
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(*call, (RefusedCall{257, "openat", "/etc/hostname"}));
  // The path is the rest of the line, spaces included; the old lines have none.
  EXPECT_EQ(parse_refusal("ptxbench-sandbox: refused system call 83 mkdir /tmp/a b\n"),
            (RefusedCall{83, "mkdir", "/tmp/a b"}));
  EXPECT_EQ(parse_refusal("ptxbench-sandbox: refused system call 41 socket\n")->path, "");
  EXPECT_FALSE(parse_refusal("ptxbench-sandbox: refused system call 257 openat \n").has_value());
}

TEST(Refusal, PathsAreWrittenPrintableAndCut) {
  EXPECT_EQ(refusal_line(257, "openat", "/tmp/x\ny\\z\xc3\xa9"),
            "ptxbench-sandbox: refused system call 257 openat /tmp/x\\x0ay\\x5cz\\xc3\\xa9\n");
  auto back = parse_refusal(refusal_line(257, "openat", "/tmp/x\ny"));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->path, "/tmp/x\\x0ay");  // one line, whatever the path holds
  std::string longer(kShownPathBytes + 50, 'a');
  auto cut = parse_refusal(refusal_line(2, "open", longer));
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->path, std::string(kShownPathBytes, 'a') + "[...]");
  EXPECT_EQ(refusal_line(57, "fork"), "ptxbench-sandbox: refused system call 57 fork\n");
}

TEST(Refusal, LearningModeListsFileAccessesWithTheirPath) {
  auto calls = parse_would_refuse(
      "ptxbench-sandbox: would refuse 41 socket\n"
      "ptxbench-sandbox: would refuse 257 openat /etc/passwd\n");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0], (RefusedCall{41, "socket", ""}));
  EXPECT_EQ(calls[1], (RefusedCall{257, "openat", "/etc/passwd"}));
}

TEST(Refusal, ReadsAProcessEnd) {
  ProcessResult r;
  r.exit_code = kSandboxRefusalExit;
  r.stderr_text = "ptxbench-sandbox: refused system call 59 execve\n";
  EXPECT_EQ(refusal_of(r), (RefusedCall{59, "execve"}));

  ProcessResult silent;  // killed by the kernel: the reporter could not run
  silent.signal = SIGSYS;
  EXPECT_EQ(refusal_of(silent), (RefusedCall{-1, "unknown"}));

  ProcessResult file = r;
  file.stderr_text = "ptxbench-sandbox: refused system call 257 openat /etc/hostname\n";
  EXPECT_EQ(refusal_of(file), (RefusedCall{257, "openat", "/etc/hostname"}));

  // Exit 87 without the line (fd 2 closed before the refused call, or the process's own exit):
  // a refusal of an unknown call since 2026-12-06, never an ordinary crash that hides one.
  ProcessResult plain_87;
  plain_87.exit_code = kSandboxRefusalExit;
  EXPECT_EQ(refusal_of(plain_87), (RefusedCall{-1, "unknown"}));

  ProcessResult line_but_ok = r;  // a line on stderr does not make a success a refusal
  line_but_ok.exit_code = 0;
  EXPECT_FALSE(refusal_of(line_but_ok).has_value());
}

}  // namespace
}  // namespace ptxbench
