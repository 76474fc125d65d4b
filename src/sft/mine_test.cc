#include "sft/mine.h"

#include <gtest/gtest.h>

#include <csignal>

#include "core/fs.h"
#include "core/interrupt.h"
#include "sft/pipeline.h"
#include "sft/testing/synthetic_store.h"

namespace ptxbench::sft {
namespace {

using testing::SyntheticStore;
using testing::T;

// A teacher that repairs compile errors in one turn and never fixes anything else,
// writing its trajectory through the store API as the session loop does.
class FakeTeacher : public RepairRunner {
 public:
  Status run(store::RunStore& rs, const store::TrajectoryKey& key,
             const std::vector<llm::Message>& opening) override {
    openings.push_back(opening);
    if (fail_next) return make_error("endpoint unreachable");
    if (interrupt_in_run) std::raise(SIGINT);  // Ctrl-C while the teacher answers
    PTXB_TRY(std::int64_t id, rs.add_trajectory(key));
    PTXB_TRY_STATUS(rs.start_trajectory(id, {0, 0, "system", opening.at(0).content, ""},
                                        {1, 0, "user", opening.at(1).content, ""}));
    const bool fixes = opening.at(1).content.find("(compile_error)") != std::string::npos;
    store::TurnEvent e;
    e.trajectory_id = id;
    e.assistant.content = "```cuda\nfixed " + key.task + " " + std::to_string(key.sample) + "\n```";
    e.assistant.reasoning = "minimal change";
    e.turn.turn = 1;
    e.turn.source = "fixed " + key.task + " " + std::to_string(key.sample);
    e.turn.category = fixes ? judge::Disposition::passed : judge::Disposition::incorrect;
    e.turn.compile = Json{{"outcome", "passed"}};
    e.turn.eval = Json{{"outcome", fixes ? "passed" : "incorrect"}};
    e.turn.correct = fixes;
    if (fixes) e.turn.arch_executed = true, e.turn.speedup = 0.9;
    e.turn.feedback = "teacher feedback";
    e.feedback_message = e.turn.feedback;
    e.stop_reason = "turn_budget";
    return rs.record_turn(e);
  }
  std::vector<std::vector<llm::Message>> openings;
  bool fail_next = false;
  bool interrupt_in_run = false;
};

struct MineTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("sft_mine");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
    {
      SyntheticStore s(dir->path() / "run.db", "base-model");
      s.add("gemm", 0, {T{"compile_error"}, T{"compile_error"}, T{"timeout"}});
      s.add("gemm", 1,
            {T{"compile_error", true, {}, {}, testing::kernel_for("gemm", 0, 1)}});  // same kernel
      s.add("mha", 0, {T{"compile_error"}, T{"passed"}});
    }
    auto c = load_corpus({dir->path() / "run.db"});
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    corpus = std::move(*c);
    cfg.teacher_model = "teacher";
  }
  std::unique_ptr<TempDir> dir;
  Corpus corpus;
  MineConfig cfg;
};

TEST_F(MineTest, SelectsDedupedBalancedFailures) {
  Options o;
  Coverage cov;
  auto jobs = select_seeds(corpus, o, 0, cov);
  EXPECT_EQ(cov.total("failing"), 5);
  EXPECT_EQ(cov.total("deduplicated"), 4);  // gemm#1's kernel repeats gemm#0 turn 1
  ASSERT_EQ(jobs.size(), 4u);
  for (std::size_t i = 0; i < jobs.size(); ++i) EXPECT_EQ(jobs[i].sample, static_cast<int>(i));
  const Seed& s = jobs[0].seed;
  EXPECT_EQ(s.model, "base-model");
  EXPECT_EQ(jobs[0].opening.size(), 2u);
  EXPECT_EQ(jobs[0].opening[0].content, "SYSTEM PROMPT");
  const std::string& request = jobs[0].opening[1].content;
  EXPECT_TRUE(request.starts_with("TASK " + s.task));
  EXPECT_NE(request.find(s.wrong_source), std::string::npos);
  EXPECT_NE(request.find(s.feedback), std::string::npos);
  EXPECT_NE(request.find("minimal change"), std::string::npos);

  o.per_task_cap = 1;
  Coverage cov2;
  EXPECT_EQ(select_seeds(corpus, o, 0, cov2).size(), 2u);  // one per task
  Coverage cov3;
  EXPECT_EQ(select_seeds(corpus, Options{}, 3, cov3).size(), 3u);  // --limit
}

