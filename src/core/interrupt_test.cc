#include "core/interrupt.h"

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include "core/subprocess.h"

namespace ptxbench {
namespace {

TEST(Interrupt, ASignalSetsTheFlagInsteadOfEndingTheProcess) {
  install_interrupt_handlers();
  clear_interrupt_for_testing();
  EXPECT_FALSE(interrupted());
  std::raise(SIGTERM);
  EXPECT_EQ(interrupt_signal(), SIGTERM);
  EXPECT_EQ(interrupted_exit_code(SIGTERM), 143);
  clear_interrupt_for_testing();
}

TEST(Interrupt, ARunningSubprocessIsKilledWithItsGroup) {
  install_interrupt_handlers();
  clear_interrupt_for_testing();
  std::thread later([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::raise(SIGINT);
  });
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "sleep 30 & sleep 30"};
  spec.limits.wall = std::chrono::seconds(20);
  auto start = std::chrono::steady_clock::now();
  auto r = runner.run(spec);
  later.join();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->interrupted);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  clear_interrupt_for_testing();
}

}  // namespace
}  // namespace ptxbench
