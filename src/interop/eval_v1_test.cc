// The ptxbench.eval.v1 envelope of each kind of verdict, pinned (PTXBENCH_UPDATE_GOLDEN=1
// rewrites src/interop/testdata/eval_v1_*.json; review the diff).
#include "interop/eval_v1.h"

#include <gtest/gtest.h>

#include "core/testing/golden.h"
#include "judge/testing/reports.h"

namespace ptxbench::interop {
namespace {

constexpr char kSource[] = "__global__ void k() {}\n";

EvalV1Context context() {
  EvalV1Context c;
  c.task_id = "gemm-n7168-k5120-m8192-h100";
  c.workload_uuids = {"94920358-01a8-4c5b-9209-3103fd490e94"};
  c.target_speedup = 1.0;
  c.requested_sanitizer_runs = 2;
  c.labels.definition = "gemm_n7168_k5120";
  c.labels.solution = "eval_kernel";
  c.labels.timestamp = "2026-12-06T12:00:00.000Z";
  c.labels.timed_uuid = "94920358-01a8-4c5b-9209-3103fd490e94";
  c.labels.timed_axes = {{"M", 8192}, {"N", 7168}, {"K", 5120}};
  c.labels.inputs = {"A", "B"};
  return c;
}

eval::TrialReport trial(bool hidden, bool passed, double max_abs) {
  eval::TrialReport t;
  t.hidden = hidden;
  t.passed = passed;
  t.workload = hidden ? "" : "timed";
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 100;
  s.max_abs_err = max_abs;
  s.max_rel_err = max_abs / 4;
  s.rel_l2 = max_abs / 100;
  s.failed = passed ? 0 : 3;
  s.mismatch_ratio = passed ? 0 : 0.03;
  s.passed = passed;
  t.outputs.push_back(s);
  return t;
}

judge::JudgeReport evaluated(Outcome outcome, judge::Disposition d) {
  judge::JudgeReport r = judge::testing::evaluated(outcome, "");
  r.task = "gemm_n7168_k5120";
  r.arch = "sm_90a";
  r.compile.done()->log = "ptxas info    : Used 168 registers";
  r.eval.done()->seed = 42;
  r.eval.done()->memcheck_ran = true;
  r.eval.done()->provenance = {
      {"gpu", "NVIDIA H100 80GB HBM3"}, {"driver", "580.65"}, {"sm_count", 132}};
  r.disposition = d;
  return r;
}

std::string envelope(const judge::JudgeReport& r) {
  return to_text(eval_v1_fields(r, context(), kSource), 2) + "\n";
}

TEST(EvalV1, Passed) {
  judge::JudgeReport r = evaluated(Outcome::passed, judge::Disposition::passed);
  r.eval.done()->trials = {trial(false, true, 0.002), trial(true, true, 0.004)};
  eval::TimingReport t;
  t.workload = "timed";
  t.candidate.median = 2.0;
  t.baseline.median = 2.5;
  t.speedup = 1.25;
  r.eval.done()->timing = t;
  audit::AuditResult a;
  a.route = audit::Route::cupti;
  a.runtime_run = true;
  a.target_families = {"wgmma", "tma"};
  a.families = {{"wgmma", true, audit::Verdict::executed},
                {"tma", true, audit::Verdict::present_not_executed}};
  a.instruction_metric_evaluated = a.instruction_metric_passed = true;
  a.coverage.available = true;
  a.coverage.ratio = 0.97;
  r.audit = a;
  const std::string e = envelope(r);
  ptxbench::testing::expect_golden(e, "src/interop/testdata/eval_v1_passed.json");
  const Json j = parse_json(e);
  EXPECT_EQ(j["schema"], "ptxbench.eval.v1");
  EXPECT_EQ(j["status"], "PASSED");
  EXPECT_EQ(j["all_passed"], true);
  EXPECT_EQ(j["min_speedup"], 1.25);
  EXPECT_EQ(j["target_met"], true);
  EXPECT_EQ(j["traces"][0]["evaluation"]["performance"]["speedup_factor"], 1.25);
  EXPECT_EQ(j["traces"][0]["evaluation"]["correctness"]["max_absolute_error"], 0.004);
  const Json& audit = j["traces"][0]["evaluation"]["correctness"]["extra"]["ptxbench"]["audit"];
  EXPECT_EQ(audit["families"]["wgmma"], "executed");
  EXPECT_EQ(audit["tensor_flop_coverage"], 0.97);
}

// The report's flags reach the trace from the typed record (JudgeReport::flags_json), and a
// judged candidate reads the same from the report as from the turn a run stores of it.
TEST(EvalV1, TheReportAndItsStoredTurnAreOneJudgedCandidate) {
  judge::JudgeReport r = evaluated(Outcome::passed, judge::Disposition::passed);
  r.eval.done()->trials = {trial(false, true, 0.002)};
  r.eval.done()->add_flag(eval::Flag::timing_unstable);
  r.eval.done()->message = "m";
  r.message = "m";
  const Json j = eval_v1_fields(r, context(), kSource);
  EXPECT_EQ(j["traces"][0]["evaluation"]["correctness"]["extra"]["ptxbench"]["flags"],
            Json::array({"timing_unstable"}));
  store::TurnRow row;
  row.category = r.disposition;
  row.compile = r.compile_json();
  row.eval = r.eval_json();
  row.audit = r.audit_json();
  row.flags = r.flags_json();
  const JudgedCandidate a = judged_candidate(r);
  auto b = judged_candidate(row);
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  EXPECT_EQ(a.report.disposition, b->report.disposition);
  EXPECT_EQ(a.report.message, b->report.message);
  EXPECT_EQ(a.report.compile_json(), b->report.compile_json());
  EXPECT_EQ(a.report.eval_json(), b->report.eval_json());
  EXPECT_EQ(a.report.audit_json(), b->report.audit_json());
  EXPECT_EQ(a.flags, b->flags);
  EXPECT_EQ(fib_trace(a, context().labels), fib_trace(*b, context().labels));
  row.eval = Json{{"outcome", "eaten"}};  // a part that is no evaluation is named
  auto bad = judged_candidate(row);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().to_string().find("the eval part"), std::string::npos);
  EXPECT_EQ(judged_candidate(judge::JudgeReport{}).flags, Json::array());  // no evaluation
}

TEST(EvalV1, SlowerThanTheTargetIsNotMet) {
  judge::JudgeReport r = evaluated(Outcome::passed, judge::Disposition::passed);
  eval::TimingReport t;
  t.speedup = 0.8;
  r.eval.done()->timing = t;
  const Json j = eval_v1_fields(r, context(), kSource);
  EXPECT_EQ(j["all_passed"], true);
  EXPECT_EQ(j["target_met"], false);
}

TEST(EvalV1, CorrectWithoutTheTargetInstructionsIsPassedAsTheReferenceDefinesIt) {
  judge::JudgeReport r =
      evaluated(Outcome::passed, judge::Disposition::passed_missing_instructions);
  const Json j = eval_v1_fields(r, context(), kSource);
  EXPECT_EQ(j["status"], "PASSED");
  EXPECT_EQ(j["all_passed"], true);
  EXPECT_EQ(j["traces"][0]["evaluation"]["correctness"]["extra"]["ptxbench"]["disposition"],
            "passed_missing_instructions");
}

TEST(EvalV1, Incorrect) {
  judge::JudgeReport r = evaluated(Outcome::incorrect, judge::Disposition::incorrect);
  r.eval.done()->trials = {trial(false, true, 0.002), trial(true, false, 0.5)};
  r.eval.done()->add_flag(eval::Flag::side_stream);
  r.message = "C: 3 of 100 elements fail the rule on a hidden workload";
  ptxbench::testing::expect_golden(envelope(r), "src/interop/testdata/eval_v1_incorrect.json");
}

TEST(EvalV1, CompileError) {
  judge::JudgeReport r = judge::testing::compiled(Outcome::compile_error, "kernel.cu(3): error");
  r.disposition = judge::Disposition::compile_error;
  r.message = "nvcc rejected the kernel";
  const std::string e = envelope(r);
  ptxbench::testing::expect_golden(e, "src/interop/testdata/eval_v1_compile_error.json");
  const Json j = parse_json(e);
  EXPECT_EQ(j["min_speedup"], nullptr);
  EXPECT_EQ(j["sanitizer"]["completed_runs"], 0);
  EXPECT_FALSE(j["traces"][0]["evaluation"].contains("correctness"));
}

TEST(EvalV1, NotEvaluatedIsAnInfrastructureError) {
  judge::JudgeReport r = judge::testing::compiled();
  r.disposition = judge::Disposition::not_evaluated;
  r.message = "no GPU here";
  const std::string e = envelope(r);
  ptxbench::testing::expect_golden(e, "src/interop/testdata/eval_v1_not_evaluated.json");
  const Json j = parse_json(e);
  EXPECT_EQ(j["status"], "INFRA_ERROR");
  EXPECT_EQ(j["error"], "not_evaluated: no GPU here");
  EXPECT_TRUE(j["traces"].empty());
  EXPECT_EQ(j["all_passed"], false);
}

TEST(EvalV1, EveryDispositionHasAStatus) {
  for (judge::Disposition d : judge::all_dispositions()) {
    judge::JudgeReport r = evaluated(Outcome::passed, d);
    const std::string status = eval_v1_fields(r, context(), kSource)["status"].get<std::string>();
    EXPECT_TRUE(status == "PASSED" || status == "INCORRECT_NUMERICAL" ||
                status == "RUNTIME_ERROR" || status == "COMPILE_ERROR" || status == "TIMEOUT" ||
                status == "INFRA_ERROR")
        << judge::to_string(d);
  }
}

}  // namespace
}  // namespace ptxbench::interop
