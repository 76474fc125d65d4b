// The one rule for the sessions under a tool (tool_session.h): the candidate's failure there is
// its verdict; the judge's own failure there (its broker's sandbox refusal included) is not.
#include "eval/tool_session.h"

#include <gtest/gtest.h>

#include "sandbox/refusal.h"

namespace ptxbench::eval {
namespace {

EvalResult ended(Outcome o, int broker_exit = -1) {
  EvalResult e;
  e.outcome = o;
  e.message = "the session's own words";
  e.broker_exit_code = broker_exit;
  return e;
}

TEST(ToolSession, EveryOutcomeHasOneEnd) {
  EXPECT_EQ(tool_session_end(ended(Outcome::passed)), ToolSessionEnd::passed);
  for (Outcome o :
       {Outcome::incorrect, Outcome::runtime_error, Outcome::timeout, Outcome::policy_violation})
    EXPECT_EQ(tool_session_end(ended(o)), ToolSessionEnd::candidate_failed) << to_string(o);
  for (Outcome o : {Outcome::harness_error, Outcome::task_suite_error})
    EXPECT_EQ(tool_session_end(ended(o)), ToolSessionEnd::judge_failed) << to_string(o);
  for (Outcome o :
       {Outcome::not_run, Outcome::no_code, Outcome::compile_error, Outcome::compile_timeout})
    EXPECT_EQ(tool_session_end(ended(o)), ToolSessionEnd::no_verdict) << to_string(o);
  // The broker's sandbox refused a call under the tool: the tool's, whatever the session said.
  EXPECT_EQ(tool_session_end(ended(Outcome::runtime_error, kSandboxRefusalExit)),
            ToolSessionEnd::judge_failed);
  EXPECT_EQ(tool_session_end(ended(Outcome::runtime_error, 1)), ToolSessionEnd::candidate_failed);
  for (ToolSessionEnd e : kToolSessionEnds) EXPECT_FALSE(to_string(e).empty());
}

// A throw (runtime_error), a hang (timeout) or a refusal of the candidate's process
// (policy_violation) under the tool ends the pass as wrong outputs do, with the session's
// failing workload, withheld text and guard flags (leak3/ncu_session_throw_keeps_pass.cu).
TEST(ToolSession, TheCandidatesFailureBecomesTheVerdict) {
  for (Outcome o :
       {Outcome::incorrect, Outcome::runtime_error, Outcome::timeout, Outcome::policy_violation}) {
    EvalResult tool = ended(o);
    tool.phase = "a hidden workload";
    tool.failed_on = FailedOn::hidden;
    tool.withheld = "the hidden call's label";
    tool.add_flag(Flag::inputs_modified);
    tool.add_flag(Flag::network_not_isolated);  // describes that session, not the failure
    EvalResult r = ended(Outcome::passed);
    r.message = "passed";
    EXPECT_EQ(adopt_tool_session_failure(tool, "under Nsight Compute: ", r),
              ToolSessionEnd::candidate_failed);
    EXPECT_EQ(r.outcome, o);
    EXPECT_EQ(r.message, "under Nsight Compute: the session's own words");
    EXPECT_EQ(r.phase, "a hidden workload");
    EXPECT_EQ(r.failed_on, FailedOn::hidden);
    EXPECT_EQ(r.withheld, "the hidden call's label");
    EXPECT_TRUE(r.has_flag(Flag::inputs_modified));
    EXPECT_FALSE(r.has_flag(Flag::network_not_isolated));
  }
}

TEST(ToolSession, TheJudgesFailureOrAnEarlierVerdictLeavesTheResult) {
  EvalResult r = ended(Outcome::passed);
  r.message = "passed";
  EXPECT_EQ(adopt_tool_session_failure(ended(Outcome::harness_error), "under x: ", r),
            ToolSessionEnd::judge_failed);
  EXPECT_EQ(adopt_tool_session_failure(ended(Outcome::timeout, kSandboxRefusalExit), "x: ", r),
            ToolSessionEnd::judge_failed);
  EXPECT_EQ(r.outcome, Outcome::passed);
  EXPECT_EQ(r.message, "passed");
  EvalResult wrong = ended(Outcome::incorrect);
  wrong.message = "wrong first";
  EXPECT_EQ(adopt_tool_session_failure(ended(Outcome::timeout), "x: ", wrong),
            ToolSessionEnd::candidate_failed);
  EXPECT_EQ(wrong.outcome, Outcome::incorrect);  // the first failure stands
  EXPECT_EQ(wrong.message, "wrong first");
}

}  // namespace
}  // namespace ptxbench::eval
