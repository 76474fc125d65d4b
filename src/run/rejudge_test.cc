#include "run/rejudge.h"

#include <gtest/gtest.h>

#include "core/fs.h"
#include "run/fakes_test.h"

namespace ptxbench::run {
namespace {

using namespace ptxbench::run::testing;

struct RejudgeTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("rejudge_test");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
    tasks = {fake_task("fast"), fake_task("nocode")};
    config.tasks = {"fast", "nocode"};
    config.turns = 5;
  }
  // A run recorded with `pipeline` (the fake agent's attempts 1, 2, 3, ...).
  std::unique_ptr<store::RunStore> record(const std::string& name, CandidatePipeline& pipeline) {
    auto s = store::RunStore::create(dir->path() / name, config.to_json(), Json::object());
    EXPECT_TRUE(s.ok());
    auto st = std::make_unique<store::RunStore>(std::move(*s));
    FakeClients clients;
    LoopDeps deps{*st, pipeline, clients, fake_prompt, fake_extract, nullptr};
    EXPECT_TRUE(run_all(config, plan_trajectories(config, tasks), tasks, deps).ok());
    return st;
  }
  Result<RejudgeTotals> rejudge_into(const store::RunStore& source, const std::string& name,
                                     CandidatePipeline& pipeline) {
    auto s = store::RunStore::create(dir->path() / name, Json::object(), Json::object());
    if (!s.ok()) return s.error();
    target = std::make_unique<store::RunStore>(std::move(*s));
    StageSlots slots(1, 1);
    return rejudge(source, *target, tasks, pipeline, slots,
                   [this](const std::string& line) { notices.push_back(line); });
  }
  std::unique_ptr<TempDir> dir;
  std::vector<task::TaskSpec> tasks;
  RunConfig config;
  std::unique_ptr<store::RunStore> target;
  std::vector<std::string> notices;
};

std::vector<std::string> categories(const store::RunStore& s, std::int64_t id) {
  std::vector<std::string> out;
  const std::vector<store::TurnRow> turns = s.turns(id).value();
  for (const auto& t : turns) out.push_back(std::string(judge::to_string(t.category)));
  return out;
}

// Recorded without a GPU, judged again on one: the same messages, new verdicts.
TEST_F(RejudgeTest, ACpuRecordedRunJudgedOnAGpu) {
  FakePipeline cpu(/*gpu=*/false);
  auto source = record("cpu.db", cpu);
  FakePipeline gpu(/*gpu=*/true);
  auto totals = rejudge_into(*source, "gpu.db", gpu);
  ASSERT_TRUE(totals.ok()) << totals.error().to_string();
  EXPECT_EQ(totals->trajectories, 2);
  EXPECT_EQ(totals->turns, 10);
  EXPECT_EQ(totals->judged, 9);   // nocode's turn 2 has no code
  EXPECT_EQ(totals->changed, 7);  // every not_evaluated turn (compile errors, no code stay)
  EXPECT_EQ(gpu.evaluations, 7);
  ASSERT_EQ(notices.size(), 2u);
  EXPECT_EQ(notices[0], "scripted/v1 fast sm_90a #0: 5 turns, 4 changed");

  const auto before = source->trajectories().value();
  const auto after = target->trajectories().value();
  ASSERT_EQ(after.size(), 2u);
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].key, before[i].key);
    EXPECT_EQ(store::to_string(after[i].status), "done");
    // Every message as stored: the replies and the feedback the model was shown.
    const auto a = source->messages(before[i].id).value(),
               b = target->messages(after[i].id).value();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t m = 0; m < a.size(); ++m) {
      EXPECT_EQ(b[m].role, a[m].role);
      EXPECT_EQ(b[m].content, a[m].content);
    }
    const auto old_turns = source->turns(before[i].id).value();
    const auto new_turns = target->turns(after[i].id).value();
    for (std::size_t t = 0; t < new_turns.size(); ++t) {
      EXPECT_EQ(new_turns[t].source, old_turns[t].source);
      EXPECT_EQ(new_turns[t].llm, old_turns[t].llm);  // the model's usage, copied
    }
  }
  EXPECT_EQ(categories(*target, after[0].id),
            (std::vector<std::string>{"compile_error", "incorrect", "passed_missing_instructions",
                                      "passed", "passed"}));
  EXPECT_EQ(after[0].stop_reason.value_or(""), "target_reached");  // turn 5: 1.5x
  EXPECT_EQ(categories(*target, after[1].id)[1], "no_code");
  EXPECT_TRUE(target->turns(after[0].id).value()[3].target_reached);
}

// Recorded on a GPU, judged again without one: nothing runs, the verdict says so; a
// trajectory that had reached its target no longer claims it; a failed one stays failed.
TEST_F(RejudgeTest, AGpuRecordedRunJudgedWithoutAGpu) {
  FakePipeline gpu(/*gpu=*/true);
  auto source = record("gpu.db", gpu);
  auto id = source->add_trajectory({"scripted/v1", "nocode", "sm_90a", 9});
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(
      source->start_trajectory(*id, {0, 0, "system", "s", ""}, {1, 0, "user", "u", ""}).ok());
  ASSERT_TRUE(
      source->finish_trajectory(*id, store::TrajectoryStatus::failed, "error: model: gone").ok());

  FakePipeline cpu(/*gpu=*/false);
  auto totals = rejudge_into(*source, "cpu.db", cpu);
  ASSERT_TRUE(totals.ok()) << totals.error().to_string();
  const auto after = target->trajectories().value();
  ASSERT_EQ(after.size(), 3u);
  EXPECT_EQ(categories(*target, after[0].id),
            (std::vector<std::string>{"compile_error", "not_evaluated", "not_evaluated",
                                      "not_evaluated"}));
  EXPECT_EQ(after[0].stop_reason.value_or(""), "target_not_reached_on_rejudge");
  EXPECT_TRUE(target->turns(after[0].id).value()[1].gpu_skipped);
  EXPECT_EQ(store::to_string(after[2].status), "failed");
  EXPECT_EQ(after[2].stop_reason.value_or(""), "error: model: gone");
  EXPECT_EQ(cpu.evaluations, 0);
}

TEST_F(RejudgeTest, ATaskThisPtxbenchLacksIsNamed) {
  FakePipeline cpu(false);
  auto source = record("cpu.db", cpu);
  tasks = {fake_task("fast")};
  auto unknown = unknown_tasks(*source, tasks);
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(*unknown, std::vector<std::string>{"nocode"});
  auto totals = rejudge_into(*source, "x.db", cpu);
  ASSERT_FALSE(totals.ok());
  EXPECT_NE(totals.error().message.find("task nocode is not in"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::run
