#include "core/line_io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

namespace ptxbench {
namespace {

TEST(LineBuffer, SplitsReadsIntoLines) {
  int fd[2];
  ASSERT_EQ(::pipe(fd), 0);
  LineBuffer b;
  EXPECT_EQ(b.next(), std::nullopt);  // before any read
  ASSERT_EQ(::write(fd[1], "ab\ncd", 5), 5);
  ASSERT_EQ(b.fill(fd[0]), 5);
  EXPECT_EQ(b.next(), "ab");
  EXPECT_EQ(b.next(), std::nullopt);
  EXPECT_EQ(b.pending(), 2u);
  ASSERT_EQ(::write(fd[1], "e\n\nf\n", 5), 5);
  ASSERT_EQ(b.fill(fd[0]), 5);
  EXPECT_EQ(b.next(), "cde");
  EXPECT_EQ(b.next(), "");
  EXPECT_EQ(b.next(), "f");
  EXPECT_EQ(b.next(), std::nullopt);
  EXPECT_EQ(b.pending(), 0u);
  ::close(fd[1]);
  EXPECT_EQ(b.fill(fd[0]), 0);
  ::close(fd[0]);
}

TEST(LineBuffer, HandlesLinesLongerThanOneRead) {
  int fd[2];
  ASSERT_EQ(::pipe(fd), 0);
  std::string big(1 << 20, 'z');
  std::thread writer([&] {
    EXPECT_TRUE(write_all(fd[1], big + "\nshort\n").ok());
    ::close(fd[1]);
  });
  LineBuffer b;
  std::vector<std::string> lines;
  while (b.fill(fd[0]) > 0)
    while (auto l = b.next()) lines.push_back(*l);
  writer.join();
  ::close(fd[0]);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], big);
  EXPECT_EQ(lines[1], "short");
}

TEST(WriteAll, NonBlockingFullPipeFailsAtTheDeadline) {
  int fd[2];
  ASSERT_EQ(::pipe2(fd, O_NONBLOCK), 0);
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  Status s = write_all(fd[1], std::string(1 << 20, 'x'), until);
  EXPECT_FALSE(s.ok());
  EXPECT_GE(std::chrono::steady_clock::now(), until);
  ::close(fd[0]), ::close(fd[1]);
}

TEST(CheckOneLine, RejectsNewlines) {
  EXPECT_TRUE(check_one_line("{}", "x").ok());
  EXPECT_FALSE(check_one_line("a\nb", "x").ok());
}

}  // namespace
}  // namespace ptxbench
