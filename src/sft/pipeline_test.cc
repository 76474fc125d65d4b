// The export pipeline on synthetic run stores: pairing, every filter, dedup, the
// token limit, balancing, the held-out split, kernelgen and the coverage counts.
#include "sft/pipeline.h"

#include <gtest/gtest.h>

#include "core/fs.h"
#include "sft/testing/synthetic_store.h"

namespace ptxbench::sft {
namespace {

using testing::SyntheticStore;
using testing::T;

struct PipelineTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("sft_pipeline");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
    store = std::make_unique<SyntheticStore>(dir->path() / "run.db");
  }
  Dataset build(const Options& o) {
    store.reset();  // close the writer
    auto c = load_corpus({dir->path() / "run.db"});
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().to_string());
    return build_dataset(*c, o);
  }
  static Options opts() {
    Options o;
    o.per_task_cap = 0;
    return o;
  }
  std::unique_ptr<TempDir> dir;
  std::unique_ptr<SyntheticStore> store;
};

TEST_F(PipelineTest, RowIsTheFiveMessagesTheModelSaw) {
  store->add("gemm", 0,
             {T{"compile_error"}, T{"incorrect"}, T{"passed", true, 1.1, {}, "", "why it works"}});
  Dataset d = build(opts());
  ASSERT_EQ(d.train.size(), 1u);  // Pairing::one: the repair appears once, from turn 2
  const Example& x = d.train[0];
  EXPECT_EQ(x.category, "incorrect");
  EXPECT_EQ(x.turn, 2);
  EXPECT_EQ(x.repair_turn, 3);
  ASSERT_EQ(x.messages.size(), 5u);
  EXPECT_EQ(x.messages[0].role, "system");
  EXPECT_EQ(x.messages[0].content, "SYSTEM PROMPT");
  EXPECT_EQ(x.messages[1].role, "user");
  EXPECT_EQ(x.messages[1].content, "TASK gemm");
  EXPECT_EQ(x.messages[2].role, "assistant");
  EXPECT_EQ(x.messages[2].content, SyntheticStore::reply(testing::kernel_for("gemm", 0, 2)));
  EXPECT_EQ(x.messages[2].weight, 0);
  EXPECT_EQ(x.messages[3].role, "user");
  EXPECT_EQ(x.messages[3].content, SyntheticStore::feedback("gemm", 0, 2, "incorrect"));
  EXPECT_FALSE(x.messages[3].weight.has_value());
  EXPECT_EQ(x.messages[4].role, "assistant");
  EXPECT_EQ(x.messages[4].content, "<think>\nwhy it works\n</think>\n\n" +
                                       SyntheticStore::reply(testing::kernel_for("gemm", 0, 3)));
  EXPECT_EQ(x.messages[4].weight, 1);
  EXPECT_EQ(x.speedup, 1.1);
}

TEST_F(PipelineTest, PairingAllKeepsEveryFailingTurn) {
  store->add("gemm", 0, {T{"compile_error"}, T{"incorrect"}, T{"passed"}});
  Options o = opts();
  o.pairing = Pairing::all;
  Dataset d = build(o);
  ASSERT_EQ(d.train.size(), 2u);
  EXPECT_EQ(d.train[0].turn, 1);
  EXPECT_EQ(d.train[1].turn, 2);
  EXPECT_EQ(d.train[0].repair_turn, 3);
}

TEST_F(PipelineTest, ReasoningCanBeLeftOut) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed", true, {}, {}, "", "thoughts"}});
  Options o = opts();
  o.include_reasoning = false;
  Dataset d = build(o);
  ASSERT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.train[0].messages[4].content,
            SyntheticStore::reply(testing::kernel_for("gemm", 0, 2)));
}

TEST_F(PipelineTest, FlaggedRepairsAreDroppedUnlessAllowed) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed", true, {}, {"side_stream"}}});
  store->add("gemm", 1, {T{"timeout"}, T{"passed", true, {}, {"cached_result"}}, T{"passed"}});
  Dataset d = build(opts());
  ASSERT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.train[0].category, "timeout");
  EXPECT_EQ(d.train[0].repair_turn, 3);  // the first clean repair
  EXPECT_EQ(d.dropped["repair_guard_flagged"], 1);
}

TEST_F(PipelineTest, MeasurementNotesDoNotDropARepair) {
  // "throttled" and "timing_unstable" describe the measurement, not the kernel (on the H200
  // the reference kernels carried them and were wrongly dropped, 2026-11-29).
  store->add("gemm", 0,
             {T{"compile_error"}, T{"passed", true, {}, {"throttled", "timing_unstable"}}});
  Dataset d = build(opts());
  EXPECT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.dropped["repair_guard_flagged"], 0);
}

TEST_F(PipelineTest, AllowedFlagsKeepTheRepair) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed", true, {}, {"side_stream"}}});
  Options o = opts();
  o.allowed_flags = {"side_stream"};
  EXPECT_EQ(build(o).train.size(), 1u);
}

