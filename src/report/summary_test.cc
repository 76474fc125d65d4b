#include "report/summary.h"

#include <gtest/gtest.h>

#include "compile/result_json.h"
#include "core/fs.h"
#include "judge/testing/named.h"

namespace ptxbench::report {
namespace {

store::StoredTurn tp(int turn, const std::string& cat, bool correct = false,
                     std::optional<bool> arch = {}, std::optional<double> speedup = {}) {
  store::StoredTurn p;
  p.turn = turn;
  p.category = judge::testing::named(cat);
  p.correct = correct;
  p.arch_executed = arch;
  p.speedup = speedup;
  p.compiled = cat != "no_code" && cat != "policy" && cat != "compile_error";
  return p;
}

RunData sample_run() {
  RunData d;
  d.path = "runs/x.db";
  d.created_at = "2026-11-29T09:00:00.000Z";
  d.status = store::RunStatus::done;
  d.budgets = {1, 4, 8};
  d.fast_p = {0.5, 1.0};
  d.trajectories = {
      {{"m", "gemm", "sm_90a", 0},
       store::TrajectoryStatus::done,
       "turn_budget",
       {tp(1, "compile_error"), tp(2, "incorrect"),
        tp(3, "passed_missing_instructions", true, false, 0.05), tp(4, "passed", true, true, 0.9),
        tp(5, "passed", true, true, 1.1)}},
      {{"m", "gemm", "sm_90a", 1},
       store::TrajectoryStatus::done,
       "target_reached",
       {tp(1, "passed", true, true, 1.3)}},
      {{"m", "gemm", "sm_90a", 2},
       store::TrajectoryStatus::done,
       "turn_budget",
       {tp(1, "compile_error"), tp(2, "no_code")}},
      {{"m", "mha", "sm_90a", 0}, store::TrajectoryStatus::running, "", {tp(1, "incorrect")}},
  };
  return d;
}

TEST(Summary, RatesAndSpeedupsPerBudget) {
  Summary s = summarize(sample_run());
  ASSERT_EQ(s.groups.size(), 3u);  // gemm, mha, all
  const GroupSummary& g = s.groups[0];
  EXPECT_EQ(g.task, "gemm");
  EXPECT_EQ(g.trajectories, 3);
  EXPECT_EQ(g.turns, 8);
  EXPECT_EQ(g.target_reached, 1);
  EXPECT_DOUBLE_EQ(g.compile_rate, 2.0 / 3);
  ASSERT_EQ(g.at.size(), 3u);
  // T = 1: only sample 1 is correct (1.3x, executed).
  EXPECT_DOUBLE_EQ(g.at[0].correct_rate, 1.0 / 3);
  EXPECT_DOUBLE_EQ(g.at[0].arch_rate, 1.0 / 3);
  EXPECT_DOUBLE_EQ(g.at[0].best_speedup.value(), 1.3);
  EXPECT_DOUBLE_EQ(g.at[0].fast[0], 1.0 / 3);
  EXPECT_DOUBLE_EQ(g.at[0].fast[1], 1.0 / 3);
  // T = 4: sample 0 is correct from turn 3 and executes at turn 4 (0.9x).
  EXPECT_DOUBLE_EQ(g.at[1].correct_rate, 2.0 / 3);
  EXPECT_DOUBLE_EQ(g.at[1].arch_rate, 2.0 / 3);
  EXPECT_DOUBLE_EQ(g.at[1].fast[0], 2.0 / 3);
  EXPECT_DOUBLE_EQ(g.at[1].fast[1], 1.0 / 3);
  // T = 8: sample 0 reaches 1.1x at turn 5.
  EXPECT_DOUBLE_EQ(g.at[2].fast[1], 2.0 / 3);
  EXPECT_DOUBLE_EQ(g.at[2].best_speedup.value(), 1.3);
  EXPECT_EQ(g.categories.at("compile_error"), 2);
  EXPECT_EQ(g.categories.at("passed"), 3);

  const GroupSummary& mha = s.groups[1];
  EXPECT_EQ(mha.task, "mha");
  EXPECT_EQ(mha.finished, 0);
  EXPECT_DOUBLE_EQ(mha.at[2].correct_rate, 0);
  EXPECT_FALSE(mha.at[2].best_speedup.has_value());

  const GroupSummary& all = s.groups[2];
  EXPECT_EQ(all.task, "all");
  EXPECT_EQ(all.trajectories, 4);
  EXPECT_EQ(all.unfinished, 1);  // mha #0 is still running: not a score of 0
  EXPECT_EQ(all.scored, 3);
  EXPECT_DOUBLE_EQ(all.at[2].correct_rate, 2.0 / 3);
}

TEST(Summary, CorrectWithoutArchNeverCountsForFastP) {
  RunData d = sample_run();
  d.trajectories = {{{"m", "gemm", "sm_90a", 0},
                     store::TrajectoryStatus::done,
                     "turn_budget",
                     {tp(1, "passed_missing_instructions", true, false, 3.0)}}};
  Summary s = summarize(d);
  EXPECT_DOUBLE_EQ(s.groups[0].at[0].correct_rate, 1.0);
  EXPECT_DOUBLE_EQ(s.groups[0].at[0].arch_rate, 0.0);
  EXPECT_DOUBLE_EQ(s.groups[0].at[0].fast[0], 0.0);
  EXPECT_DOUBLE_EQ(s.groups[0].at[0].best_speedup.value(), 3.0);
}

TEST(Summary, SpeedupEqualToPIsNotFaster) {
  RunData d = sample_run();
  d.trajectories = {{{"m", "gemm", "sm_90a", 0},
                     store::TrajectoryStatus::done,
                     "x",
                     {tp(1, "passed", true, true, 1.0)}}};
  Summary s = summarize(d);
  EXPECT_DOUBLE_EQ(s.groups[0].at[0].fast[0], 1.0);
  EXPECT_DOUBLE_EQ(s.groups[0].at[0].fast[1], 0.0);
}

TEST(Summary, SeparateGroupsPerArch) {
  RunData d = sample_run();
  d.trajectories.push_back({{"m", "gemm", "sm_100a", 0},
                            store::TrajectoryStatus::done,
                            "script_end",
                            {tp(1, "not_evaluated")}});
  d.trajectories.back().turns[0].gpu_skipped = true;
  Summary s = summarize(d);
  ASSERT_EQ(s.groups.size(), 5u);
  EXPECT_EQ(s.groups[0].arch, "sm_100a");
  EXPECT_EQ(s.groups[0].gpu_stages, GpuStages::skipped);
  EXPECT_DOUBLE_EQ(s.groups[0].compile_rate, 1.0);
  EXPECT_EQ(s.groups[1].task, "all");
  EXPECT_EQ(s.groups[2].gpu_stages, GpuStages::run);
}

TEST(Summary, ATrajectoryThatFailedIsCountedApartNotScoredZero) {
  RunData d = sample_run();
  d.trajectories.resize(2);  // gemm #0 and #1
  d.trajectories.push_back(
      {{"m", "gemm", "sm_90a", 2}, store::TrajectoryStatus::failed, "error: model: refused", {}});
  Summary s = summarize(d);
  const GroupSummary& g = s.groups.at(0);
  EXPECT_EQ(g.trajectories, 3);
  EXPECT_EQ(g.failed, 1);
  EXPECT_EQ(g.scored, 2);
  EXPECT_DOUBLE_EQ(g.at[0].correct_rate, 1.0 / 2);  // #1 of the two scored
  EXPECT_DOUBLE_EQ(g.compile_rate, 1.0);

  RunData dead;  // every trajectory failed on the endpoint: nothing is known
  dead.trajectories = {
      {{"m", "gemm", "sm_90a", 0}, store::TrajectoryStatus::failed, "error: model: refused", {}}};
  Summary none = summarize(dead);
  EXPECT_EQ(none.groups.at(0).scored, 0);
  Json j = to_json(none);
  EXPECT_TRUE(j["groups"][0]["at"][0]["correct_rate"].is_null());
  EXPECT_EQ(j["groups"][0]["failed"], 1);
  EXPECT_TRUE(j["groups"][0]["compile_rate"].is_null()) << j["groups"][0];  // not 0.0
  EXPECT_TRUE(j["groups"][0]["static"]["compile_rate"].is_null());
  EXPECT_EQ(j["groups"][0]["gpu_stages"], "not_reached");
}

// Every turn failed to compile (here without a GPU, as on a CPU machine): the GPU stages
// were never reached, which is what the summary says (not "run", not "skipped"); the
// compile rate is a true 0 and nothing could be correct.
TEST(Summary, WhenNoTurnCompiledTheGpuStagesWereNotReached) {
  RunData d;
  d.trajectories = {{{"m", "gemm", "sm_90a", 0},
                     store::TrajectoryStatus::done,
                     "turn_budget",
                     {tp(1, "compile_error"), tp(2, "policy"), tp(3, "no_code")}}};
  const Summary s = summarize(d);
  const GroupSummary& g = s.groups.at(0);
  EXPECT_EQ(g.gpu_stages, GpuStages::not_reached);
  EXPECT_EQ(g.scored, 1);
  Json j = to_json(s)["groups"][0];
  EXPECT_EQ(j["gpu_stages"], "not_reached");
  EXPECT_EQ(j["compile_rate"], 0.0);
  EXPECT_EQ(j["at"][0]["correct_rate"], 0.0);
  // One compiled turn evaluated on a GPU: run.
  d.trajectories[0].turns.push_back(tp(4, "incorrect"));
  EXPECT_EQ(summarize(d).groups.at(0).gpu_stages, GpuStages::run);
}

TEST(Summary, WithoutAGpuTheStaticEvidenceIsSummarised) {
  RunData d;
  auto skipped = [](store::StoredTurn p, std::vector<std::string> families, bool met) {
    p.gpu_skipped = true;
    p.families_in_sass = std::move(families);
    p.targets_in_sass = met;
    return p;
  };
  d.trajectories = {
      {{"m", "gemm", "sm_90a", 0},
       store::TrajectoryStatus::done,
       "script_end",
       {skipped(tp(1, "compile_error"), {}, false), skipped(tp(2, "not_evaluated"), {}, false),
        skipped(tp(3, "not_evaluated"), {"tma"}, false),
        skipped(tp(4, "not_evaluated"), {"wgmma", "tma"}, true)}},
      {{"m", "gemm", "sm_90a", 1},
       store::TrajectoryStatus::done,
       "script_end",
       {skipped(tp(1, "not_evaluated"), {}, false)}}};
  const Summary s = summarize(d);
  const GroupSummary& g = s.groups.at(0);
  EXPECT_EQ(g.gpu_stages, GpuStages::skipped);
  EXPECT_DOUBLE_EQ(g.compile_rate, 1.0);
  EXPECT_DOUBLE_EQ(g.targets_in_sass_rate, 0.5);
  EXPECT_EQ(g.first_targets_turn, 4);
  EXPECT_EQ(g.families_in_sass, (std::vector<std::string>{"tma", "wgmma"}));
}

// load_run takes "compiled" from the stored compile stage, not from the category: a
// compile timeout is a timeout turn that never built; and the static census from there.
TEST(Summary, CompiledComesFromTheStoredCompileStage) {
  auto dir = TempDir::create("summary_test");
  ASSERT_TRUE(dir.ok());
  auto st = store::RunStore::create(dir->path() / "run.db", Json::object(), Json::object());
  ASSERT_TRUE(st.ok());
  auto id = st->add_trajectory({"m", "gemm", "sm_90a", 0});
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(st->start_trajectory(*id, {0, 0, "system", "S", ""}, {1, 0, "user", "T", ""}).ok());
  auto turn = [&](int n, const std::string& category, Json compile) {
    store::TurnEvent e;
    e.trajectory_id = *id;
    e.assistant.content = "reply";
    e.turn.turn = n;
    e.turn.category = judge::testing::named(category);
    e.turn.feedback = "fb";
    e.turn.compile = std::move(compile);
    e.feedback_message = "fb";
    ASSERT_TRUE(st->record_turn(e).ok());
  };
  // A compile part as the judge writes it (each holds its census).
  auto compiled = [](Outcome outcome, std::vector<std::string> present) {
    compile::CompileResult c;
    c.outcome = outcome;
    c.timed_out = outcome == Outcome::compile_error;
    c.census.targets_met = !present.empty();
    c.census.targets_present = std::move(present);
    return compile::to_json(c);
  };
  turn(1, "timeout", compiled(Outcome::compile_error, {}));
  turn(2, "no_code", nullptr);
  turn(3, "timeout", compiled(Outcome::passed, {}));
  turn(4, "not_evaluated", compiled(Outcome::passed, {"wgmma", "tma"}));
  auto data = load_run(*st);
  ASSERT_TRUE(data.ok());
  const auto& turns = data->trajectories.at(0).turns;
  ASSERT_EQ(turns.size(), 4u);
  EXPECT_EQ(turns[0].compiled, false);
  EXPECT_FALSE(turns[1].compiled.has_value());  // the stage did not run
  EXPECT_EQ(turns[2].compiled, true);
  EXPECT_EQ(turns[2].targets_in_sass, false);  // its census found no target
  EXPECT_EQ(turns[3].targets_in_sass, true);
  EXPECT_EQ(turns[3].families_in_sass, (std::vector<std::string>{"wgmma", "tma"}));
  // The trajectory is still running (no stop recorded): its turns are shown, its rates wait.
  EXPECT_EQ(summarize(*data).groups.at(0).unfinished, 1);
  EXPECT_EQ(summarize(*data).groups.at(0).scored, 0);
}

}  // namespace
}  // namespace ptxbench::report
