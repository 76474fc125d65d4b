// Golden text and JSON of `ptxbench eval` for every disposition (issue 37 item 3): a report
// of each kind, as decide() leaves it, printed by format_report and to_json. A change to what a
// user or a CI log reads shows as a diff of src/judge/testdata/eval_*.txt.
#include "judge/format.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/testing/golden.h"
#include "judge/decide.h"
#include "judge/testing/reports.h"

namespace ptxbench::judge {
namespace {

// A report of the compile stage's `outcome`, for the core GEMM on Hopper.
JudgeReport compiled(Outcome outcome = Outcome::passed, std::string log = "") {
  JudgeReport r = testing::compiled(outcome, std::move(log));
  r.task = "gemm_n7168_k5120";
  r.arch = "sm_90a";
  return r;
}

JudgeReport evaluated(Outcome o, std::string message = "") {
  JudgeReport r = testing::evaluated(o, std::move(message));
  r.task = "gemm_n7168_k5120";
  r.arch = "sm_90a";
  return r;
}

JudgeReport audited(bool executed) {
  JudgeReport r = evaluated(Outcome::passed);
  audit::AuditResult a;
  a.route = audit::Route::cupti;
  a.runtime_run = true;
  a.instruction_metric_evaluated = true;
  a.instruction_metric_passed = executed;
  r.audit = a;
  return r;
}

// One report per disposition (the table is checked to cover them all).
const std::vector<std::pair<Disposition, std::function<JudgeReport()>>>& cases() {
  static const std::vector<std::pair<Disposition, std::function<JudgeReport()>>> k = {
      {Disposition::no_code, [] { return JudgeReport{}; }},
      {Disposition::policy_violation,
       [] { return compiled(Outcome::policy_violation, "banned include <cublas_v2.h>"); }},
      {Disposition::compile_error,
       [] { return compiled(Outcome::compile_error, "k.cu(3): error: expected a ';'"); }},
      {Disposition::runtime_error,
       [] { return evaluated(Outcome::runtime_error, "an illegal memory access"); }},
      {Disposition::timeout, [] { return evaluated(Outcome::timeout, "did not finish in 20 s"); }},
      {Disposition::incorrect,
       [] { return evaluated(Outcome::incorrect, "the outputs fail the correctness rule"); }},
      {Disposition::passed_missing_instructions, [] { return audited(false); }},
      {Disposition::passed, [] { return audited(true); }},
      {Disposition::not_evaluated,
       [] {
         JudgeReport r = compiled();
         r.eval = Skipped{SkipCause::no_gpu, "no GPU here"};
         r.audit = Skipped{SkipCause::no_gpu, "no GPU here"};
         return r;
       }},
      {Disposition::harness_error,
       [] { return evaluated(Outcome::harness_error, "the verifier is gone"); }},
      {Disposition::task_suite_error,
       [] {
         return evaluated(Outcome::task_suite_error,
                          "the library itself fails this task's correctness rule");
       }},
  };
  return k;
}

TEST(Format, EveryDispositionsTextAndJsonAreGolden) {
  ASSERT_EQ(cases().size(), all_dispositions().size());
  for (const auto& [want, make] : cases()) {
    JudgeReport r = make();
    const Decision d = decide(r);
    ASSERT_EQ(d.disposition, want) << to_string(want) << ": " << d.message;
    r.disposition = d.disposition;
    r.message = d.message;
    const std::string text =
        format_report(r) + "\n--- --json ---\n" + to_text(r.to_json(), 2) + "\n";
    ptxbench::testing::expect_golden(
        text, "src/judge/testdata/eval_" + std::string(to_string(want)) + ".txt");
  }
}

// The report of every disposition reads back from its --json (report_json.cc): the same JSON,
// the same text, the same decision.
TEST(Format, EveryDispositionsJsonReadsBackTheSameReport) {
  for (const auto& [want, make] : cases()) {
    JudgeReport r = make();
    const Decision d = decide(r);
    r.disposition = d.disposition;
    r.message = d.message;
    auto back = JudgeReport::from_json(r.to_json());
    ASSERT_TRUE(back.ok()) << to_string(want) << ": " << back.error().to_string();
    EXPECT_EQ(to_text(back->to_json(), 2), to_text(r.to_json(), 2)) << to_string(want);
    EXPECT_EQ(format_report(*back), format_report(r)) << to_string(want);
    EXPECT_EQ(decide(*back).disposition, want);
    EXPECT_EQ(decide(*back).message, d.message) << to_string(want);
  }
}

}  // namespace
}  // namespace ptxbench::judge
