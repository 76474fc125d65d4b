#include "core/command_channel.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <string>

namespace ptxbench {
namespace {

// Two pipes standing in for ChildProcess: the test writes commands into `commands` and
// reads replies from `replies`.
struct Pipes {
  int commands[2];
  int replies[2];
  Pipes() {
    EXPECT_EQ(::pipe(commands), 0);
    EXPECT_EQ(::pipe(replies), 0);
  }
  ~Pipes() {
    for (int fd : {commands[0], commands[1], replies[0], replies[1]})
      if (fd >= 0) ::close(fd);
  }
  void send(const std::string& s) {
    ASSERT_EQ(::write(commands[1], s.data(), s.size()), static_cast<ssize_t>(s.size()));
  }
  void close_commands() { ::close(commands[1]), commands[1] = -1; }
  std::string read_replies() {
    char buf[256];
    ssize_t n = ::read(replies[0], buf, sizeof buf);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
  }
};

TEST(CommandChannel, ReadsLinesUntilEndOfFile) {
  Pipes p;
  auto ch = CommandChannel::from_fds(p.commands[0], p.replies[1]);
  ASSERT_TRUE(ch.ok());
  p.send("first\nsecond\n\nthird");  // the unterminated last line is dropped
  p.close_commands();
  for (std::string want : {"first", "second", ""}) {
    auto line = ch->next_line();
    ASSERT_TRUE(line.ok());
    ASSERT_TRUE(line->has_value());
    EXPECT_EQ(**line, want);
  }
  auto end = ch->next_line();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

TEST(CommandChannel, RepliesWholeLines) {
  Pipes p;
  auto ch = CommandChannel::from_fds(p.commands[0], p.replies[1]);
  ASSERT_TRUE(ch.ok());
  ASSERT_TRUE(ch->reply(R"({"ok":true})").ok());
  EXPECT_EQ(p.read_replies(), "{\"ok\":true}\n");
  EXPECT_FALSE(ch->reply("two\nlines").ok());
}

TEST(CommandChannel, MarksItsDescriptorsCloseOnExec) {
  Pipes p;
  ASSERT_TRUE(CommandChannel::from_fds(p.commands[0], p.replies[1]).ok());
  EXPECT_TRUE(::fcntl(p.commands[0], F_GETFD) & FD_CLOEXEC);
  EXPECT_TRUE(::fcntl(p.replies[1], F_GETFD) & FD_CLOEXEC);
}

TEST(CommandChannel, OverlongCommandIsAnError) {
  Pipes p;
  auto ch = CommandChannel::from_fds(p.commands[0], p.replies[1]);
  ASSERT_TRUE(ch.ok());
  p.send(std::string(100, 'x') + "\n");
  EXPECT_FALSE(ch->next_line(50).ok());
}

TEST(CommandChannel, ParentGoneIsAnErrorNotSigpipe) {
  auto old = ::signal(SIGPIPE, SIG_DFL);  // a SIGPIPE would end this test program
  Pipes p;
  auto ch = CommandChannel::from_fds(p.commands[0], p.replies[1]);
  ASSERT_TRUE(ch.ok());
  ::close(p.replies[0]), p.replies[0] = -1;
  EXPECT_FALSE(ch->reply("anyone?").ok());
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE));
  ::signal(SIGPIPE, old);
}

TEST(CommandChannel, MissingDescriptorsAreAnError) {
  auto ch = CommandChannel::from_fds(900, 901);
  ASSERT_FALSE(ch.ok());
  EXPECT_NE(ch.error().message.find("not open"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench
