#include "report/task_shares.h"

#include <gtest/gtest.h>

#include <sstream>

#include "judge/testing/named.h"

namespace ptxbench::report {
namespace {

// A turn as a run stores it. Without a GPU a compiled turn is not_evaluated, GPU skipped.
store::StoredTurn cpu_turn(int turn, const std::string& cat) {
  store::StoredTurn p;
  p.turn = turn;
  p.category = judge::testing::named(cat);
  p.compiled = cat == "not_evaluated";
  p.gpu_skipped = *p.compiled;
  return p;
}

store::StoredTurn gpu_turn(int turn, const std::string& cat, bool arch) {
  store::StoredTurn p;
  p.turn = turn;
  p.category = judge::testing::named(cat);
  p.compiled = cat != "no_code" && cat != "compile_error";
  p.correct = cat.starts_with("passed");
  if (*p.compiled) p.arch_executed = arch;
  return p;
}

// A base model and the same model fine-tuned, both run without a GPU.
std::pair<RunData, RunData> base_and_tuned() {
  RunData base, tuned;
  base.trajectories = {{{"m", "gemm", "sm_90a", 0},
                        store::TrajectoryStatus::done,
                        "",
                        {cpu_turn(1, "no_code"), cpu_turn(2, "no_code")}},
                       {{"m", "gemm", "sm_90a", 1},
                        store::TrajectoryStatus::done,
                        "",
                        {cpu_turn(1, "compile_error"), cpu_turn(2, "no_code")}},
                       {{"m", "mha", "sm_90a", 0},
                        store::TrajectoryStatus::done,
                        "",
                        {cpu_turn(1, "no_code"), cpu_turn(2, "no_code")}}};
  tuned.trajectories = {{{"m", "gemm", "sm_90a", 0},
                         store::TrajectoryStatus::done,
                         "",
                         {cpu_turn(1, "compile_error"), cpu_turn(2, "not_evaluated")}},
                        {{"m", "gemm", "sm_90a", 1},
                         store::TrajectoryStatus::done,
                         "",
                         {cpu_turn(1, "compile_error"), cpu_turn(2, "no_code")}},
                        {{"m", "mha", "sm_90a", 0},
                         store::TrajectoryStatus::done,
                         "",
                         {cpu_turn(1, "compile_error"), cpu_turn(2, "no_code")}}};
  return {base, tuned};
}

TEST(TaskShares, CountsPerTaskThenAll) {
  auto [base, tuned] = base_and_tuned();
  auto rows = task_shares(base, tuned);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].task, "gemm");
  EXPECT_EQ(rows[1].task, "mha");
  EXPECT_EQ(rows[2].task, "all");
  EXPECT_EQ(rows[2].arch, "sm_90a");
  const TaskShares& gemm = rows[0];
  EXPECT_EQ(gemm.before.turns, 4);
  EXPECT_EQ(gemm.before.with_code, 1);
  EXPECT_EQ(gemm.before.compile_errors, 1);
  EXPECT_EQ(gemm.after.with_code, 3);
  EXPECT_EQ(gemm.after.compile_errors, 2);
  EXPECT_EQ(gemm.categories.at("no_code"), std::make_pair(3, 1));
  EXPECT_EQ(gemm.categories.at("not_evaluated"), std::make_pair(0, 1));
  EXPECT_EQ(rows[2].before.turns, 6);
  EXPECT_EQ(rows[2].after.with_code, 4);
  EXPECT_EQ(rows[2].categories.at("compile_error"), std::make_pair(1, 3));
}

