#include "audit/verdicts.h"

#include <gtest/gtest.h>

namespace ptxbench::audit {
namespace {

KernelAudit kernel(std::vector<OpcodeCounts> ops, bool recorded = true, int launches = 1) {
  KernelAudit k;
  k.function = "k";
  k.opcodes = std::move(ops);
  k.recorded = recorded;
  k.launches = launches;
  return k;
}

task::ArchTargets targets(std::vector<std::string> fams, std::string rule = "any") {
  return {"sm_90a", std::move(fams), std::move(rule)};
}

const FamilyResult& fam(const std::vector<FamilyResult>& v, const std::string& n) {
  for (const auto& f : v)
    if (f.name == n) return f;
  ADD_FAILURE() << "no family " << n;
  return v.front();
}

// A run-time audit whose audited functions carry all the work, the families all targets.
AuditResult audited(std::vector<FamilyResult> families) {
  AuditResult r;
  r.runtime_run = true;
  r.audited_time_share = 1.0;
  for (const auto& f : families) r.target_families.push_back(f.name);
  r.families = std::move(families);
  return r;
}

TEST(Verdicts, ExecutedPresentAbsent) {
  auto t = targets({"wgmma", "tma"});
  auto k =
      kernel({{"HGMMA.64x64x16.F32.BF16", 2, 8, 256}, {"UTMALDG.2D", 1, 4, 0}, {"FFMA", 9, 9, 9}});
  auto v = evaluate_families({}, {k}, "sm_90a", &t, true);
  EXPECT_EQ(fam(v, "wgmma").verdict, Verdict::executed);
  EXPECT_EQ(fam(v, "tma").verdict, Verdict::present_not_executed);
  EXPECT_EQ(fam(v, "stmatrix").verdict, Verdict::absent);
  EXPECT_TRUE(fam(v, "wgmma").target);
  EXPECT_FALSE(fam(v, "stmatrix").target);
  for (const auto& f : v) EXPECT_NE(f.name, "tcgen05");  // not an sm_90a family
}

TEST(Verdicts, StaticOnlyIsNotAudited) {
  auto t = targets({"wgmma"});
  auto v = evaluate_families({}, {kernel({{"HGMMA.64x64x16.F32.BF16", 2, 0, 0}}, false)}, "sm_90a",
                             &t, false);
  EXPECT_EQ(fam(v, "wgmma").verdict, Verdict::present_not_audited);
}

TEST(Verdicts, AFunctionWithoutRecordsIsNotCalledUnexecuted) {
  auto t = targets({"wgmma"});
  auto v = evaluate_families(
      {}, {kernel({{"FFMA", 1, 1, 32}}), kernel({{"HGMMA.64x64x16.F32.BF16", 1, 0, 0}}, false)},
      "sm_90a", &t, true);
  EXPECT_EQ(fam(v, "wgmma").verdict, Verdict::present_not_audited);
}

TEST(Verdicts, InstructionMetricRules) {
  AuditResult r;
  r.runtime_run = true;
  r.coverage.available = true;  // wgmma's FLOPs counted: all of the task's
  r.coverage.ratio = 1.0;
  r.target_families = {"wgmma", "tma"};
  r.families = {{"wgmma", true, Verdict::executed}, {"tma", true, Verdict::absent}};
  r.rule = "any";
  r.audited_time_share = 1.0;  // the audited functions carry all the measured kernel time
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.rule = "all";
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  r.runtime_run = false;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_evaluated);
  r.runtime_run = true;
  r.rule = "any";
  r.families = {{"wgmma", true, Verdict::present_not_audited}, {"tma", true, Verdict::absent}};
  apply_instruction_metric(r);
  // The audited functions carry the work and did not execute it: a failure, whatever the
  // functions nobody counted hold.
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
}

// The audited functions carry too little of the measured kernel time (280 equal functions, one
// audited): the executed target family earns no credit, and the failure is a verdict.
TEST(Verdicts, UnprovenWorkEarnsNoCredit) {
  AuditResult r;
  r.runtime_run = true;
  r.coverage.available = true;  // wgmma's FLOPs counted: all of the task's
  r.coverage.ratio = 1.0;
  r.target_families = {"wgmma"};
  r.families = {{"wgmma", true, Verdict::executed}};
  r.audited_time_share = 1.0 / 280;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("carry only under 1% of the candidate's kernel time"),
            std::string::npos)
      << r.feedback();
  r.audited_time_share = eval::kAuditTimeTarget;  // at the target: credit
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.audited_time_share.reset();  // not measured: no credit on any route
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
}

