#include "eval/verifier_host.h"

#include <gtest/gtest.h>

#include <thread>

namespace ptxbench::eval {
namespace {

// A verifier process that records what it was told.
struct Told {
  std::vector<std::string> ops;
  bool finished = false;
};

class FakeVerifier : public WorkerProcess {
 public:
  explicit FakeVerifier(Told& t) : t_(t) {}
  Status send(const Json& c) override {
    t_.ops.push_back(c.value("op", ""));
    return {};
  }
  Received receive(std::chrono::milliseconds) override {
    return {std::nullopt, ReceiveFailure::closed, "closed"};
  }
  ProcessResult finish(std::chrono::milliseconds) override {
    t_.finished = true;
    return {};
  }

 private:
  Told& t_;
};

WarmVerifier warm(
    Told& t, int sessions,
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now()) {
  WarmVerifier v;
  v.process = std::make_unique<FakeVerifier>(t);
  v.started = started;
  v.sessions = sessions;
  return v;
}

TEST(VerifierHost, KeepsOneWarmVerifierPerGpu) {
  Told a, b, c;
  VerifierHost host;
  EXPECT_FALSE(host.take(0).has_value());
  host.give_back(0, warm(a, 1));
  host.give_back(1, warm(b, 1));
  host.give_back(0, warm(c, 1));  // GPU 0 has one: this one is quit
  EXPECT_EQ(host.warm(), 2u);
  EXPECT_EQ(host.retired(), 1);
  EXPECT_EQ(c.ops, std::vector<std::string>{"quit"});
  EXPECT_TRUE(c.finished);
  auto got = host.take(0);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->sessions, 1);
  EXPECT_FALSE(host.take(0).has_value());  // taken: in use by one session only
  EXPECT_TRUE(a.ops.empty());
}

TEST(VerifierHost, RetiresAnOldOrWellUsedVerifier) {
  Told used, old, fresh;
  {
    VerifierHost host;
    host.give_back(0, warm(used, VerifierHost::kMaxSessions));
    host.give_back(1, warm(old, 1, std::chrono::steady_clock::now() - VerifierHost::kMaxAge));
    EXPECT_EQ(host.warm(), 0u);
    EXPECT_EQ(host.retired(), 2);
    EXPECT_TRUE(used.finished);
    EXPECT_TRUE(old.finished);
    host.give_back(2, warm(fresh, 3));
    EXPECT_EQ(host.warm(), 1u);
    EXPECT_FALSE(fresh.finished);
  }  // the host quits what it keeps
  EXPECT_EQ(fresh.ops, std::vector<std::string>{"quit"});
  EXPECT_TRUE(fresh.finished);
  // A retirement well before the process's own wall-clock limit.
  EXPECT_LT(std::chrono::duration_cast<std::chrono::hours>(VerifierHost::kMaxAge * 2),
            VerifierHost::kHostedVerifierWall);
}

// Age counts while a verifier waits in the host too (a run can wait long for its model).
TEST(VerifierHost, DoesNotHandOutAVerifierThatAgedWhileItWaited) {
  Told t;
  VerifierHost host;
  host.give_back(0, warm(t, 1,
                         std::chrono::steady_clock::now() - VerifierHost::kMaxAge +
                             std::chrono::milliseconds(50)));
  EXPECT_EQ(host.warm(), 1u);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(host.take(0).has_value());
  EXPECT_EQ(t.ops, std::vector<std::string>{"quit"});
  EXPECT_EQ(host.retired(), 1);
}

}  // namespace
}  // namespace ptxbench::eval