TEST(TaskShares, CorrectIsUnknownWhereTheGpuStagesWereSkipped) {
  auto [base, tuned] = base_and_tuned();
  auto rows = task_shares(base, tuned);
  // Before, nothing compiled: nothing could be correct (known, 0). After, gemm compiled a
  // turn that no GPU ran: unknown. mha compiled nothing in either run.
  EXPECT_EQ(rows[0].before.gpu_stages, GpuStages::not_reached);
  EXPECT_TRUE(rows[0].before.correctness_known());
  EXPECT_EQ(rows[0].after.gpu_stages, GpuStages::skipped);
  EXPECT_FALSE(rows[0].after.correctness_known());
  EXPECT_TRUE(rows[1].after.correctness_known());
  Json j = to_json(rows);
  EXPECT_EQ(j[0]["before"]["shares"]["correct"], 0.0);
  EXPECT_TRUE(j[0]["after"]["shares"]["correct"].is_null());
  EXPECT_TRUE(j[0]["after"]["shares"]["correct_with_arch"].is_null());
  EXPECT_EQ(j[0]["after"]["shares"]["with_code"], 0.75);
  EXPECT_EQ(j[0]["after"]["gpu_stages"], "skipped");
  std::ostringstream out;
  print_task_shares(out, rows);
  EXPECT_NE(out.str().find("0% -> n/e"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("25% -> 75%"), std::string::npos) << out.str();
}

TEST(TaskShares, CorrectAndCorrectWithArchOnAGpu) {
  RunData before, after;
  before.trajectories = {{{"m", "gemm", "sm_90a", 0},
                          store::TrajectoryStatus::done,
                          "",
                          {gpu_turn(1, "incorrect", false), gpu_turn(2, "compile_error", false)}}};
  after.trajectories = {
      {{"m", "gemm", "sm_90a", 0},
       store::TrajectoryStatus::done,
       "",
       {gpu_turn(1, "passed_missing_instructions", false), gpu_turn(2, "passed", true),
        gpu_turn(3, "passed", true), gpu_turn(4, "no_code", false)}}};
  auto rows = task_shares(before, after);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].after.correct, 3);
  EXPECT_EQ(rows[0].after.correct_with_arch, 2);
  EXPECT_EQ(rows[0].after.gpu_stages, GpuStages::run);
  Json j = to_json(rows);
  EXPECT_EQ(j[0]["before"]["shares"]["correct"], 0.0);
  EXPECT_EQ(j[0]["after"]["shares"]["correct"], 0.75);
  EXPECT_EQ(j[0]["after"]["shares"]["correct_with_arch"], 0.5);
  std::ostringstream out;
  print_task_shares(out, rows);
  EXPECT_NE(out.str().find("0% -> 75%"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("0% -> 50%"), std::string::npos) << out.str();
}

TEST(TaskShares, ATaskInOneRunOnly) {
  auto [base, tuned] = base_and_tuned();
  tuned.trajectories.pop_back();  // mha not run after
  auto rows = task_shares(base, tuned);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].task, "mha");
  EXPECT_EQ(rows[1].after.turns, 0);
  EXPECT_EQ(share_text(rows[1].after.with_code, rows[1].after.turns), "-");
  EXPECT_TRUE(to_json(rows)[1]["after"]["shares"]["with_code"].is_null());
  EXPECT_EQ(share_text(1, 3), "33%");
  EXPECT_EQ(share_text(2, 3), "67%");
}

TEST(TaskShares, EveryArchHasItsOwnTotal) {
  auto [base, tuned] = base_and_tuned();
  tuned.trajectories[0].key.arch = "sm_100a";
  auto rows = task_shares(base, tuned);
  // gemm sm_100a, gemm sm_90a, mha sm_90a, then all sm_100a, all sm_90a.
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].arch, "sm_100a");
  EXPECT_EQ(rows[0].before.turns, 0);
  EXPECT_EQ(rows[0].after.turns, 2);
  EXPECT_EQ(rows[3].task, "all");
  EXPECT_EQ(rows[3].arch, "sm_100a");
  EXPECT_EQ(rows[4].before.turns, 6);
  EXPECT_EQ(rows[4].after.turns, 4);
}

TEST(TaskShares, ControlBytesAreEscaped) {
  auto [base, tuned] = base_and_tuned();
  base.trajectories[0].key.task = "evil\x1b[2J";
  std::ostringstream out;
  print_task_shares(out, task_shares(base, tuned));
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::report