TEST_F(PipelineTest, RepairsWithoutTargetInstructionsAreDropped) {
  store->add("gemm", 0, {T{"incorrect"}, T{"passed_missing_instructions"}});
  store->add("gemm", 1, {T{"runtime_error"}, T{"passed_missing_instructions"}, T{"passed"}});
  Dataset d = build(opts());
  EXPECT_EQ(d.dropped["repair_missing_instructions"], 1);
  ASSERT_EQ(d.train.size(), 1u);  // sample 1: turn 2 (missing instructions) repaired by turn 3
  EXPECT_EQ(d.train[0].category, "passed_missing_instructions");
  EXPECT_EQ(d.train[0].turn, 2);
}

TEST_F(PipelineTest, MissingInstructionsAllowedWhenAsked) {
  store->add("gemm", 0, {T{"incorrect"}, T{"passed_missing_instructions"}});
  Options o = opts();
  o.require_arch = false;
  o.categories = {"incorrect"};
  Dataset d = build(o);
  ASSERT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.train[0].repair_turn, 2);
}

TEST_F(PipelineTest, SpeedupFloor) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed", true, 0.3}});
  store->add("gemm", 1, {T{"compile_error"}, T{"passed", true, 0.6}});
  Options o = opts();
  o.min_speedup = 0.5;
  Dataset d = build(o);
  ASSERT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.train[0].speedup, 0.6);
  EXPECT_EQ(d.dropped["repair_below_speedup_floor"], 1);
}

TEST_F(PipelineTest, NoRepairNoRow) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed"}, T{"runtime_error"}});
  Dataset d = build(opts());
  EXPECT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.dropped["no_repair"], 1);  // the failure after the last success
}

TEST_F(PipelineTest, CategoriesSelectFailures) {
  store->add("gemm", 0, {T{"no_code"}, T{"passed"}});
  store->add("gemm", 1, {T{"harness_error"}, T{"passed"}});
  EXPECT_EQ(build(opts()).train.size(), 0u);  // no_code is off by default; harness_error always
  store = std::make_unique<SyntheticStore>(dir->path() / "run2.db");
  store->add("gemm", 0, {T{"no_code"}, T{"passed"}});
  store.reset();
  Options o = opts();
  o.categories = {"no_code"};
  auto c = load_corpus({dir->path() / "run2.db"});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(build_dataset(*c, o).train.size(), 1u);
}

TEST_F(PipelineTest, DedupByNormalisedSource) {
  const std::string wrong = "__global__ void k(float* x) {\n  x[0] = 1;\n}";
  const std::string wrong_cosmetic = "// v2\n__global__ void k(float *x) { x[0]=1; }";
  const std::string fixed = "__global__ void k(float* x) { x[0] = 2; }";
  store->add("gemm", 0, {T{"incorrect", true, {}, {}, wrong}, T{"passed", true, {}, {}, fixed}});
  store->add(
      "gemm", 1,
      {T{"incorrect", true, {}, {}, wrong_cosmetic}, T{"passed", true, {}, {}, fixed + "  "}});
  store->add(
      "gemm", 2,
      {T{"incorrect", true, {}, {}, wrong}, T{"passed", true, {}, {}, "__global__ void k() {}"}});
  Dataset d = build(opts());
  EXPECT_EQ(d.train.size(), 2u);
  EXPECT_EQ(d.dropped["duplicate"], 1);
  EXPECT_EQ(d.coverage.total("repairable"), 3);
  EXPECT_EQ(d.coverage.total("deduplicated"), 2);
}

TEST_F(PipelineTest, TokenLimit) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed", true, {}, {}, std::string(3000, 'x')}});
  store->add("gemm", 1, {T{"compile_error"}, T{"passed"}});
  Options o = opts();
  o.max_tokens = 500;  // the 3000-byte kernel alone estimates to 1000 tokens
  Dataset d = build(o);
  ASSERT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.dropped["too_long"], 1);
  EXPECT_LE(d.train[0].tokens, 500u);
  EXPECT_GT(d.train[0].tokens, 5 * kMessageOverheadTokens);
}

TEST_F(PipelineTest, BalancingCapsEachTaskAcrossStrata) {
  for (int s = 0; s < 12; ++s) store->add("gemm", s, {T{"compile_error"}, T{"passed"}});
  for (int s = 12; s < 15; ++s)
    store->add("gemm", s, {T{"runtime_error"}, T{"runtime_error"}, T{"passed"}});
  for (int s = 0; s < 2; ++s) store->add("mha", s, {T{"timeout"}, T{"passed"}});
  Options o = opts();
  o.per_task_cap = 6;
  o.pairing = Pairing::all;
  Dataset d = build(o);
  EXPECT_EQ(d.coverage.total("within_length"), 12 + 6 + 2);
  EXPECT_EQ(d.coverage.total("balanced"), 6 + 2);
  EXPECT_EQ(d.coverage.at("balanced", {"gemm", "compile_error", 1}), 2);
  EXPECT_EQ(d.coverage.at("balanced", {"gemm", "runtime_error", 1}), 2);
  EXPECT_EQ(d.coverage.at("balanced", {"gemm", "runtime_error", 2}), 2);
  EXPECT_EQ(d.coverage.at("balanced", {"mha", "timeout", 1}), 2);
  EXPECT_EQ(d.dropped["over_task_cap"], 12);
}