// A target family present only in a function skipped for its small share does not turn a
// failure into "not evaluated" when the audited functions carry the work.
TEST(Verdicts, AFamilyOnlyInASmallSkippedFunctionDoesNotExcuse) {
  AuditResult r;
  r.runtime_run = true;
  r.target_families = {"wgmma"};
  r.families = {{"wgmma", true, Verdict::present_not_audited}};
  r.audited_time_share = 0.99;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
}

// One token wgmma per call on zero tiles, the math on CUDA cores (controls token_wgmma): wgmma
// executed, as a fact, but no credit below kMinTensorCoverage; TMA that executed still counts
// (the rule is "any"), and coverage that cannot be counted leaves the family's credit as it was.
TEST(Verdicts, ATokenTensorCoreFamilyEarnsNoCredit) {
  AuditResult r =
      audited({{"wgmma", true, Verdict::executed},
               {"tma", true, Verdict::absent}});  // the audited functions carry all the work
  r.coverage.available = true;
  r.coverage.ratio = 1e-6;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_EQ(fam(r.families, "wgmma").verdict, Verdict::executed);
  EXPECT_NE(r.feedback().find("earns credit only when it does at least that much"),
            std::string::npos)
      << r.feedback();
  r.coverage.ratio = kMinTensorCoverage;  // half the task's FLOPs on wgmma: credit
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.coverage.ratio = 0.49;
  r.families[1].verdict = Verdict::executed;  // TMA ran: nothing on this route sizes its share
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("tma ran, but this route does not measure"), std::string::npos)
      << r.feedback();
  eval::TimedCounts t;  // the timed calls' counters size it: TMA carries "any" on its own
  t.counted = true;
  t.calls = 12;
  t.min_tensor_share = 0.49;
  t.min_tma_input_ratio = kMinTmaInputRatio;
  r.timed_counts = t;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.rule = "all";  // but not a rule that needs wgmma too
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  r.timed_counts.reset();
  r.coverage = Coverage{};  // FLOPs not counted: a tensor-core family earns nothing uncounted
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
}

// One tcgen05.mma beside a CUDA-core GEMM (red team leak9/tcgen05_sliver_credit.cu): SASS keeps
// tcgen05's MMA shape in a run-time descriptor, so its FLOPs are not counted, and it earned "any"
// on sm_100a. Uncounted, it earns nothing, with the timed calls' counters too (they size wgmma
// and TMA only), and the model is told why.
TEST(Verdicts, AnUncountedTensorCoreFamilyEarnsNoCredit) {
  AuditResult r = audited({{"tcgen05", true, Verdict::executed}});
  r.rule = "any";
  task::ArchTargets t{"sm_100a", {"tcgen05"}, "any"};
  r.coverage = compute_coverage({kernel({{"UTCHMMA", 1, 4, 128}})}, &t, 1e9);
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("tcgen05 ran, but its FLOPs cannot be counted"), std::string::npos)
      << r.feedback();
  eval::TimedCounts c;
  c.counted = true;
  c.calls = 12;
  r.timed_counts = c;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_FALSE(share_measured(r, "tcgen05"));
  r.rule = "all";
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  r.coverage.available = true;  // counted (a descriptor read some day): credited as wgmma is
  r.coverage.ratio = 1.0;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
}

