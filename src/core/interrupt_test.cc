#include "core/interrupt.h"

#include <gtest/gtest.h>

#include <csignal>

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
