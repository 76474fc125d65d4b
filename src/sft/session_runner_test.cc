// Teacher mining through the real session loop, with the session's fake model and
// fake stage pipeline: the teacher's trajectory opens with the repair request, and its
// first correct, executing turn becomes the repair of the seed in the export.
#include "sft/session_runner.h"

#include <gtest/gtest.h>

#include <set>

#include "core/fs.h"
#include "run/fakes_test.h"
#include "sft/pipeline.h"
#include "sft/testing/synthetic_store.h"

namespace ptxbench::sft {
namespace {

using testing::SyntheticStore;
using testing::T;

// A run store with one gemm trajectory that failed twice (two seeds), and its corpus.
struct TwoSeeds {
  TempDir dir = TempDir::create("sft_session_runner").value();
  Corpus corpus = [this] {
    {
      SyntheticStore s(dir.path() / "run.db", "base-model");
      s.add("gemm", 0, {T{"compile_error"}, T{"incorrect"}});
    }
    return load_corpus({dir.path() / "run.db"}).value();
  }();
};

TEST(SessionRepairRunner, TeacherTrajectoriesBecomeRepairRows) {
  TwoSeeds seeds;
  const TempDir* dir = &seeds.dir;
  const auto* corpus = &seeds.corpus;

  run::RunConfig config;
  config.model.id = "teacher";
  config.turns = 4;           // the fake model is correct and executing from attempt 4 on
  config.speedup_target = 0;  // stop at the first correct, executing turn
  run::testing::FakePipeline pipeline;
  run::testing::FakeClients clients;
  SessionRepairRunner runner(config, {run::testing::fake_task("gemm")}, pipeline, clients,
                             run::testing::fake_extract);
  MineConfig cfg;
  cfg.teacher_model = "teacher";
  cfg.concurrency = 2;  // the loop, the fakes and the store are thread-safe
  auto report = mine(*corpus, Options{}, cfg, dir->path() / "mine.db", runner);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->ran, 2);
  EXPECT_EQ(report->repaired, 2);
  EXPECT_TRUE(report->errors.empty());

  {
    auto rs = store::RunStore::open(dir->path() / "mine.db");
    ASSERT_TRUE(rs.ok());
    auto trajs = rs->trajectories();
    ASSERT_TRUE(trajs.ok());
    ASSERT_EQ(trajs->size(), 2u);
    auto msgs = rs->messages(trajs->at(0).id);
    ASSERT_TRUE(msgs.ok());
    EXPECT_TRUE(msgs->at(1).content.starts_with("TASK gemm"));
    EXPECT_NE(msgs->at(1).content.find("minimal change"), std::string::npos);
  }

  auto mined = load_corpus({dir->path() / "mine.db"});
  ASSERT_TRUE(mined.ok()) << mined.error().to_string();
  Dataset d = build_dataset(*mined, Options{});
  ASSERT_EQ(d.train.size(), 2u);
  for (const auto& x : d.train) {
    EXPECT_TRUE(x.mined);
    EXPECT_EQ(x.repair_turn, 4);
    EXPECT_EQ(x.messages[1].content, "TASK gemm");
    EXPECT_NE(x.messages[4].content.find("attempt 4 of gemm"), std::string::npos);
  }
}

// An endpoint that never answers: every seed's teacher trajectory fails, and mine()
// reports each one as an error (the CLI then exits non-zero with the counts).
class DeadClients final : public run::ClientFactory {
 public:
  class Dead final : public llm::ChatClient {
   public:
    Result<llm::ChatReply> complete(const llm::ChatRequest&) override {
      return make_error("chat request failed after 3 attempts; last: connection refused");
    }
    std::string model_id() const override { return "dead"; }
  };
  Result<std::shared_ptr<llm::ChatClient>> client_for(const store::TrajectoryKey&) override {
    return std::shared_ptr<llm::ChatClient>(std::make_shared<Dead>());
  }
};

TEST(SessionRepairRunner, ADeadTeacherIsAnErrorPerSeedAndIsTriedAgain) {
  TwoSeeds seeds;
  const TempDir* dir = &seeds.dir;
  const auto* corpus = &seeds.corpus;
  run::RunConfig config;
  config.model.id = "teacher";
  run::testing::FakePipeline pipeline;
  DeadClients clients;
  SessionRepairRunner runner(config, {run::testing::fake_task("gemm")}, pipeline, clients,
                             run::testing::fake_extract);
  MineConfig cfg;
  cfg.teacher_model = "teacher";
  for (int round = 0; round < 2; ++round) {  // the second round retries the failed seeds
    auto report = mine(*corpus, Options{}, cfg, dir->path() / "mine.db", runner);
    ASSERT_TRUE(report.ok()) << report.error().to_string();
    EXPECT_EQ(report->ran, 0);
    EXPECT_EQ(report->already_done, 0);
    ASSERT_EQ(report->errors.size(), 2u);
    EXPECT_NE(report->errors[0].find("connection refused"), std::string::npos);
  }
}

// The session's fake client writes comment-only kernels ("// attempt k of TASK sample
// S"), which all normalise to the same text; this one adds a line of code per attempt so
// that the kernels differ as real ones do.
class CodeClients final : public run::ClientFactory {
 public:
  Result<std::shared_ptr<llm::ChatClient>> client_for(const store::TrajectoryKey& k) override {
    PTXB_TRY(std::shared_ptr<llm::ChatClient> inner, fake_.client_for(k));
    return std::shared_ptr<llm::ChatClient>(
        std::make_shared<CodeClient>(std::move(inner), k.task + "_" + std::to_string(k.sample)));
  }

