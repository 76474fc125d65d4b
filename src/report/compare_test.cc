#include "report/compare.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/testing/golden.h"
#include "judge/testing/named.h"

namespace ptxbench::report {
namespace {

// Without a GPU a compiled turn is not_evaluated: its GPU stages were skipped.
store::StoredTurn tp(int turn, const std::string& cat, std::optional<double> speedup = {}) {
  store::StoredTurn p;
  p.turn = turn;
  p.category = judge::testing::named(cat);
  p.correct = cat.starts_with("passed");
  p.arch_executed = cat == "passed";
  p.speedup = speedup;
  p.gpu_skipped = cat == "not_evaluated";
  p.compiled = cat != "no_code" && cat != "compile_error";
  return p;
}

// A run recorded without a GPU, and its rejudge on the H200.
std::pair<RunData, RunData> cpu_run_and_rejudge() {
  RunData cpu;
  cpu.path = "runs/cpu.db";
  cpu.created_at = "2026-12-01T09:00:00.000Z";
  cpu.provenance = {
      {"host", "ci"}, {"git_commit", "0123456789abcdef0123"}, {"gpus", Json::array()}};
  cpu.trajectories = {{{"gemma", "gemm", "sm_90a", 0},
                       store::TrajectoryStatus::done,
                       "turn_budget",
                       {tp(1, "compile_error"), tp(2, "not_evaluated")}},
                      {{"gemma", "mha", "sm_90a", 0},
                       store::TrajectoryStatus::done,
                       "turn_budget",
                       {tp(1, "no_code"), tp(2, "not_evaluated"), tp(3, "not_evaluated")}}};
  RunData h200 = cpu;
  h200.path = "runs/h200.db";
  h200.provenance = {{"host", "gpu-box"},
                     {"git_commit", "fedcba9876543210fedc"},
                     {"gpus", {"NVIDIA H200, 580.159.04, 143771 MiB"}}};
  h200.trajectories[0].turns[1] = tp(2, "incorrect");
  h200.trajectories[1].turns[1] = tp(2, "passed_missing_instructions", 0.2);
  h200.trajectories[1].turns.pop_back();  // a turn the rejudge did not get to
  h200.trajectories.push_back(
      {{"gemma", "gemm", "sm_90a", 1}, store::TrajectoryStatus::done, "", {tp(1, "passed", 1.1)}});
  return {cpu, h200};
}

TEST(Compare, MatchesTurnsAndCountsChanges) {
  auto [cpu, h200] = cpu_run_and_rejudge();
  Comparison c = compare_runs(cpu, h200);
  EXPECT_EQ(c.both, 4);
  EXPECT_EQ(c.same, 2);  // compile_error, no_code
  EXPECT_EQ(c.only_before, 1);
  EXPECT_EQ(c.only_after, 1);
  EXPECT_EQ(c.categories.at("not_evaluated"), std::make_pair(3, 0));
  EXPECT_EQ(c.categories.at("passed"), std::make_pair(0, 1));
  EXPECT_EQ(c.changes.at({"not_evaluated", "incorrect"}), 1);
  EXPECT_EQ(c.changes.at({"not_evaluated", "passed_missing_instructions"}), 1);
  ASSERT_EQ(c.turns.size(), 6u);
  EXPECT_EQ(c.after.gpu, "NVIDIA H200, 580.159.04, 143771 MiB");
  Json j = to_json(c);
  EXPECT_EQ(j["turns"][0]["before"], "compile_error");
  EXPECT_TRUE(j["turns"].back()["after"].is_null());  // mha turn 3: only before
}

TEST(Compare, GoldenConsole) {
  auto [cpu, h200] = cpu_run_and_rejudge();
  std::ostringstream out;
  print_comparison(out, compare_runs(cpu, h200), /*all_turns=*/false);
  ptxbench::testing::expect_golden(out.str(), "src/report/testdata/compare_console.txt");
}

TEST(Compare, SharesPerTaskInConsoleAndJson) {
  auto [cpu, h200] = cpu_run_and_rejudge();
  Comparison c = compare_runs(cpu, h200);
  ASSERT_EQ(c.tasks.size(), 3u);  // gemm, mha, all
  EXPECT_EQ(c.tasks[0].task, "gemm");
  EXPECT_FALSE(c.tasks[0].before.correctness_known());  // the CPU run: not evaluated
  EXPECT_EQ(c.tasks[0].after.correct, 1);
  std::ostringstream out;
  print_comparison(out, c, false);
  EXPECT_NE(out.str().find("n/e -> 33%"), std::string::npos) << out.str();
  Json j = to_json(c);
  EXPECT_TRUE(j["tasks"][0]["before"]["shares"]["correct"].is_null());
  EXPECT_EQ(j["tasks"][2]["task"], "all");
  EXPECT_EQ(j["tasks"][2]["after"]["turns"], 5);
}

TEST(Compare, ControlBytesAreEscaped) {
  auto [cpu, h200] = cpu_run_and_rejudge();
  h200.provenance["host"] = "evil\x1b[2J";
  std::ostringstream out;
  print_comparison(out, compare_runs(cpu, h200), true);
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
  EXPECT_NE(out.str().find("\nturns:\n"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::report
