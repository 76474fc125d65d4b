#include "run/loop.h"

#include <gtest/gtest.h>

#include "core/fs.h"
#include "run/fakes_test.h"

namespace ptxbench::run {
namespace {

using namespace ptxbench::run::testing;

struct LoopTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("loop_test");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
    tasks = {fake_task("fast"), fake_task("nocode"), fake_task("slow")};
    config.tasks = {"fast", "nocode", "slow"};
    config.turns = 6;
    config.concurrency = 3;
  }
  Result<RunTotals> run(const std::filesystem::path& db, CandidatePipeline& p, ClientFactory& c,
                        ProgressSink* progress = nullptr) {
    store_.reset();  // the previous run's writer goes first: one writer per run file
    auto s = std::filesystem::exists(db)
                 ? store::RunStore::open(db)
                 : store::RunStore::create(db, config.to_json(), Json::object());
    if (!s.ok()) return s.error();
    store_ = std::make_unique<store::RunStore>(std::move(*s));
    LoopDeps deps{*store_, p, c, fake_prompt, fake_extract, progress};
    return run_all(config, plan_trajectories(config, tasks), tasks, deps);
  }
  std::unique_ptr<TempDir> dir;
  std::vector<task::TaskSpec> tasks;
  RunConfig config;
  std::unique_ptr<store::RunStore> store_;
};

TEST_F(LoopTest, StopsAtTargetOrBudgetWithFullHistory) {
  FakePipeline p;
  FakeClients c;
  auto r = run(dir->path() / "a.db", p, c);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->trajectories, 3);
  EXPECT_EQ(r->done, 3);
  EXPECT_EQ(store::to_string(store_->run()->status), "done");
  auto trajs = store_->trajectories().value();
  for (const auto& t : trajs) {
    auto turns = store_->turns(t.id).value();
    auto msgs = store_->messages(t.id).value();
    EXPECT_EQ(msgs.size(), 2 + 2 * turns.size());
    if (t.key.task == "fast") {
      ASSERT_EQ(turns.size(), 4u);
      EXPECT_EQ(t.stop_reason.value_or(""), "target_reached");
      EXPECT_EQ(turns[0].category, judge::Disposition::compile_error);
      EXPECT_EQ(turns[1].category, judge::Disposition::incorrect);
      EXPECT_EQ(turns[2].category, judge::Disposition::passed_missing_instructions);
      EXPECT_EQ(turns[3].category, judge::Disposition::passed);
      EXPECT_TRUE(turns[3].target_reached);
      EXPECT_NEAR(turns[3].speedup.value_or(0), 1.3, 1e-9);
      // The model saw the feedback of every earlier turn, in order.
      EXPECT_EQ(msgs[3].content, turns[0].feedback);
      EXPECT_EQ(msgs[2].turn, 1);
    } else if (t.key.task == "slow") {
      ASSERT_EQ(turns.size(), 6u);
      EXPECT_EQ(t.stop_reason.value_or(""), "turn_budget");
    } else {
      EXPECT_EQ(turns[1].category, judge::Disposition::no_code);
      EXPECT_FALSE(turns[1].source.has_value());
    }
  }
}

TEST_F(LoopTest, OneEvaluationAtATimePerGpu) {
  FakePipeline p(true, std::chrono::milliseconds(5));
  FakeClients c;
  config.gpus = 1;
  ASSERT_TRUE(run(dir->path() / "a.db", p, c).ok());
  EXPECT_EQ(p.max_concurrent_gpu(), 1);
}

TEST_F(LoopTest, TwoGpusRunTwoEvaluationsAtOnce) {
  FakePipeline p(true, std::chrono::milliseconds(20));
  FakeClients c;
  config.gpus = 2;
  ASSERT_TRUE(run(dir->path() / "a.db", p, c).ok());
  EXPECT_EQ(p.max_concurrent_gpu(), 2);
}