// A sliver of TMA beside a CUDA-core GEMM (leak7/tma_atomic_reads_credit.cu: credit on the
// default route on an H100): without the timed calls' counters nothing sizes TMA's traffic, so
// it cannot carry the rule "any" alone; beside a tensor-core family doing the math it changes
// nothing, and the rule "all" still counts it.
TEST(Verdicts, TmaAloneEarnsNoCreditWhereNothingMeasuresIt) {
  AuditResult r;
  r.runtime_run = true;
  r.coverage.available = true;  // wgmma's FLOPs counted: all of the task's
  r.coverage.ratio = 1.0;
  r.audited_time_share = 1.0;
  r.target_families = {"wgmma", "tma"};
  r.families = {{"wgmma", true, Verdict::absent}, {"tma", true, Verdict::executed}};
  r.rule = "any";
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_FALSE(share_measured(r, "tma"));
  EXPECT_TRUE(share_measured(r, "wgmma"));
  r.families[0].verdict = Verdict::executed;  // wgmma does the math (coverage not below)
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.rule = "all";
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
}

// The audited calls can be told apart (redteam/audit_sync_probe): the timed calls' own
// hardware counters must back wgmma and TMA too (eval/timed_counts.h).
TEST(Verdicts, TheTimedCallsCountersMustBackTheTargets) {
  AuditResult r = audited({{"wgmma", true, Verdict::executed}, {"tma", true, Verdict::executed}});
  r.coverage.available = true;
  r.coverage.ratio = 1.0;  // the audited calls ran all the math on wgmma
  eval::TimedCounts t;
  t.counted = true;
  t.calls = 12;
  t.min_tensor_share = 0.0;  // ... the timed calls none of it
  t.min_tma_input_ratio = 0.01;
  r.timed_counts = t;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_evaluated);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_EQ(fam(r.families, "wgmma").verdict, Verdict::executed);  // a fact, not credit
  EXPECT_NE(r.feedback().find("less than half of the task's FLOPs ran on wgmma"), std::string::npos)
      << r.feedback();
  EXPECT_NE(r.feedback().find("TMA loaded less than half"), std::string::npos) << r.feedback();
  EXPECT_EQ(r.feedback().find("0.01"), std::string::npos) << "no figure: " << r.feedback();
  r.timed_counts->min_tma_input_ratio = kMinTmaInputRatio;  // TMA alone meets "any"
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.rule = "all";
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  r.timed_counts->min_tensor_share = kMinTensorCoverage;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.timed_counts->counted = false;  // asked for and not read: nothing is backed
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("could not be read"), std::string::npos) << r.feedback();
  r.timed_counts.reset();  // not counted by design (ncu route, another chip): the audit decides
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  EXPECT_TRUE(r.to_json().at("timed_counts").is_null());
}

// wgmma beside the task's math done elsewhere (leak4/dummy_wgmma_half_flops: discarded wgmma
// worth 0.6x the FLOPs, the GEMM on FFMA): the other units' instructions could have done half or
// more of the math, so the wgmma FLOPs earn nothing.
TEST(Verdicts, WgmmaBesideMathDoneElsewhereEarnsNothing) {
  AuditResult r = audited({{"wgmma", true, Verdict::executed}});
  r.coverage.available = true;
  r.coverage.ratio = 0.6;
  eval::TimedCounts t;
  t.counted = true;
  t.calls = 12;
  t.min_tensor_share = 0.6;
  t.max_other_math_share = 1.0;  // FFMA enough for all of the task's multiply-adds
  r.timed_counts = t;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_FALSE(timed_calls_back(r, "wgmma"));
  EXPECT_NE(r.feedback().find("not beside it"), std::string::npos) << r.feedback();
  EXPECT_EQ(r.feedback().find("less than half of the task's FLOPs"), std::string::npos);
  r.timed_counts->max_other_math_share = kMaxOtherMathShare;  // at the bound: backed
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  // wgmma at the timed shape only, the hidden shapes' math elsewhere (leak5/wgmma_public_m_only).
  r.timed_counts->hidden_tensor_share = 0.2;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("at every shape"), std::string::npos) << r.feedback();
  r.timed_counts->hidden_tensor_share = kMinTensorCoverage;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  // The hidden shapes' math done elsewhere beside a wgmma burn (leak6/hidden_checks_burn).
  r.timed_counts->hidden_other_math_share = 0.9;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("at every shape"), std::string::npos) << r.feedback();
  r.timed_counts->hidden_other_math_share = kMaxOtherMathShare;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  // One substantial hidden shape without wgmma, hidden in the sum (leak6/audit_range_ffma).
  r.timed_counts->min_substantial_hidden_share = 0.0;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("at every shape"), std::string::npos) << r.feedback();
  r.timed_counts->min_substantial_hidden_share = kMinTensorCoverage;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
}

