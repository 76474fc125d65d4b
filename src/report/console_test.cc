#include "report/console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/testing/golden.h"

namespace ptxbench::report {
namespace {

// A turn as the summary reads it: (turn, verdict, correct, arch, speedup, GPU skipped, compiled,
// targets met in the SASS, target families in the SASS).
store::StoredTurn point(int turn, judge::Disposition category, bool correct,
                        std::optional<bool> arch, std::optional<double> speedup, bool gpu_skipped,
                        bool compiled, bool targets_in_sass = false,
                        std::vector<std::string> families_in_sass = {}) {
  store::StoredTurn p;
  p.turn = turn;
  p.category = category;
  p.correct = correct;
  p.arch_executed = arch;
  p.speedup = speedup;
  p.gpu_skipped = gpu_skipped;
  p.compiled = compiled;
  p.targets_in_sass = targets_in_sass;
  p.families_in_sass = std::move(families_in_sass);
  return p;
}

RunData golden_run() {
  RunData d;
  d.path = "runs/example.db";
  d.created_at = "2026-11-29T09:00:00.000Z";
  d.status = store::RunStatus::done;
  d.trajectories = {
      {{"scripted/v1", "gemm_n7168_k5120", "sm_90a", 0},
       store::TrajectoryStatus::done,
       "script_end",
       {point(1, judge::Disposition::compile_error, false, {}, {}, false, false),
        point(2, judge::Disposition::incorrect, false, false, {}, false, true),
        point(3, judge::Disposition::passed_missing_instructions, true, false, 0.031, false, true),
        point(4, judge::Disposition::passed, true, true, 0.874, false, true)}},
      {{"scripted/v1", "mha_with_lse_d128", "sm_90a", 0},
       store::TrajectoryStatus::done,
       "target_reached",
       {point(1, judge::Disposition::compile_error, false, {}, {}, false, false),
        point(2, judge::Disposition::passed, true, true, 1.25, false, true)}},
      {{"scripted/v1", "gemm_n7168_k5120", "sm_100a", 0},
       store::TrajectoryStatus::done,
       "script_end",
       {point(1, judge::Disposition::compile_error, false, {}, {}, true, false),
        point(2, judge::Disposition::not_evaluated, false, {}, {}, true, true, true, {"tcgen05"})}},
      // An endpoint that never answered: failed, not a score of 0.
      {{"scripted/v1", "mha_with_lse_d128", "sm_90a", 1},
       store::TrajectoryStatus::failed,
       "error: model: chat request failed after 3 attempts",
       {}},
  };
  // What each turn spent: 1200 prompt and 300 completion tokens (100 reasoning), 2 s of
  // request, 3 CPU-s of nvcc for a turn that built, 4 GPU-s where a GPU judged it.
  for (auto& t : d.trajectories)
    for (auto& p : t.turns)
      p.cost = {
          1200, 300, 100, 2.0, *p.compiled ? 3.0 : 0.0, *p.compiled && !p.gpu_skipped ? 4.0 : 0.0};
  return d;
}

TEST(Console, GoldenTable) {
  std::ostringstream out;
  print_console(out, summarize(golden_run()));
  ptxbench::testing::expect_golden(out.str(), "src/report/testdata/summary_console.txt");
}

TEST(Console, GoldenJson) {
  std::ostringstream out;
  print_json(out, summarize(golden_run()));
  ptxbench::testing::expect_golden(out.str(), "src/report/testdata/summary.json");
}

TEST(Console, DollarsWithPrices) {
  std::ostringstream out;
  print_console(out, summarize(golden_run(), Prices{0.25, 1.0}));
  // sm_90a, all: 6 turns (7200 prompt, 1800 completion tokens): $0.0036; 3 correct kernels.
  EXPECT_NE(out.str().find("all sm_90a: 6 turns; tokens 7200 prompt + 1800 completion (600 "
                           "reasoning), $0.0036;"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("per correct kernel (3): 3000 tokens, 5.33 GPU-s, $0.0012"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("$: at the prices given"), std::string::npos);
}

TEST(Console, ControlBytesFromTheRunAreEscaped) {
  RunData d = golden_run();
  d.trajectories.back().key.model = "evil\x1b]0;pwned\x07";
  d.trajectories.back().stop_reason = "error: model: \x1b[2Jcleared";
  std::ostringstream out;
  print_console(out, summarize(d));
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("evil\\x1b]0;pwned\\x07"), std::string::npos) << out.str();
}

// A summary taken mid-run: a running trajectory is not a score of 0 (nor of anything yet).
TEST(Console, RunningTrajectoriesAreNotScoredYet) {
  RunData d = golden_run();
  d.trajectories[1].status =
      store::TrajectoryStatus::running;  // mha_with_lse_d128 #0: its passed turn 2 not final
  Summary s = summarize(d);
  bool seen = false;
  for (const auto& g : s.groups) {
    if (g.task != "mha_with_lse_d128" || g.arch != "sm_90a") continue;
    seen = true;
    EXPECT_EQ(g.unfinished, 1);
    EXPECT_EQ(g.failed, 1);
    EXPECT_EQ(g.scored, 0);
  }
  EXPECT_TRUE(seen);
  std::ostringstream out;
  print_console(out, s);
  EXPECT_NE(out.str().find("1 not finished (not scored yet)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("not finished: trajectories still running"), std::string::npos);
}

TEST(Console, EmptyRun) {
  RunData d;
  d.path = "x.db";
  d.status = store::RunStatus::running;
  std::ostringstream out;
  print_console(out, summarize(d));
  EXPECT_NE(out.str().find("no trajectories yet"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::report
