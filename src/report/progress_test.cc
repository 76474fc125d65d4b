#include "report/progress.h"

#include <gtest/gtest.h>

#include <sstream>

#include "judge/testing/named.h"

namespace ptxbench::report {
namespace {

using Kind = run::ProgressEvent::Kind;

run::ProgressEvent ev(Kind k, int turn, std::string cat = {}, std::string reason = {}) {
  run::ProgressEvent e{k, {"m", "gemm", "sm_90a", 0}};
  e.turn = turn;
  if (!cat.empty()) e.category = judge::testing::named(cat);
  e.correct = e.category == judge::Disposition::passed;
  e.status = store::TrajectoryStatus::done;
  e.stop_reason = std::move(reason);
  return e;
}

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::ostringstream out;
  ProgressDisplay p(out, false);
  p.plan(2, 1, 8);
  p.on_event(ev(Kind::started, 2));
  p.on_event(ev(Kind::turn_done, 3, "passed"));
  p.on_event(ev(Kind::finished, 3, "", "target_reached"));
  p.close();
  EXPECT_EQ(out.str(),
            "2 trajectories, up to 8 turns each; 1 already done (resumed)\n"
            "start  gemm sm_90a (resuming after turn 2)\n"
            "turn   gemm sm_90a 3/8: passed\n"
            "done   gemm sm_90a after 3 turns: target_reached\n");
}

TEST(Progress, TerminalRewritesOneStatusLine) {
  std::ostringstream out;
  ProgressDisplay p(out, true);
  p.plan(1, 0, 8);
  p.on_event(ev(Kind::started, 0));
  p.on_event(ev(Kind::turn_done, 1, "passed"));
  p.close();
  std::string s = out.str();
  EXPECT_NE(s.find("\r\033[2K"), std::string::npos);
  EXPECT_NE(s.find("[0/1 done, 1 turns, 1 correct, 0 reached target"), std::string::npos);
  EXPECT_NE(s.find("gemm:t2"), std::string::npos);
  EXPECT_EQ(s.back(), '\n');
}

}  // namespace
}  // namespace ptxbench::report