TEST_F(LoopTest, WithoutGpuTurnsAreNotEvaluatedAndSaySo) {
  FakePipeline p(false);
  FakeClients c;
  config.turns = 3;
  ASSERT_TRUE(run(dir->path() / "a.db", p, c).ok());
  auto trajs = store_->trajectories().value();
  for (const auto& t : trajs) {
    auto turns = store_->turns(t.id).value();
    ASSERT_EQ(turns.size(), 3u);
    EXPECT_EQ(turns[0].category, judge::Disposition::compile_error);
    const auto& last = turns[2];
    EXPECT_EQ(last.category, judge::Disposition::not_evaluated);
    EXPECT_TRUE(last.gpu_skipped);
    EXPECT_FALSE(last.correct);
    EXPECT_FALSE(last.arch_executed.has_value());
    EXPECT_NE(last.feedback.find("GPU stages skipped"), std::string::npos);
  }
}

TEST_F(LoopTest, ScriptEndStopsTheTrajectoryWithoutATurn) {
  FakePipeline p;
  FakeClients c(2);
  ASSERT_TRUE(run(dir->path() / "a.db", p, c).ok());
  auto trajs = store_->trajectories().value();
  for (const auto& t : trajs) {
    EXPECT_EQ(store_->turns(t.id)->size(), 2u);
    EXPECT_EQ(t.stop_reason.value_or(""), "script_end");
  }
}

TEST_F(LoopTest, ADoneRunIsNotRepeated) {
  FakePipeline p;
  FakeClients c;
  auto db = dir->path() / "a.db";
  ASSERT_TRUE(run(db, p, c).ok());
  int evals = p.evaluations.load();
  std::string before = dump_run(*store_);
  auto again = run(db, p, c);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->skipped_done, 3);
  EXPECT_EQ(p.evaluations.load(), evals);
  EXPECT_EQ(dump_run(*store_), before);
}

class FailingClients final : public ClientFactory {
 public:
  Result<std::shared_ptr<llm::ChatClient>> client_for(const store::TrajectoryKey&) override {
    return make_error("endpoint unreachable");
  }
};

TEST_F(LoopTest, ASetupFailureMarksTheTrajectoryFailedAndResumeRetriesIt) {
  FakePipeline p;
  FailingClients bad;
  auto db = dir->path() / "a.db";
  auto r = run(db, p, bad);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->failed, 3);
  EXPECT_EQ(store::to_string(store_->run()->status), "done");  // finished, with failed trajectories
  EXPECT_EQ(store::to_string(store_->trajectories().value()[0].status), "failed");
  FakeClients good;
  auto again = run(db, p, good);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->done, 3);
  EXPECT_EQ(store::to_string(store_->run()->status), "done");
}

TEST(SourceHash, IgnoresLineEndsAndTrailingSpace) {
  EXPECT_EQ(source_hash("a \r\nb\n\n\n"), source_hash("a\nb"));
  EXPECT_NE(source_hash("a\nb"), source_hash("a\nc"));
}

TEST(Plan, SkipsUnsupportedArchesAndUnavailableScripts) {
  RunConfig c;
  c.tasks = {"t1", "t2"};
  c.archs = {"sm_90a", "sm_100a"};
  c.samples = 2;
  std::vector<task::TaskSpec> ts = {fake_task("t1"), fake_task("t2")};
  ts[1].archs.push_back({"sm_100a", {"tcgen05"}, "any"});
  auto plan = plan_trajectories(c, ts);
  EXPECT_EQ(plan.size(), 6u);  // t1: sm_90a x2; t2: both x2
  auto only = plan_trajectories(c, ts, [](const std::string& t, const std::string& a) {
    return t == "t2" && a == "sm_100a";
  });
  ASSERT_EQ(only.size(), 2u);
  EXPECT_EQ(only[0].model, "scripted/v1");
  EXPECT_EQ(only[1].sample, 1);
}

TEST(Config, JsonRoundTrip) {
  RunConfig c;
  c.model.id = "Qwen/Qwen3-8B";
  c.model.base_url = "http://h:8000/v1";
  c.tasks = {"a", "b"};
  c.turns = 5;
  c.fast_p = {1.0, 2.0};
  auto back = RunConfig::from_json(c.to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->to_json(), c.to_json());
  EXPECT_EQ(back->model_label(), "Qwen/Qwen3-8B@http://h:8000/v1");
  EXPECT_FALSE(RunConfig::from_json(Json{{"turns", 3}}).ok());
}

}  // namespace
}  // namespace ptxbench::run
