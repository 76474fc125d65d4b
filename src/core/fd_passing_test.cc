#include "core/fd_passing.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace ptxbench {
namespace {

using std::chrono::milliseconds;

// A pipe whose write end is sent: what the receiver writes through its copy comes out here.
std::string through_copy(const OwnedFd& copy, const std::string& text, int read_end) {
  EXPECT_EQ(::write(copy.get(), text.data(), text.size()), static_cast<ssize_t>(text.size()));
  std::string got(text.size(), '\0');
  EXPECT_EQ(::read(read_end, got.data(), got.size()), static_cast<ssize_t>(got.size()));
  return got;
}

TEST(FdPassing, DescriptorsArriveInOrderAcrossBatches) {
  auto pair = descriptor_socket_pair();
  ASSERT_TRUE(pair.ok()) << pair.error().to_string();
  const std::size_t n = kFdsPerMessage * 2 + 3;  // three messages
  std::vector<int> read_ends, write_ends;
  for (std::size_t i = 0; i < n; ++i) {
    int p[2];
    ASSERT_EQ(::pipe(p), 0);
    read_ends.push_back(p[0]);
    write_ends.push_back(p[1]);
  }
  ASSERT_TRUE(send_descriptors(pair->first.get(), write_ends).ok());
  auto got = receive_descriptors(pair->second.get(), n, milliseconds(1000));
  ASSERT_TRUE(got.ok()) << got.error().to_string();
  ASSERT_EQ(got->size(), n);
  for (std::size_t i = 0; i < n; i += 37)
    EXPECT_EQ(through_copy((*got)[i], "x" + std::to_string(i), read_ends[i]),
              "x" + std::to_string(i));
  for (int fd : read_ends) ::close(fd);
  for (int fd : write_ends) ::close(fd);
}

TEST(FdPassing, ReceivedCopiesAreCloseOnExec) {
  auto pair = descriptor_socket_pair();
  ASSERT_TRUE(pair.ok());
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  ASSERT_TRUE(send_descriptors(pair->first.get(), {p[1]}).ok());
  auto got = receive_descriptors(pair->second.get(), 1, milliseconds(1000));
  ASSERT_TRUE(got.ok());
  EXPECT_NE(::fcntl((*got)[0].get(), F_GETFD) & FD_CLOEXEC, 0);
  ::close(p[0]);
  ::close(p[1]);
}

TEST(FdPassing, NothingSentIsATimeoutNotAHang) {
  auto pair = descriptor_socket_pair();
  ASSERT_TRUE(pair.ok());
  auto got = receive_descriptors(pair->second.get(), 1, milliseconds(50));
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("in time"), std::string::npos);
}

TEST(FdPassing, AGoneSenderAndAStrayByteAreErrors) {
  auto pair = descriptor_socket_pair();
  ASSERT_TRUE(pair.ok());
  const char stray = 1;  // a byte that claims one descriptor and carries none
  ASSERT_EQ(::send(pair->first.get(), &stray, 1, 0), 1);
  auto got = receive_descriptors(pair->second.get(), 1, milliseconds(1000));
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("without its descriptors"), std::string::npos);
  pair->first.reset();
  got = receive_descriptors(pair->second.get(), 1, milliseconds(1000));
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("gone"), std::string::npos);
}

TEST(FdPassing, ADescriptorClosesWhenItDies) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  { OwnedFd d(p[1]); }
  char c;
  EXPECT_EQ(::read(p[0], &c, 1), 0);  // the only write end is closed: end of file
  ::close(p[0]);
}

}  // namespace
}  // namespace ptxbench

namespace ptxbench {
namespace {

TEST(FdPassing, DrainClosesWhatWaitsAndNeverBlocks) {
  auto pair = descriptor_socket_pair();
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(drain_descriptors(pair->second.get()), 0u);  // nothing waits: returns at once
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  ASSERT_TRUE(send_descriptors(pair->first.get(), {p[1], p[1], p[1]}).ok());
  ::close(p[1]);
  EXPECT_EQ(drain_descriptors(pair->second.get()), 3u);
  char c;
  EXPECT_EQ(::read(p[0], &c, 1), 0);  // every copy of the write end is closed
  ::close(p[0]);
  ASSERT_TRUE(send_descriptors(pair->first.get(), {p[0] = ::dup(0)}).ok());
  ::close(p[0]);
  auto got = receive_descriptors(pair->second.get(), 1, std::chrono::milliseconds(1000));
  EXPECT_TRUE(got.ok());  // what comes after a drain is read as usual
}

}  // namespace
}  // namespace ptxbench
