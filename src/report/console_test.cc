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