// TMA at the public shape only (leak6/tma_public_m_only): the hidden checks' TMA bytes decide too.
TEST(Verdicts, TmaMustMoveTheOperandsAtTheHiddenShapesToo) {
  AuditResult r;
  r.runtime_run = true;
  r.audited_time_share = 1.0;
  r.rule = "any";
  r.target_families = {"tma"};
  r.families = {{"tma", true, Verdict::executed}};
  eval::TimedCounts t;
  t.counted = true;
  t.calls = 12;
  t.min_tma_input_ratio = 3;
  t.hidden_tma_input_ratio = 0.01;
  r.timed_counts = t;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("TMA loaded less than half of the task's input bytes: the operands "
                              "must move by TMA at every shape"),
            std::string::npos)
      << r.feedback();
  r.timed_counts->hidden_tma_input_ratio = kMinTmaInputRatio;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  // Each operand byte once by TMA, the traffic by other loads (leak6/tma_sliver).
  r.timed_counts->min_tma_load_share = 0.016;
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_NE(r.feedback().find("less than half of what the SMs read"), std::string::npos)
      << r.feedback();
  r.timed_counts->min_tma_load_share = kMinTmaLoadShare;
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
}

TEST(Verdicts, OtherFamiliesAreNotGatedByTheCounters) {
  AuditResult r = audited({{"stmatrix", true, Verdict::executed}});
  r.timed_counts = eval::TimedCounts{};  // counted: false
  r.rule = "all";
  apply_instruction_metric(r);
  EXPECT_TRUE(r.instruction_metric_passed);
  r.rule = "any";  // but alone nothing sizes what it did
  apply_instruction_metric(r);
  EXPECT_FALSE(r.instruction_metric_passed);
  EXPECT_TRUE(timed_calls_back(r, "setmaxnreg"));
  EXPECT_FALSE(timed_calls_back(r, "wgmma"));
}

TEST(Coverage, TargetAndOtherCountsCoverEveryLaunchUnscaled) {
  auto t = targets({"wgmma"});
  // 2 warpgroup instructions of 64x64x16 (256 predicated-on threads) over all 3 launches of the
  // function: the counts already cover every launch (first_launch_only_wgmma: tensor work in one
  // launch of eight must give 1/8, not 8/8).
  auto k1 = kernel({{"HGMMA.64x64x16.F32.BF16", 1, 8, 256}}, true, 3);
  auto k2 = kernel({{"HMMA.16816.F32.BF16", 1, 1, 32}});  // mma.sync: not a target here
  Coverage c = compute_coverage({k1, k2}, &t, 2.0 * 64 * 64 * 16 * 6);
  ASSERT_TRUE(c.available);
  EXPECT_DOUBLE_EQ(c.target_tensor_flops, 2 * 2.0 * 64 * 64 * 16);
  EXPECT_DOUBLE_EQ(c.ratio, 1.0 / 3);
  EXPECT_DOUBLE_EQ(c.other_tensor_flops, 2.0 * 16 * 8 * 16);
}

