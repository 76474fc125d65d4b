#include "judge/decide.h"

#include <gtest/gtest.h>

#include "judge/testing/reports.h"

namespace ptxbench::judge {
namespace {

using testing::compiled;
using testing::evaluated;

audit::AuditResult audit_result(bool runtime, bool metric_passed) {
  audit::AuditResult a;
  a.route = runtime ? audit::Route::cupti : audit::Route::static_only;
  a.runtime_run = runtime;
  a.instruction_metric_evaluated = runtime;
  a.instruction_metric_passed = runtime && metric_passed;
  if (!runtime) a.messages.push_back("runtime audit not run: the candidate did not run");
  return a;
}

JudgeReport correct_and_audited(bool runtime, bool metric_passed) {
  JudgeReport r = evaluated(Outcome::passed);
  r.audit = audit_result(runtime, metric_passed);
  return r;
}

Disposition of(const JudgeReport& r) {
  return decide(r).disposition;
}

TEST(Decide, NoSourceIsNoCode) {
  EXPECT_EQ(of(JudgeReport{}), Disposition::no_code);
}

TEST(Decide, ACompilerThatCannotRunIsTheHarnesssFault) {
  JudgeReport r;
  r.has_code = true;
  r.compile = Failed{"nvcc not found"};
  Decision d = decide(r);
  EXPECT_EQ(d.disposition, Disposition::harness_error);
  EXPECT_NE(d.message.find("nvcc not found"), std::string::npos);
}

TEST(Decide, CompileOutcomes) {
  JudgeReport r = compiled();
  r.compile.done()->outcome = Outcome::policy_violation;
  EXPECT_EQ(of(r), Disposition::policy_violation);
  r.compile.done()->outcome = Outcome::compile_error;
  EXPECT_EQ(of(r), Disposition::compile_error);
  r.compile.done()->outcome = Outcome::harness_error;
  EXPECT_EQ(of(r), Disposition::harness_error);
}

TEST(Decide, ACompileTimeoutIsATimeoutExitingFourteen) {
  JudgeReport r = compiled();
  r.compile.done()->outcome = Outcome::compile_timeout;
  r.compile.done()->timed_out = true;
  r.compile.done()->summary = "the compiler timed out after 2 s";
  Decision d = decide(r);
  EXPECT_EQ(d.disposition, Disposition::timeout);
  EXPECT_EQ(exit_code(d.disposition), 14);
  EXPECT_EQ(d.message, "the compiler timed out after 2 s");
}

TEST(Decide, CompiledWithoutEvaluationIsNotEvaluated) {
  JudgeReport r = compiled();
  r.eval = Skipped{SkipCause::no_gpu, "no GPU"};
  r.audit = Skipped{SkipCause::no_gpu, "no GPU"};
  Decision d = decide(r);
  EXPECT_EQ(d.disposition, Disposition::not_evaluated);
  EXPECT_NE(d.message.find("no GPU"), std::string::npos);
  // An audit with the evaluation turned off (`ptxbench audit`) decides nothing.
  r.eval = Skipped{SkipCause::turned_off, "evaluation turned off"};
  r.audit = audit_result(true, false);
  EXPECT_EQ(of(r), Disposition::not_evaluated);
  // ... but an audit ptxbench could not run is its own failure.
  r.audit = Failed{"no disassembler"};
  EXPECT_EQ(of(r), Disposition::harness_error);
}

TEST(Decide, EvaluationOutcomes) {
  EXPECT_EQ(of(evaluated(Outcome::incorrect)), Disposition::incorrect);
  EXPECT_EQ(of(evaluated(Outcome::runtime_error)), Disposition::runtime_error);
  EXPECT_EQ(of(evaluated(Outcome::timeout)), Disposition::timeout);
  EXPECT_EQ(of(evaluated(Outcome::not_run)), Disposition::not_evaluated);
  EXPECT_EQ(of(evaluated(Outcome::compile_error)), Disposition::harness_error);
}

TEST(Decide, ASandboxRefusalIsAPolicyViolation) {
  Decision d = decide(evaluated(Outcome::policy_violation, "refused: ptrace"));
  EXPECT_EQ(d.disposition, Disposition::policy_violation);
  EXPECT_EQ(d.message, "refused: ptrace");
}

TEST(Decide, AHarnessErrorInEvaluationIsNeverTheCandidates) {
  Decision d = decide(evaluated(Outcome::harness_error, "the GPU worker does not exist"));
  EXPECT_EQ(d.disposition, Disposition::harness_error);
  EXPECT_FALSE(is_failure(d.disposition));
  EXPECT_EQ(d.message, "the GPU worker does not exist");
}

TEST(Decide, ALibraryThatFailsTheRuleMakesAMismatchTheTaskSuites) {
  Decision d = decide(evaluated(Outcome::task_suite_error, "the library fails too"));
  EXPECT_EQ(d.disposition, Disposition::task_suite_error);
  EXPECT_EQ(d.message, "the library fails too");
  EXPECT_EQ(of(evaluated(Outcome::task_suite_error)), Disposition::task_suite_error);
  // One mismatch of the library on one run is a note: the candidate's failure stays its own.
  JudgeReport r = evaluated(Outcome::incorrect);
  r.eval.done()->flags = {eval::Flag::baseline_incorrect};
  EXPECT_EQ(of(r), Disposition::incorrect);
}

TEST(Decide, CorrectAndExecutedIsPassed) {
  EXPECT_EQ(of(correct_and_audited(true, true)), Disposition::passed);
}

TEST(Decide, CorrectWithoutTheTargetInstructions) {
  EXPECT_EQ(of(correct_and_audited(true, false)), Disposition::passed_missing_instructions);
  // A static census never shows execution.
  Decision d = decide(correct_and_audited(false, true));
  EXPECT_EQ(d.disposition, Disposition::passed_missing_instructions);
  EXPECT_NE(d.message.find("the candidate did not run"), std::string::npos);
}

TEST(Decide, AnAuditPtxbenchCouldNotRunIsTheHarnesss) {
  JudgeReport r = evaluated(Outcome::passed);
  r.audit = Failed{"no disassembler"};
  EXPECT_EQ(of(r), Disposition::harness_error);
  r.audit = NotReached{};  // neither a result nor an error
  EXPECT_EQ(of(r), Disposition::harness_error);
}

TEST(Decide, AnAuditTurnedOffLeavesACorrectCandidatePassed) {
  JudgeReport r = evaluated(Outcome::passed);
  r.audit = Skipped{SkipCause::turned_off, kAuditTurnedOff};
  Decision d = decide(r);
  EXPECT_EQ(d.disposition, Disposition::passed);
  EXPECT_NE(d.message.find("turned off"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::judge
