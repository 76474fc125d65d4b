#include "report/console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "session/golden.h"

namespace ptxbench::report {
namespace {

RunData golden_run() {
  RunData d;
  d.path = "runs/example.db";
  d.created_at = "2026-11-29T09:00:00.000Z";
  d.status = "done";
  d.trajectories = {
      {{"scripted/v1", "gemm_n7168_k5120", "sm_90a", 0},
       "done",
       "script_end",
       {{1, "compile_error", false, {}, {}, false, false},
        {2, "incorrect", false, false, {}, false, true},
        {3, "passed_missing_instructions", true, false, 0.031, false, true},
        {4, "passed", true, true, 0.874, false, true}}},
      {{"scripted/v1", "mha_with_lse_d128", "sm_90a", 0},
       "done",
       "target_reached",
       {{1, "compile_error", false, {}, {}, false, false},
        {2, "passed", true, true, 1.25, false, true}}},
      {{"scripted/v1", "gemm_n7168_k5120", "sm_100a", 0},
       "done",
       "script_end",
       {{1, "compile_error", false, {}, {}, true, false},
        {2, "not_evaluated", false, {}, {}, true, true, true, {"tcgen05"}}}},
      // An endpoint that never answered: failed, not a score of 0.
      {{"scripted/v1", "mha_with_lse_d128", "sm_90a", 1},
       "failed",
       "error: model: chat request failed after 3 attempts",
       {}},
  };
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
  d.trajectories[1].status = "running";  // mha_with_lse_d128 #0: its passed turn 2 not final
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
  d.status = "running";
  std::ostringstream out;
  print_console(out, summarize(d));
  EXPECT_NE(out.str().find("no trajectories yet"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::report
