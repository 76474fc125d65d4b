#include "report/cost.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/fs.h"
#include "report/summary.h"
#include "store/turn_cost_test_util.h"

namespace ptxbench::report {
namespace {

const Json kLlm = {{"prompt_tokens", 1000}, {"completion_tokens", 400}, {"reasoning_tokens", 150},
                   {"latency_s", 2.0},      {"total_s", 3.5},           {"attempts", 2}};

// A turn's cost as store/turn_cost.h reads it (its test reads these numbers from stored parts).
const store::TurnCost kTurn = {.prompt_tokens = 1000,
                               .completion_tokens = 400,
                               .reasoning_tokens = 150,
                               .request_s = 3.5,
                               .compile_cpu_s = 4.25,
                               .gpu_s = 6.5};

// Issue 38 (EP12): totals of counts read from a file never overflow into a negative (a count
// that is no token count reads 0: store/turn_cost_test.cc).
TEST(CostSummary, TotalsSaturate) {
  CostSummary s;
  const Json most = {{"prompt_tokens", 1000000000000LL}, {"completion_tokens", 1000000000000LL}};
  for (int i = 0; i < 20; ++i) s.add(store::turn_cost(most, nullptr), false, false);
  EXPECT_EQ(s.total.prompt_tokens, 20 * 1000000000000L);
  s.total.prompt_tokens = std::numeric_limits<long>::max() - 1;
  s.add(store::turn_cost(most, nullptr), false, false);
  EXPECT_EQ(s.total.prompt_tokens, std::numeric_limits<long>::max());  // saturated
  EXPECT_EQ(s.tokens(), std::numeric_limits<long>::max());
  EXPECT_GE(to_json(s)["prompt_tokens"].get<long>(), 0);
}

TEST(CostSummary, PerCorrectAndPerCorrectWithArchKernel) {
  CostSummary s;
  store::TurnCost t = kTurn;
  s.add(t, /*correct=*/false, false);
  s.add(t, /*correct=*/true, false);  // correct without the target instructions
  s.add(t, /*correct=*/true, true);
  s.add(t, /*correct=*/false, true);  // not correct: not a kernel of either kind
  EXPECT_EQ(s.turns, 4);
  EXPECT_EQ(s.tokens(), 5600);
  EXPECT_EQ(s.correct_kernels, 2);
  EXPECT_EQ(s.arch_kernels, 1);
  EXPECT_DOUBLE_EQ(*s.per_correct(static_cast<double>(s.tokens())), 2800);
  EXPECT_DOUBLE_EQ(*s.per_arch(s.total.gpu_s), 26);
  EXPECT_FALSE(s.usd.has_value());
  s.price(Prices{0.5, 2.0});  // USD per million tokens
  EXPECT_DOUBLE_EQ(*s.usd, 4000 * 0.5 / 1e6 + 1600 * 2.0 / 1e6);
  Json j = to_json(s);
  EXPECT_DOUBLE_EQ(j["per_correct_with_arch_kernel"]["usd"].get<double>(), *s.usd);
  EXPECT_DOUBLE_EQ(j["per_correct_kernel"]["tokens"].get<double>(), 2800);
  EXPECT_EQ(j["reasoning_tokens"], 600);
}

TEST(CostSummary, NoKernelNoRatio) {
  CostSummary s;
  s.add(kTurn, false, false);
  Json j = to_json(s);
  EXPECT_TRUE(j["per_correct_kernel"]["tokens"].is_null());
  EXPECT_TRUE(j["per_correct_with_arch_kernel"]["gpu_seconds"].is_null());
  EXPECT_FALSE(j.contains("usd"));
}

// From a run file to the summary: every turn of every trajectory counts, a failed one's too.
TEST(CostSummary, FromAStoredRun) {
  auto dir = TempDir::create("cost_test");
  ASSERT_TRUE(dir.ok());
  auto st = store::RunStore::create(dir->path() / "r.db", Json::object(), Json::object());
  ASSERT_TRUE(st.ok()) << st.error().message;
  auto record = [&](std::int64_t id, int turn, bool correct, bool arch, const char* stop) {
    store::TurnEvent e;
    e.trajectory_id = id;
    e.assistant.content = "reply";
    e.turn.turn = turn;
    e.turn.category = correct ? (arch ? judge::Disposition::passed
                                      : judge::Disposition::passed_missing_instructions)
                              : judge::Disposition::incorrect;
    e.turn.correct = correct;
    e.turn.arch_executed = arch;
    e.turn.llm = kLlm;
    e.turn.compile = store::testing::judged_turn().compile_json();
    e.turn.eval = store::testing::judged_turn().eval_json();
    e.feedback_message = "fb";
    if (stop) e.stop_reason = stop;
    ASSERT_TRUE(st->record_turn(e).ok());
  };
  for (int sample : {0, 1}) {
    auto id = st->add_trajectory({"m", "gemm", "sm_90a", sample});
    ASSERT_TRUE(id.ok());
    ASSERT_TRUE(st->start_trajectory(*id, {0, 0, "system", "s", ""}, {1, 0, "user", "u", ""}).ok());
    record(*id, 1, false, false, nullptr);
    if (sample == 0) {
      record(*id, 2, true, true, "target_reached");
    } else {
      ASSERT_TRUE(
          st->finish_trajectory(*id, store::TrajectoryStatus::failed, "error: model: gone").ok());
    }
  }
  auto data = load_run(*st);
  ASSERT_TRUE(data.ok());
  Summary s = summarize(*data, Prices{1.0, std::nullopt});
  ASSERT_EQ(s.groups.size(), 2u);  // gemm, all
  const CostSummary& c = s.groups[0].cost;
  EXPECT_EQ(c.turns, 3);
  EXPECT_EQ(c.total.prompt_tokens, 3000);
  EXPECT_DOUBLE_EQ(c.total.gpu_s, 19.5);
  EXPECT_DOUBLE_EQ(c.total.compile_cpu_s, 12.75);
  EXPECT_EQ(c.correct_kernels, 1);
  EXPECT_EQ(c.arch_kernels, 1);
  EXPECT_DOUBLE_EQ(*c.usd, 3000 / 1e6);  // prompt tokens only: no completion price
  EXPECT_DOUBLE_EQ(to_json(s)["groups"][1]["cost"]["per_correct_kernel"]["gpu_seconds"], 19.5);
}

}  // namespace
}  // namespace ptxbench::report
