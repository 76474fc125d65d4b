#include "store/turn_cost.h"

#include <gtest/gtest.h>

#include <optional>

namespace ptxbench::store {
namespace {

const Json kLlm = {{"prompt_tokens", 1000}, {"completion_tokens", 400}, {"reasoning_tokens", 150},
                   {"latency_s", 2.0},      {"total_s", 3.5},           {"attempts", 2}};
const Json kBuilt = {{"outcome", "passed"}, {"cache_hit", false}, {"compiler_cpu_seconds", 4.25}};
const Json kJudged = {{"outcome", "passed"}, {"seconds", 5.0}, {"gpu_seconds", 6.5}};

// The turn's stages as the store reads them (stored_turn.cc stored_report), or null when they do
// not read as a report.
struct Stages {
  std::optional<judge::JudgeReport> report;
  Stages(const Json& compile, const Json& eval) {
    if (auto r = judge::JudgeReport::from_stages(compile, eval, Json()); r.ok()) report = *r;
  }
  const judge::JudgeReport* get() const { return report ? &*report : nullptr; }
};

TurnCost cost(const Json& llm, const Json& compile, const Json& eval) {
  return turn_cost(llm, Stages(compile, eval).get());
}

TEST(TurnCost, ReadsWhatATurnStores) {
  TurnCost c = cost(kLlm, kBuilt, kJudged);
  EXPECT_EQ(c.prompt_tokens, 1000);
  EXPECT_EQ(c.completion_tokens, 400);
  EXPECT_EQ(c.reasoning_tokens, 150);
  EXPECT_DOUBLE_EQ(c.request_s, 3.5);  // retries included
  EXPECT_DOUBLE_EQ(c.compile_cpu_s, 4.25);
  EXPECT_DOUBLE_EQ(c.gpu_s, 6.5);  // the GPU held, not only the session
}

TEST(TurnCost, ACacheHitSpentNoCompileTime) {
  Json hit = kBuilt;
  hit["cache_hit"] = true;
  EXPECT_EQ(cost(kLlm, hit, kJudged).compile_cpu_s, 0);
}

// Runs stored before 2026-12-01: latency for the request, the judging session's seconds for
// the GPU; an evaluation that did not run (no GPU) spent no GPU time.
TEST(TurnCost, OlderRunsAndSkippedStages) {
  Json old_llm = {{"prompt_tokens", 10}, {"completion_tokens", 5}, {"latency_s", 1.5}};
  Json old_eval = {{"outcome", "incorrect"}, {"seconds", 2.5}};
  TurnCost c = cost(old_llm, Json{{"outcome", "passed"}, {"cache_hit", false}}, old_eval);
  EXPECT_EQ(c.reasoning_tokens, 0);
  EXPECT_DOUBLE_EQ(c.request_s, 1.5);
  EXPECT_EQ(c.compile_cpu_s, 0);
  EXPECT_DOUBLE_EQ(c.gpu_s, 2.5);
  Json skipped = {{"outcome", "not_run"}, {"reason", "no GPU"}};
  EXPECT_EQ(cost(old_llm, nullptr, skipped).gpu_s, 0);
  // A part that does not read as its stage (damaged) is a report that says nothing: no cost.
  EXPECT_EQ(cost(old_llm, nullptr, Json{{"outcome", 3}, {"seconds", 1.5}}).gpu_s, 0);
  TurnCost none = turn_cost(Json::object(), nullptr);  // no code: nothing judged
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