// Only tcgen05 may leave the coverage unavailable: a wgmma spelling whose shape is not read counts
// no FLOPs (an unread spelling must not switch the token rule off).
TEST(Coverage, AnUnreadWgmmaShapeCountsNothing) {
  task::ArchTargets t{"sm_90a", {"wgmma"}, "any"};
  Coverage c = compute_coverage({kernel({{"HGMMA.ZZ.F32.BF16", 1, 4, 128}})}, &t, 1e9);
  EXPECT_TRUE(c.available);
  EXPECT_DOUBLE_EQ(c.ratio, 0.0);
}

TEST(Coverage, Tcgen05HasNoShapeInSass) {
  task::ArchTargets t{"sm_100a", {"tcgen05"}, "any"};
  Coverage c = compute_coverage({kernel({{"UTCHMMA", 1, 4, 1}})}, &t, 1e9);
  EXPECT_FALSE(c.available);
  EXPECT_NE(c.note.find("descriptor"), std::string::npos);
}

TEST(Feedback, NamesMissingFamiliesAndLowCoverage) {
  AuditResult r = audited({{"wgmma", true, Verdict::executed}, {"tma", true, Verdict::absent}});
  r.coverage.available = true;
  r.coverage.ratio = 0.0004;
  r.audited_time_share = 1.0;
  apply_instruction_metric(r);
  const std::string fb = r.feedback();
  EXPECT_NE(fb.find("absent from the SASS: tma"), std::string::npos);
  // No figure, only its side of the credit line: the audited workloads' FLOPs include a hidden
  // one's, so a figure could carry its size (leak3/coverage_denominator_hidden_m.cu).
  EXPECT_NE(fb.find("Less than 50% of the task's FLOPs"), std::string::npos) << fb;
  EXPECT_EQ(fb.find("0.04"), std::string::npos);
  r.coverage.ratio = 0.1234;
  EXPECT_EQ(r.feedback().find("12"), std::string::npos) << r.feedback();
  r.coverage.ratio = 0.99;
  r.families[1].verdict = Verdict::executed;
  apply_instruction_metric(r);
  EXPECT_EQ(r.feedback(), "");
}

TEST(AuditResult, JsonHasTheVerdictsAndRoute) {
  AuditResult r;
  r.route = Route::ncu;
  r.runtime_run = true;
  r.families = {{"wgmma", true, Verdict::present_not_executed, 1, 0, 0}};
  Json j = r.to_json();
  EXPECT_EQ(j["route"], "ncu");
  EXPECT_EQ(j["families"][0]["verdict"], "present_not_executed");
  EXPECT_TRUE(j.contains("coverage"));
  EXPECT_TRUE(j.contains("feedback"));
}

// review-7 (5aca768): a function holding the target instructions but not launched in the audited
// calls (a first-calls-only helper; or a hostile wgmma kernel launched once in the first call, the
// real work done by FFMA) no longer sends the judge to Nsight Compute, which would have said
// present_not_executed (it lists launched functions only). Under CUPTI it must say the same, not
// present_not_audited (the instruction metric "not evaluated" instead of FAIL, the family
// reported "present" to the model).
TEST(Verdicts, ATargetOnlyInAFunctionNotLaunchedInTheAuditedCallsIsNotExecuted) {
  auto t = targets({"wgmma"});
  KernelAudit helper = kernel({{"HGMMA.64x64x16.F32.BF16", 1, 0, 0}}, false, 0);
  helper.note = std::string(eval::kNotLaunchedInAuditedCalls);  // its CUPTI saw no launch
  auto v = evaluate_families({}, {kernel({{"FFMA", 1, 1, 32}}), helper}, "sm_90a", &t, true);
  EXPECT_EQ(fam(v, "wgmma").verdict, Verdict::present_not_executed);
  // An audited call that timed out: no launches known, no note; not audited, not unexecuted.
  helper.note.clear();
  v = evaluate_families({}, {kernel({{"FFMA", 1, 1, 32}}), helper}, "sm_90a", &t, true);
  EXPECT_EQ(fam(v, "wgmma").verdict, Verdict::present_not_audited);
}

}  // namespace
}  // namespace ptxbench::audit
