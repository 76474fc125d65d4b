#include "core/interrupt.h"

#include <gtest/gtest.h>
#include <time.h>

#include <csignal>
#include <cstdlib>

namespace ptxbench {
namespace {

// (The process runner's side, a child stopped with its group: subprocess_test.cc.)
TEST(Interrupt, ASignalWithinAScopeSetsTheFlagInsteadOfEndingTheProcess) {
  {
    InterruptScope scope;
    EXPECT_FALSE(interrupted());
    std::raise(SIGTERM);
    EXPECT_EQ(interrupt_signal(), SIGTERM);
    EXPECT_TRUE(interrupted());
    EXPECT_STREQ(interrupt_name(SIGTERM), "SIGTERM");
    EXPECT_EQ(interrupted_exit_code(SIGTERM), 143);
    EXPECT_EQ(interrupted_exit_code(SIGINT), 130);
  }
  EXPECT_FALSE(interrupted());  // the scope forgets the signal when it ends
}

// `timeout`/systemd: SIGTERM to the process, then to its group, at once: one request.
TEST(Interrupt, TheSameSignalTwiceAtOnceIsOneRequest) {
  InterruptScope scope;
  std::raise(SIGTERM);
  std::raise(SIGTERM);  // would end the process if taken as a second request
  EXPECT_EQ(interrupt_signal(), SIGTERM);
}

// Ctrl-C, then Ctrl-C again 1.2 s later, within one scope.
void press_ctrl_c_twice() {
  InterruptScope scope;
  std::raise(SIGINT);
  ::timespec pause{};
  pause.tv_sec = 1;
  pause.tv_nsec = 200000000;
  ::nanosleep(&pause, nullptr);
  std::raise(SIGINT);
  std::_Exit(0);  // not reached
}

// A second Ctrl-C, later, still ends the process at once (for a stage that does not notice).
TEST(Interrupt, ASecondSignalLaterEndsTheProcess) {
  EXPECT_EXIT(press_ctrl_c_twice(), ::testing::KilledBySignal(SIGINT), "");
}

TEST(Interrupt, ANewScopeStartsWithoutASignal) {
  {
    InterruptScope scope;
    std::raise(SIGINT);
    EXPECT_EQ(interrupt_signal(), SIGINT);
  }
  InterruptScope again;
  EXPECT_EQ(interrupt_signal(), 0);
}

}  // namespace
}  // namespace ptxbench
