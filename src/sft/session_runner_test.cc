// Teacher mining through the real session loop, with the session's fake model and
// fake stage pipeline: the teacher's trajectory opens with the repair request, and its
// first correct, executing turn becomes the repair of the seed in the export.
#include "sft/session_runner.h"

#include <gtest/gtest.h>

#include "core/fs.h"
#include "session/fakes_test.h"
#include "sft/pipeline.h"
#include "sft/testing/synthetic_store.h"

namespace ptxbench::sft {
namespace {

using testing::SyntheticStore;
using testing::T;

TEST(SessionRepairRunner, TeacherTrajectoriesBecomeRepairRows) {
  auto dir = TempDir::create("sft_session_runner");
  ASSERT_TRUE(dir.ok());
  {
    SyntheticStore s(dir->path() / "run.db", "base-model");
    s.add("gemm", 0, {T{"compile_error"}, T{"incorrect"}});
  }
  auto corpus = load_corpus({dir->path() / "run.db"});
  ASSERT_TRUE(corpus.ok()) << corpus.error().to_string();

  session::RunConfig config;
  config.model.id = "teacher";
  config.turns = 4;  // the fake model is correct and executing from attempt 4 on
  config.speedup_target = 0;  // stop at the first correct, executing turn
  session::testing::FakePipeline pipeline;
  session::testing::FakeClients clients;
  SessionRepairRunner runner(config, {session::testing::fake_task("gemm")}, pipeline, clients,
                             session::testing::fake_extract);
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

TEST(SessionRepairRunner, UnknownTaskIsAnError) {
  auto dir = TempDir::create("sft_session_runner");
  ASSERT_TRUE(dir.ok());
  auto rs = store::RunStore::create(dir->path() / "m.db", Json::object(), Json::object());
  ASSERT_TRUE(rs.ok());
  session::testing::FakePipeline pipeline;
  session::testing::FakeClients clients;
  SessionRepairRunner runner(session::RunConfig{}, {}, pipeline, clients, session::testing::fake_extract);
  Status st = runner.run(*rs, {"t", "nope", "sm_90a", 0}, {{"system", "s", ""}, {"user", "u", ""}});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("nope"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::sft