TEST_F(PipelineTest, BalancingRunsBeforePairing) {
  // Two failures share one repair: the cap counts failing turns, then pairing keeps one.
  store->add("gemm", 0, {T{"compile_error"}, T{"runtime_error"}, T{"passed"}});
  Options o = opts();
  o.per_task_cap = 2;
  Dataset d = build(o);
  EXPECT_EQ(d.coverage.total("balanced"), 2);
  EXPECT_EQ(d.coverage.total("rows"), 1);
  EXPECT_EQ(d.dropped["same_repair"], 1);
}

TEST_F(PipelineTest, HeldOutTasksGoToTheirOwnSplit) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed"}});
  store->add("mha", 0, {T{"compile_error"}, T{"passed"}});
  store->add("mha", 1, {T{"timeout"}, T{"passed"}});
  Options o = opts();
  o.heldout_tasks = {"mha", "not_a_task"};
  Dataset d = build(o);
  ASSERT_EQ(d.train.size(), 1u);
  EXPECT_EQ(d.train[0].task, "gemm");
  ASSERT_EQ(d.heldout.size(), 2u);
  for (const auto& x : d.heldout) EXPECT_EQ(x.task, "mha");
  EXPECT_EQ(d.heldout_tasks_absent, std::vector<std::string>{"not_a_task"});
  EXPECT_EQ(d.coverage.total("train"), 1);
  EXPECT_EQ(d.coverage.total("heldout"), 2);
}

TEST_F(PipelineTest, CoverageCountsEveryStage) {
  store->add("gemm", 0, {T{"compile_error"}, T{"compile_error"}, T{"passed"}, T{"incorrect"}});
  Dataset d = build(opts());
  const std::vector<std::string> stages = {"failing",       "repairable", "deduplicated",
                                           "within_length", "balanced",   "rows",
                                           "train",         "heldout"};
  EXPECT_EQ(d.coverage.stages(), stages);
  EXPECT_EQ(d.coverage.at("failing", {"gemm", "compile_error", 1}), 1);
  EXPECT_EQ(d.coverage.at("failing", {"gemm", "compile_error", 2}), 1);
  EXPECT_EQ(d.coverage.at("failing", {"gemm", "incorrect", 4}), 1);
  EXPECT_EQ(d.coverage.at("repairable", {"gemm", "incorrect", 4}), 0);
  EXPECT_EQ(d.coverage.total("repairable"), 2);
  EXPECT_EQ(d.coverage.at("rows", {"gemm", "compile_error", 2}), 1);
  EXPECT_EQ(d.coverage.total("rows"), 1);
}

TEST_F(PipelineTest, KernelgenExportsCorrectExecutingTurns) {
  store->add("gemm", 0, {T{"compile_error"}, T{"passed"}, T{"passed", true, 1.3}});
  store->add("gemm", 1, {T{"passed_missing_instructions"}, T{"passed", true, {}, {"side_stream"}}});
  store->add("gemm", 2,
             {T{"passed", true, {}, {}, testing::kernel_for("gemm", 0, 2)}});  // duplicate kernel
  Options o = opts();
  o.mode = Mode::kernelgen;
  Dataset d = build(o);
  ASSERT_EQ(d.train.size(), 2u);
  for (const auto& x : d.train) {
    ASSERT_EQ(x.messages.size(), 3u);
    EXPECT_EQ(x.messages[0].role, "system");
    EXPECT_EQ(x.messages[1].content, "TASK gemm");
    EXPECT_EQ(x.messages[2].role, "assistant");
    EXPECT_EQ(x.messages[2].weight, 1);
    EXPECT_EQ(x.category, "passed");
  }
  EXPECT_EQ(d.train[1].speedup, 1.3);
  EXPECT_EQ(d.dropped["kernel_guard_flagged"], 1);
  EXPECT_EQ(d.dropped["duplicate"], 1);
  EXPECT_EQ(d.coverage.total("correct"), 5);
  EXPECT_EQ(d.coverage.total("accepted"), 3);
}

TEST_F(PipelineTest, SkippedGpuStagesGiveNoVerdict) {
  store->add("gemm", 0, {T{"compile_error", true, {}, {}, "", "", true}, T{"passed"}});
  Dataset d = build(opts());
  EXPECT_EQ(d.train.size(), 1u);  // a compile error needs no GPU to be a verdict
}

}  // namespace
}  // namespace ptxbench::sft
