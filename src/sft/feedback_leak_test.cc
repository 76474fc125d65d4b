// Feedback leaks nothing hidden (issue 34 item 5): a candidate whose words on a hidden call name
// the hidden shape ("no tuned configuration for M=1000 N=7168 K=5120"), and the hidden call's
// label, go through every path to a model: the judge's result as the judging session leaves it
// (eval/call_failure.h), the judge's decision, the turn's facts, the feedback the model reads
// and the SFT repair prompt made from it. None of them may carry the shape or the label; the
// timed workload's failure still shows the candidate's words.
// Numbers the candidate controls after a hidden call (redteam34/gemm_leak_*): the figures of a
// public workload's wrong values once its process had run a hidden workload, and the executed
// counts of the instruction audit (its calls always follow the hidden checks).
#include <gtest/gtest.h>

#include <optional>

#include "audit/audit_result.h"
#include "eval/call_failure.h"
#include "judge/decide.h"
#include "run/feedback.h"
#include "run/stage_pipeline.h"
#include "sft/mine.h"

namespace ptxbench::run {
namespace {

constexpr const char* kShape = "no tuned configuration for M=1000 N=7168 K=5120";
constexpr const char* kLabel = "hidden workload m1000 (K=5120 M=1000 N=7168), input set 0 permuted";
// The shape, the label, the words; and what solves for M from a ragged tail's wrong values (its
// first bad row, the share of bad elements, the relative L2 error).
constexpr const char* kLeaks[] = {
    "1000", "7168", "5120",  "m1000", "hidden workload m1000", "no tuned configuration",
    "896",  "10.4", "0.3225"};

// The candidate's words wherever its process left them: its output, and a compute-sanitizer
// report (device printf can write lines that look like the sanitizer's).
eval::EvalResult with_candidate_output(Outcome outcome, const std::string& message) {
  eval::EvalResult r;
  r.outcome = outcome;
  r.message = message;
  r.phase = kLabel;
  r.worker_stderr_tail = std::string(kShape) + "\n";
  r.worker_stdout_tail = kShape;
  r.memcheck_ran = true;
  r.memcheck_report = std::string("Invalid __global__ read: ") + kShape;
  r.faulting_kernel = "gemm_kernel(const bf16*)";
  return r;
}

// A hidden call's failure as the judging session records it (judge_session_peers.cc).
eval::EvalResult hidden_failure(Outcome outcome, eval::CallFault fault,
                                const std::string& message) {
  eval::EvalResult r = with_candidate_output(outcome, message);
  r.failed_on = eval::FailedOn::hidden;
  r.failed_kind = task::HiddenKind::ragged;
  eval::withhold(r, fault, eval::Withhold::hidden_call, kLabel,
                 eval::hidden_phase(r, task::Family::gemm));
  return r;
}

// Wrong values on the hidden workload (judge_session.cc decide, session_decision.cc judge_calls).
eval::EvalResult hidden_wrong_values() {
  eval::EvalResult r = with_candidate_output(
      Outcome::incorrect, "call 3 of the session (a hidden workload): the outputs fail the rule");
  r.failed_on = eval::FailedOn::hidden;
  r.failed_kind = task::HiddenKind::small;
  r.failed_under_load = true;
  r.phase = eval::hidden_phase(r, task::Family::gemm);
  r.withheld = kLabel;
  eval::TrialReport t;
  t.index = 2;
  t.label = kLabel;
  t.hidden = true;
  gpu::CompareStats c;
  c.tensor = "C";
  c.numel = 1000 * 7168;  // counts and positions give the shape away
  c.failed = 104 * 7168;
  c.rel_l2 = 0.3225;
  c.first_bad.push_back({896 * 7168, {896, 0}, 0, 0, 0.0f, 1.5f});
  t.outputs = {c};
  r.trials = {t};
  return r;
}

// Wrong values on the timed workload, on a call made after the process had run a hidden one:
// the kernel wrote the hidden M into its error count and its first bad element.
eval::EvalResult timed_wrong_values_after_hidden(bool after_hidden) {
  eval::EvalResult r = with_candidate_output(
      Outcome::incorrect, "call 7 of the session (timed workload): the outputs fail the rule");
  r.failed_on = eval::FailedOn::timed;
  r.phase = "timed workload timed (K=5120 M=8192 N=7168), input set 2 permuted";
  r.worker_stderr_tail.clear();  // the candidate's text is not what this test is about
  r.worker_stdout_tail.clear();
  r.memcheck_report.clear();
  eval::TrialReport t;
  t.index = 6;
  t.label = r.phase;
  t.workload = "timed";
  t.after_hidden = after_hidden;
  gpu::CompareStats c;
  c.tensor = "C";
  c.numel = 8192 * 7168;
  c.failed = 1000;  // = the hidden M
  c.max_abs_err = 10.4;
  c.rel_l2 = 0.3225;
  c.first_bad.push_back({896 * 7168, {896, 0}, 0, 0, 0.0f, 1.5f});
  t.outputs = {c};
  r.trials = {t};
  return r;
}

// What the model reads after the turn, and the SFT repair prompt made from it.
std::pair<std::string, std::string> model_text(const eval::EvalResult& e,
                                               std::optional<audit::AuditResult> audit = {}) {
  judge::JudgeReport report;
  report.has_code = true;
  compile::CompileResult compiled;
  compiled.outcome = Outcome::passed;
  report.compile = std::move(compiled);
  report.eval = e;
  if (audit) report.audit = std::move(*audit);
  const judge::Decision d = judge::decide(report);
  report.disposition = d.disposition;
  report.message = d.message;
  const TurnVerdict v{std::nullopt, report};
  const std::string feedback = build_feedback(v, {2, 8, 1.2, "sm_90a"});
  sft::Seed seed;
  seed.task_message = "TASK";
  seed.wrong_source = "__global__ void k() {}";
  seed.category = std::string(judge::to_string(d.disposition));
  seed.feedback = feedback;
  return {feedback, sft::repair_request(seed)};
}

void expect_nothing_hidden(const eval::EvalResult& e, const std::string& path) {
  const auto [feedback, prompt] = model_text(e);
  for (const char* leak : kLeaks) {
    EXPECT_EQ(feedback.find(leak), std::string::npos) << path << " leaks " << leak << ":\n"
                                                      << feedback;
    EXPECT_EQ(prompt.find(leak), std::string::npos) << path << " (SFT) leaks " << leak;
  }
  EXPECT_NE(feedback.find("hidden workload"), std::string::npos) << path << ":\n" << feedback;
}

TEST(FeedbackLeak, AHiddenCallsFailureReachesNoModelWithItsShapeOrLabel) {
  using eval::CallFault;
  expect_nothing_hidden(hidden_failure(Outcome::runtime_error, CallFault::exception, kShape),
                        "runtime error");
  expect_nothing_hidden(hidden_failure(Outcome::timeout, CallFault::timeout, kShape), "timeout");
  expect_nothing_hidden(hidden_wrong_values(), "incorrect");
  expect_nothing_hidden(
      hidden_failure(Outcome::policy_violation, CallFault::syscall_refused,
                     std::string("the sandbox refused the system call openat on /") + kShape),
      "policy violation");
  expect_nothing_hidden(
      hidden_failure(Outcome::policy_violation, CallFault::driver_refused,
                     std::string("the candidate fetched the CUDA driver function `") + kShape),
      "driver refusal");
  expect_nothing_hidden(
      hidden_failure(Outcome::runtime_error, CallFault::process_ended,
                     "the candidate's process ended during the call: exit code 1000"),
      "the host process's end");
  expect_nothing_hidden(hidden_failure(Outcome::harness_error, CallFault::judge_failed,
                                       std::string("the verifier failed to prepare: ") + kShape),
                        "the judge's failure");
}

// What a model may know of a failing hidden call: its kind in words (the promise's class, public
// in docs/task-spec.md) and whether the SM load held, so it knows what to repair.
TEST(FeedbackLeak, AHiddenCallsFailureNamesItsKindInWords) {
  const auto [wrong, wrong_prompt] = model_text(hidden_wrong_values());
  EXPECT_NE(
      wrong.find(
          "a hidden workload with a small M (below 64), while another kernel held some of the SMs"),
      std::string::npos)
      << wrong;
  EXPECT_NE(wrong_prompt.find("a small M (below 64)"), std::string::npos);
  const auto [fault, fault_prompt] =
      model_text(hidden_failure(Outcome::runtime_error, eval::CallFault::exception, kShape));
  EXPECT_NE(fault.find("an M that is not a multiple of 8 (below 1024)"), std::string::npos)
      << fault;
}

// The timed workload is public: its failure shows the candidate's words and the sanitizer's.
TEST(FeedbackLeak, TheTimedWorkloadsFailureShowsTheCandidatesWords) {
  eval::EvalResult r = with_candidate_output(Outcome::runtime_error, kShape);
  r.failed_on = eval::FailedOn::timed;
  r.phase = "timed workload timed (K=5120 M=8192 N=7168), input set 0 permuted";
  const auto [feedback, prompt] = model_text(r);
  EXPECT_NE(feedback.find(kShape), std::string::npos) << feedback;
  EXPECT_NE(feedback.find("Invalid __global__ read"), std::string::npos) << feedback;
  EXPECT_NE(prompt.find(kShape), std::string::npos);
}

// A public workload's wrong values after a hidden call: which output and which workload, never
// the figures (the control: the same call before any hidden one shows them).
TEST(FeedbackLeak, WrongValuesAfterAHiddenCallShowNoFigures) {
  const eval::EvalResult after = timed_wrong_values_after_hidden(true);
  const auto [feedback, prompt] = model_text(after);
  for (const char* leak : {"1000", "896", "10.4", "0.3225"}) {
    EXPECT_EQ(feedback.find(leak), std::string::npos) << "leaks " << leak << ":\n" << feedback;
    EXPECT_EQ(prompt.find(leak), std::string::npos) << "(SFT) leaks " << leak;
    EXPECT_EQ(after.feedback().find(leak), std::string::npos) << "eval leaks " << leak;
  }
  EXPECT_NE(feedback.find("output C on workload `timed`: wrong values"), std::string::npos)
      << feedback;
  const auto [before, before_prompt] = model_text(timed_wrong_values_after_hidden(false));
  EXPECT_NE(before.find("1000 of"), std::string::npos) << before;
  EXPECT_NE(timed_wrong_values_after_hidden(false).feedback().find("1000"), std::string::npos);
}

// The audit's executed counts never reach a model: its calls follow the hidden checks.
TEST(FeedbackLeak, AnExecutedFamilyShowsNoCount) {
  eval::EvalResult e;
  e.outcome = Outcome::passed;
  audit::AuditResult a;
  a.route = audit::Route::cupti;
  a.runtime_run = true;
  a.rule = "any";
  audit::FamilyResult w;
  w.name = "wgmma";
  w.target = true;
  w.verdict = audit::Verdict::executed;
  w.warp_executed = 7168000;
  w.thread_pred_on = 1000 * 7168;
  a.families = {w};
  a.target_families = {"wgmma"};
  a.instruction_metric_evaluated = true;
  a.instruction_metric_passed = true;
  const auto [feedback, prompt] = model_text(e, a);
  EXPECT_NE(feedback.find("wgmma: executed"), std::string::npos) << feedback;
  for (const char* leak : {"7168000", "1000"})
    EXPECT_EQ(feedback.find(leak), std::string::npos) << "leaks " << leak << ":\n" << feedback;
}

}  // namespace
}  // namespace ptxbench::run
