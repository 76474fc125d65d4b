#include "core/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace ptxbench {
namespace {

TEST(ParallelFor, CallsEveryIndexExactlyOnce) {
  std::vector<std::atomic<int>> calls(100);
  parallel_for(4, calls.size(), [&](std::size_t i) { ++calls[i]; });
  for (const auto& c : calls) EXPECT_EQ(c.load(), 1);
}

TEST(ParallelFor, UsesAtMostConcurrencyThreadsIncludingTheCaller) {
  std::mutex mu;
  std::set<std::thread::id> seen;
  parallel_for(3, 60, [&](std::size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::lock_guard lock(mu);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_LE(seen.size(), 3u);
  const auto caller = std::this_thread::get_id();
  parallel_for(1, 5, [&](std::size_t) { EXPECT_EQ(std::this_thread::get_id(), caller); });
}

TEST(ParallelFor, NothingToDoAndNonPositiveConcurrency) {
  int calls = 0;
  parallel_for(8, 0, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  parallel_for(0, 3, [&](std::size_t) { ++calls; });  // still runs, on the calling thread
  EXPECT_EQ(calls, 3);
}

}  // namespace
}  // namespace ptxbench
