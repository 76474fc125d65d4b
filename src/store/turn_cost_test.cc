#include "store/turn_cost.h"

#include <gtest/gtest.h>

#include "store/turn_cost_test_util.h"

namespace ptxbench::store {
namespace {

const Json kLlm = {{"prompt_tokens", 1000}, {"completion_tokens", 400}, {"reasoning_tokens", 150},
                   {"latency_s", 2.0},      {"total_s", 3.5},           {"attempts", 2}};
// The same report after the store: its stage parts written and read back (stored_turn.cc).
judge::JudgeReport stored(const judge::JudgeReport& r, bool drop_gpu_seconds = false) {
  Json eval = r.eval_json();
  if (drop_gpu_seconds) eval.erase("gpu_seconds");  // as runs stored before 2026-12-01
  auto back = judge::JudgeReport::from_stages(r.compile_json(), eval, r.audit_json());
  EXPECT_TRUE(back.ok()) << back.error().message;
  return back.ok() ? *back : judge::JudgeReport{};
}

TEST(TurnCost, ReadsWhatATurnStores) {
  const judge::JudgeReport r = stored(testing::judged_turn());
  TurnCost c = turn_cost(kLlm, &r);
  EXPECT_EQ(c.prompt_tokens, 1000);
  EXPECT_EQ(c.completion_tokens, 400);
  EXPECT_EQ(c.reasoning_tokens, 150);
  EXPECT_DOUBLE_EQ(c.request_s, 3.5);  // retries included
  EXPECT_DOUBLE_EQ(c.compile_cpu_s, 4.25);
  EXPECT_DOUBLE_EQ(c.gpu_s, 6.5);  // the GPU held, not only the session
}

TEST(TurnCost, ACacheHitSpentNoCompileTime) {
  const judge::JudgeReport r = stored(testing::judged_turn(/*cache_hit=*/true));
  EXPECT_EQ(turn_cost(kLlm, &r).compile_cpu_s, 0);
}

// Runs stored before 2026-12-01: latency for the request, the judging session's seconds for
// the GPU; an evaluation that did not run (no GPU) spent no GPU time.
TEST(TurnCost, OlderRunsAndSkippedStages) {
  Json old_llm = {{"prompt_tokens", 10}, {"completion_tokens", 5}, {"latency_s", 1.5}};
  judge::JudgeReport old = testing::judged_turn();
  old.eval.done()->outcome = Outcome::incorrect;
  old.eval.done()->seconds = 2.5;
  const judge::JudgeReport back = stored(old, /*drop_gpu_seconds=*/true);
  TurnCost c = turn_cost(old_llm, &back);
  EXPECT_EQ(c.reasoning_tokens, 0);
  EXPECT_DOUBLE_EQ(c.request_s, 1.5);
  EXPECT_DOUBLE_EQ(c.gpu_s, 2.5);
  judge::JudgeReport skipped = testing::judged_turn();
  skipped.eval = judge::Skipped{judge::SkipCause::no_gpu, "no GPU"};
  skipped.gpu_seconds = 0;
  const judge::JudgeReport skipped_back = stored(skipped);
  EXPECT_EQ(turn_cost(old_llm, &skipped_back).gpu_s, 0);
  EXPECT_DOUBLE_EQ(turn_cost(old_llm, &skipped_back).compile_cpu_s, 4.25);
  // A turn whose stages do not read as a report (damaged) or that had no code: nothing judged.
  TurnCost none = turn_cost(Json::object(), nullptr);
  EXPECT_EQ(none.prompt_tokens, 0);
  EXPECT_EQ(none.gpu_s, 0);
  EXPECT_EQ(turn_cost(Json{{"prompt_tokens", "many"}}, nullptr).prompt_tokens, 0);
}

// Issue 38 (EP12): a run file an older ptxbench wrote with a server's nonsense usage (-5, 1e30,
// 2.5) counts it as not reported (report/cost_test.cc: totals never overflow).
TEST(TurnCost, StoredUsageThatIsNoTokenCountCountsZero) {
  const Json bad = {{"prompt_tokens", -5}, {"completion_tokens", 1e30}, {"reasoning_tokens", 2.5}};
  TurnCost c = turn_cost(bad, nullptr);
  EXPECT_EQ(c.prompt_tokens, 0);
  EXPECT_EQ(c.completion_tokens, 0);
  EXPECT_EQ(c.reasoning_tokens, 0);
}

}  // namespace
}  // namespace ptxbench::store