 private:
  class CodeClient final : public llm::ChatClient {
   public:
    CodeClient(std::shared_ptr<llm::ChatClient> inner, std::string tag)
        : inner_(std::move(inner)), tag_(std::move(tag)) {}
    Result<llm::ChatReply> complete(const llm::ChatRequest& req) override {
      PTXB_TRY(llm::ChatReply r, inner_->complete(req));
      auto at = r.content.find("\n```\n", r.content.find("```cuda"));
      if (at != std::string::npos)
        r.content.insert(at, "\n__device__ int v_" + tag_ + "_" + std::to_string(++n_) + ";");
      return r;
    }
    std::string model_id() const override { return inner_->model_id(); }

   private:
    std::shared_ptr<llm::ChatClient> inner_;
    std::string tag_;
    int n_ = 0;
  };
  run::testing::FakeClients fake_;
};

// A run as `ptxbench run` makes it (run::run_all), with the session's fakes, whose
// attempts follow the embedded scripted agent: compile error, incorrect, correct without
// the target instructions, then correct and executing. Each trajectory's repair appears
// once, paired with the turn just before it; --pairing all pairs every failing turn.
TEST(RunExport, EveryRepairOfARunAppearsOnce) {
  auto dir = TempDir::create("sft_run_export");
  ASSERT_TRUE(dir.ok());
  run::RunConfig config;
  config.model.id = "fake";
  config.tasks = {"gemm", "mha"};
  config.samples = 2;
  config.turns = 8;
  std::vector<task::TaskSpec> tasks = {run::testing::fake_task("gemm"),
                                       run::testing::fake_task("mha")};
  {
    auto rs = store::RunStore::create(dir->path() / "run.db", config.to_json(), Json::object());
    ASSERT_TRUE(rs.ok()) << rs.error().to_string();
    run::testing::FakePipeline pipeline;
    CodeClients clients;
    run::LoopDeps deps{
        *rs, pipeline, clients, run::testing::fake_prompt, run::testing::fake_extract, nullptr};
    auto totals = run::run_all(config, run::plan_trajectories(config, tasks), tasks, deps);
    ASSERT_TRUE(totals.ok()) << totals.error().to_string();
    ASSERT_EQ(totals->done, 4);
  }
  auto corpus = load_corpus({dir->path() / "run.db"});
  ASSERT_TRUE(corpus.ok()) << corpus.error().to_string();
  Dataset d = build_dataset(*corpus, Options{});
  ASSERT_EQ(d.train.size(), 4u) << d.coverage.table() << Json(d.dropped).dump();
  std::set<std::string> repairs;
  for (const auto& x : d.train) {
    EXPECT_EQ(x.turn, 3);
    EXPECT_EQ(x.category, "passed_missing_instructions");
    EXPECT_EQ(x.repair_turn, 4);
    EXPECT_NE(x.messages[4].content.find("attempt 4 of " + x.task), std::string::npos);
    EXPECT_NE(x.messages[2].content.find("attempt 3 of " + x.task), std::string::npos);
    repairs.insert(x.repair_key);
  }
  EXPECT_EQ(repairs.size(), 4u);
  EXPECT_EQ(d.coverage.total("failing"), 12);

  Options all;
  all.pairing = Pairing::all;
  Dataset every = build_dataset(*corpus, all);
  EXPECT_EQ(every.train.size(), 12u);
  EXPECT_EQ(every.coverage.at("rows", {"gemm", "compile_error", 1}), 2);
  EXPECT_EQ(every.coverage.at("rows", {"mha", "incorrect", 2}), 2);
}

TEST(SessionRepairRunner, UnknownTaskIsAnError) {
  auto dir = TempDir::create("sft_session_runner");
  ASSERT_TRUE(dir.ok());
  auto rs = store::RunStore::create(dir->path() / "m.db", Json::object(), Json::object());
  ASSERT_TRUE(rs.ok());
  run::testing::FakePipeline pipeline;
  run::testing::FakeClients clients;
  SessionRepairRunner runner(run::RunConfig{}, {}, pipeline, clients, run::testing::fake_extract);
  Status st = runner.run(*rs, {"t", "nope", "sm_90a", 0}, {{"system", "s", ""}, {"user", "u", ""}});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("nope"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::sft
