#include "eval/worker/host_link.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace ptxbench::eval::worker {
namespace {
namespace host = ptxbench::eval::host;
using Clock = std::chrono::steady_clock;

struct Pipes {
  int to_broker[2], to_host[2];
  Pipes() {
    EXPECT_EQ(::pipe(to_broker), 0);
    EXPECT_EQ(::pipe(to_host), 0);
  }
  ~Pipes() {
    for (int fd : {to_broker[0], to_broker[1], to_host[0], to_host[1]})
      if (fd >= 0) ::close(fd);
  }
  void host_writes(const std::string& bytes) {
    ASSERT_EQ(::write(to_broker[1], bytes.data(), bytes.size()),
              static_cast<ssize_t>(bytes.size()));
  }
  void host_ends() {
    ::close(to_broker[1]);
    to_broker[1] = -1;
  }
};

Clock::time_point soon() {
  return Clock::now() + std::chrono::milliseconds(200);
}

TEST(PipeHostLink, ReadsFramesInOrderAndSendsWholeFrames) {
  Pipes p;
  PipeHostLink link(p.to_broker[0], p.to_host[1]);
  const std::string done = host::encode_frame(host::MsgType::call_done, "");
  p.host_writes(done.substr(0, 5));
  EXPECT_EQ(link.read(soon()).kind, HostRead::Kind::timed_out);  // half a frame: not yet
  p.host_writes(done.substr(5) + host::encode_frame(host::MsgType::ready, ""));
  HostRead a = link.read(soon()), b = link.read(soon());
  ASSERT_EQ(a.kind, HostRead::Kind::frame);
  EXPECT_EQ(a.frame.type, host::MsgType::call_done);
  ASSERT_EQ(b.kind, HostRead::Kind::frame);
  EXPECT_EQ(b.frame.type, host::MsgType::ready);
  EXPECT_FALSE(link.has_unread());
  ASSERT_TRUE(link.send(host::MsgType::quit, ""));
  char buf[64];
  EXPECT_EQ(::read(p.to_host[0], buf, sizeof buf), static_cast<ssize_t>(host::kHeaderBytes));
}

TEST(PipeHostLink, GarbageEndAndUnreadBytesAreReported) {
  Pipes p;
  PipeHostLink link(p.to_broker[0], p.to_host[1]);
  p.host_writes("{\"ok\":false,\"status\":\"harness_error\"}\n");
  HostRead r = link.read(soon());
  EXPECT_EQ(r.kind, HostRead::Kind::garbled);
  EXPECT_NE(r.why.find("magic"), std::string::npos);

  Pipes q;
  PipeHostLink other(q.to_broker[0], q.to_host[1]);
  q.host_writes(host::encode_frame(host::MsgType::launch, host::encode(host::Launch{})));
  EXPECT_TRUE(other.has_unread());  // sent out of turn
  (void)other.read(soon());
  q.host_ends();
  HostRead end = other.read(soon());
  EXPECT_EQ(end.kind, HostRead::Kind::ended);
  EXPECT_NE(end.why.find("ended"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::eval::worker
