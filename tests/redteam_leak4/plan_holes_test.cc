// What a sound judge's session plan does about two controls of kernels/controls/leak4 (red team
// of 2026-12-06 against a5d01d9). The second fails today: tests/redteam_leak4/CMakeLists.txt
// registers it as an expected failure; the first passes since the loaded check's slot is drawn.
#include <gtest/gtest.h>

#include <set>

#include "eval/plan.h"
#include "eval/test_support.h"

namespace ptxbench::eval {
namespace {

// leak4/sched_check_slot0.cu: the loaded timed-workload check must not be told by its buffers.
// Sound: over many seeds its slot takes the values the timed checks beside it take (slots 0 and
// 1), not always 0.
TEST(Leak4, loaded_check_slot_drawn) {
  std::set<int> loaded_slots, other_slots;
  for (std::uint64_t seed = 1; seed < 200; ++seed) {
    auto plan = plan_session(testing::gemm_task(), 3, seed);
    ASSERT_TRUE(plan.ok());
    for (std::size_t i = 2; i < plan->checks.size(); ++i) {
      const PlannedCall& c = plan->checks[i];
      if (c.workload != 0) continue;
      (c.sm_load ? loaded_slots : other_slots).insert(c.slot);
    }
  }
  EXPECT_EQ(loaded_slots, other_slots)
      << "the loaded timed check's slot is always " << *loaded_slots.begin()
      << "; the other timed checks use " << other_slots.size() << " slots";
}

// leak4/sched_unsafe_after_recheck.cu: no call marks the end of the loaded checks. Sound: the
// timing phase's calls are loaded now and then (here: at least one timed call in 2000 drawn).
TEST(Leak4, timing_calls_sometimes_loaded) {
  auto plan = plan_session(testing::gemm_task(), 3, 7);
  ASSERT_TRUE(plan.ok());
  TimingDraw draw(*plan, 11);
  int loaded = 0;
  for (int i = 0; i < 500; ++i)  // as the timing phase draws its rounds (judge_session_timing.cc)
    for (const PlannedCall& c : draw.next_burst(true, kTimingBurst, false, draw.loaded_round()))
      loaded += c.sm_load ? 1 : 0;
  EXPECT_GT(loaded, 0) << "no timing call is ever run under another schedule";  // holds since
  // the loaded timing rounds (plan.h kLoadedTimingOdds); the rest below is still open.
  // And the last check is not always the ragged re-check (the only hidden M met twice).
  std::set<bool> last_is_hidden_recheck;
  for (std::uint64_t seed = 1; seed < 100; ++seed) {
    auto p = plan_session(testing::gemm_task(), 3, seed);
    ASSERT_TRUE(p.ok());
    last_is_hidden_recheck.insert(p->checks.back().workload != 0 && p->checks.back().sm_load);
  }
  EXPECT_EQ(last_is_hidden_recheck.size(), 2u)
      << "every session's last check is the ragged workload again, under the load";
}

}  // namespace
}  // namespace ptxbench::eval