TEST_F(MineTest, MinedRepairsExportAsOriginalFiveMessageRows) {
  FakeTeacher teacher;
  auto r = mine(corpus, Options{}, cfg, dir->path() / "mine.db", teacher);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->selected, 4);
  EXPECT_EQ(r->ran, 4);
  EXPECT_EQ(r->repaired, 3);  // the three compile errors; the timeout stays broken

  auto mined = load_corpus({dir->path() / "mine.db"});
  ASSERT_TRUE(mined.ok()) << mined.error().to_string();
  EXPECT_EQ(mined->sources[0].mined_trajectories, 4);
  Options o;
  o.categories = {"compile_error", "timeout"};
  Dataset d = build_dataset(*mined, o);
  ASSERT_EQ(d.train.size(), 3u);
  EXPECT_EQ(d.dropped["no_repair"], 1);
  for (const auto& x : d.train) {
    EXPECT_TRUE(x.mined);
    EXPECT_EQ(x.model, "base-model");
    EXPECT_EQ(x.teacher_model, "teacher");
    EXPECT_EQ(x.category, "compile_error");
    ASSERT_EQ(x.messages.size(), 5u);
    EXPECT_EQ(x.messages[1].content, "TASK " + x.task);  // the original task, not the request
    EXPECT_TRUE(x.messages[2].content.find("__global__ void k_" + x.task) != std::string::npos);
    EXPECT_TRUE(x.messages[3].content.starts_with("FEEDBACK compile_error for " + x.task));
    EXPECT_TRUE(x.messages[4].content.starts_with("<think>\nminimal change\n</think>"));
    EXPECT_NE(x.messages[4].content.find("fixed " + x.task), std::string::npos);
  }
}

TEST_F(MineTest, ResumeSkipsFinishedSeedsAndRefusesOtherSeeds) {
  FakeTeacher teacher;
  teacher.fail_next = true;
  auto first = mine(corpus, Options{}, cfg, dir->path() / "mine.db", teacher);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->errors.size(), 4u);
  EXPECT_EQ(first->ran, 0);

  teacher.fail_next = false;
  auto second = mine(corpus, Options{}, cfg, dir->path() / "mine.db", teacher);
  ASSERT_TRUE(second.ok()) << second.error().to_string();
  EXPECT_EQ(second->ran, 4);
  auto third = mine(corpus, Options{}, cfg, dir->path() / "mine.db", teacher);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->ran, 0);
  EXPECT_EQ(third->already_done, 4);
  EXPECT_EQ(third->repaired, 3);

  {
    SyntheticStore other(dir->path() / "other.db", "base-model");
    other.add("gemm", 0, {T{"incorrect"}});
  }
  auto other_corpus = load_corpus({dir->path() / "other.db"});
  ASSERT_TRUE(other_corpus.ok());
  auto refused = mine(*other_corpus, Options{}, cfg, dir->path() / "mine.db", teacher);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("other failing turns"), std::string::npos);
}

// Ctrl-C: no further seed starts, nothing counts as failed, MINE.db stays resumable and the
// same command finishes the rest.
TEST_F(MineTest, AnInterruptStopsTheMineAndTheSameCommandResumesIt) {
  FakeTeacher teacher;
  teacher.interrupt_in_run = true;
  {
    InterruptScope scope;
    auto first = mine(corpus, Options{}, cfg, dir->path() / "mine.db", teacher);
    ASSERT_TRUE(first.ok()) << first.error().to_string();
    EXPECT_EQ(teacher.openings.size(), 1u);  // the others never started
    EXPECT_EQ(first->interrupted, 4);
    EXPECT_EQ(first->ran, 0);
    EXPECT_TRUE(first->errors.empty());
  }
  teacher.interrupt_in_run = false;
  auto second = mine(corpus, Options{}, cfg, dir->path() / "mine.db", teacher);
  ASSERT_TRUE(second.ok()) << second.error().to_string();
  EXPECT_EQ(second->interrupted, 0);
  EXPECT_EQ(second->already_done + second->ran, 4);
  EXPECT_EQ(second->ran, 3);  // the one that finished as the signal came is not redone
}

}  // namespace
}  // namespace ptxbench::sft
