// Resume after kill -9: a child process runs a run with a slow pipeline and is
// SIGKILLed part-way; resuming the file must give exactly what an uninterrupted run
// stores (same turns and messages, nothing lost, nothing duplicated).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/fs.h"
#include "run/fakes_test.h"
#include "run/shard.h"
#include "store/db.h"

namespace ptxbench::run {
namespace {

using namespace ptxbench::run::testing;

struct ResumeTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("resume_test");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
    tasks = {fake_task("fast"), fake_task("nocode"), fake_task("slow")};
    config.tasks = {"fast", "nocode", "slow"};
    config.samples = 2;
    config.turns = 6;
    config.concurrency = 3;
    config.gpus = 2;
  }

  // Creates or resumes `db` and runs it to the end.
  Result<RunTotals> run(const std::filesystem::path& db, CandidatePipeline& p) {
    auto s = std::filesystem::exists(db)
                 ? store::RunStore::open(db)
                 : store::RunStore::create(db, config.to_json(), Json::object());
    if (!s.ok()) return s.error();
    if (auto st = s->reopen_run(); !st.ok()) return st.error();
    FakeClients clients;
    LoopDeps deps{*s, p, clients, fake_prompt, fake_extract, nullptr};
    auto r = run_all(config, select_shard(plan_trajectories(config, tasks), shard), tasks, deps);
    last_dump = dump_run(*s);
    return r;
  }

  static int stored_turns(const std::filesystem::path& db) {
    auto d = store::Db::open(db, false);
    if (!d.ok()) return -1;
    auto q = d->prepare("SELECT COUNT(*) FROM turns");
    if (!q.ok()) return -1;
    auto row = q->step();
    return row.ok() && *row ? static_cast<int>(q->int64(0)) : -1;
  }

  // Runs the plan (this->shard of it) to the end, and again in a child killed (SIGKILL) part-way,
  // then resumes that: the resumed file must hold what the uninterrupted one holds.
  void kill_then_resume(int min_turns);

  std::unique_ptr<TempDir> dir;
  std::vector<task::TaskSpec> tasks;
  RunConfig config;
  Shard shard;  // the whole plan unless a test sets it
  std::string last_dump;
};

TEST_F(ResumeTest, KillDashNineThenResumeEqualsAnUninterruptedRun) {
  kill_then_resume(10);
}

// A shard (run --shard I/N) resumes like a whole run: only its own trajectories, none lost or
// repeated, so its merge is that of a shard that never died (tests/cli/merge.sh: through merge).
TEST_F(ResumeTest, AKilledShardResumedEqualsOneThatNeverDied) {
  shard = Shard{1, 2, ShardSource::option};
  kill_then_resume(5);
  auto s = store::RunStore::open_read_only(dir->path() / "killed.db");
  ASSERT_TRUE(s.ok());
  auto rows = s->trajectories();
  ASSERT_TRUE(rows.ok());
  std::vector<store::TrajectoryKey> keys;
  for (const auto& t : *rows) keys.push_back(t.key);
  EXPECT_EQ(keys, select_shard(plan_trajectories(config, tasks), shard));
  EXPECT_EQ(keys.size(), 3u);  // 3 tasks x 2 samples, every other one
}

void ResumeTest::kill_then_resume(int min_turns) {
  FakePipeline quick;
  ASSERT_TRUE(run(dir->path() / "reference.db", quick).ok());
  std::string reference = last_dump;
  int total_turns = stored_turns(dir->path() / "reference.db");
  ASSERT_GT(total_turns, min_turns);

  auto killed_db = dir->path() / "killed.db";
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    FakePipeline slow(true, std::chrono::milliseconds(40));
    auto r = run(killed_db, slow);
    _exit(r.ok() ? 0 : 3);
  }
  // Kill it once about a third of the turns are stored: other trajectories are then
  // in the middle of a turn (model reply received, evaluation running).
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int seen = 0;
  while ((seen = stored_turns(killed_db)) < total_turns / 3 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status))
      << "the child finished before it was killed; make its pipeline slower";
  int at_kill = stored_turns(killed_db);
  ASSERT_GE(at_kill, total_turns / 3);
  ASSERT_LT(at_kill, total_turns);

  {
    auto s = store::RunStore::open(killed_db);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(store::to_string(s->run()->status), "running");
  }
  FakePipeline resumed;
  auto r = run(killed_db, resumed);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->failed, 0);
  // Only the turns that were not committed were evaluated again.
  EXPECT_LE(resumed.evaluations.load(), total_turns - at_kill);
  EXPECT_EQ(stored_turns(killed_db), total_turns);
  EXPECT_EQ(last_dump, reference);
  auto s = store::RunStore::open(killed_db);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(store::to_string(s->run()->status), "done");
}

TEST_F(ResumeTest, ResumeOfAFinishedTrajectoryWithoutItsEndMarkFinishesIt) {
  // A trajectory whose last stored turn reached the target but whose status is still
  // running (possible only through an older writer) is closed without a new turn.
  auto db = dir->path() / "a.db";
  auto s = store::RunStore::create(db, config.to_json(), Json::object());
  ASSERT_TRUE(s.ok());
  auto id = s->add_trajectory({config.model_label(), "fast", "sm_90a", 0});
  ASSERT_TRUE(s->start_trajectory(*id, {0, 0, "system", "S", ""}, {1, 0, "user", "T", ""}).ok());
  store::TurnEvent e;
  e.trajectory_id = *id;
  e.turn.turn = 1;
  e.turn.category = judge::Disposition::passed;
  e.turn.correct = true;
  e.turn.target_reached = true;
  e.turn.feedback = e.feedback_message = "done";
  ASSERT_TRUE(s->record_turn(e).ok());
  FakePipeline p;
  FakeClients c;
  LoopDeps deps{*s, p, c, fake_prompt, fake_extract, nullptr};
  auto row = s->trajectory(*id);
  auto out = run_trajectory(*row, tasks[0], config, *std::make_unique<StageSlots>(1, 1), deps);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->stop_reason, "target_reached");
  EXPECT_EQ(p.evaluations.load(), 0);
  EXPECT_EQ(s->turns(*id)->size(), 1u);
}

}  // namespace
}  // namespace ptxbench::run
