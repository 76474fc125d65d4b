#include "eval/eval_result_json.h"

#include <gtest/gtest.h>

#include <limits>

namespace ptxbench::eval {
namespace {

gpu::CompareStats wrong_output() {
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 4096;
  s.failed = 3;
  s.nonfinite = 1;
  s.unwritten = 1;
  s.max_abs_err = std::numeric_limits<double>::quiet_NaN();  // written as null, read as NaN
  s.max_rel_err = 2.5;
  s.rel_l2 = 1e-3;
  s.scale_bias = 0.01;
  s.scale_bias_se = 0.002;
  s.worst_rule_ratio = 7.5;
  s.mismatch_ratio = 3.0 / 4096;
  s.first_bad.push_back({130, {1, 2}, 1, 0, 1.5f, -0.25f});
  return s;
}

SampleSummary samples(double median) {
  SampleSummary s;
  s.n = 40;
  s.median = median;
  s.mean = median * 1.01;
  s.min = median * 0.9;
  s.max = median * 1.2;
  s.p25 = median * 0.95;
  s.p75 = median * 1.05;
  s.rel_iqr = 0.1;
  s.rel_stddev = 0.03;
  return s;
}

// Every member to_json writes, none left at its default.
EvalResult everything() {
  EvalResult r;
  r.outcome = Outcome::incorrect;
  r.task = "gemm_n7168_k5120";
  r.arch = "sm_90a";
  r.seed = 18446744073709551557ull;
  r.input_seed = 7;
  r.message = "outputs differ";
  r.phase = "a hidden workload";
  r.failed_on = FailedOn::hidden;
  r.failed_kind = task::HiddenKind::ragged;
  r.failed_under_load = true;
  r.withheld = "hidden 3 (M=1000)";
  r.flags = {Flag::side_stream, Flag::timing_unstable, Flag::library_fails_task_rule};
  TrialReport t;
  t.index = 2;
  t.label = "timed";
  t.workload = "timed";
  t.after_hidden = true;
  t.seed = 99;
  t.outputs = {wrong_output()};
  r.trials = {t, TrialReport{}};
  TimingReport timing;
  timing.workload = "timed";
  timing.candidate = samples(1.25);
  timing.baseline = samples(1.5);
  timing.stop_reason = "converged";
  timing.baseline_name = "cublaslt";
  timing.baseline_description = "cuBLASLt bf16";
  timing.baseline_error = "none";
  timing.flops = 3.75e11;
  timing.speedup = 1.2;
  timing.speedup_rel_ci95 = 0.02;
  timing.tflops = 300.5;
  timing.baseline_tflops = 250.25;
  timing.peak_tflops = 989.5;
  timing.percent_of_peak = 30.4;
  timing.candidate_wall = samples(1.3);
  timing.baseline_wall = samples(1.55);
  timing.speedup_basis = SpeedupBasis::events;
  timing.calibrated_overhead_ms = 0.004;
  timing.sustained_load_ms = 2;
  timing.verified_calls = 12;
  timing.clocks_before = Json{{"sm_clock_mhz", 1980}, {"sm_clock_max_mhz", 1980}};
  timing.clocks_after = Json{{"sm_clock_mhz", 1755}, {"throttle_reasons", "none"}};
  timing.setup_ms = Json{{"references", 12.5}};
  r.timing = timing;
  r.baseline_check = {wrong_output()};
  r.baseline_check_error = "the library failed once";
  r.memcheck_ran = true;
  r.memcheck_ran_hidden = false;
  r.provenance = Json{{"gpu", "NVIDIA H200"}, {"driver", "580.1"}, {"cudnn", 91000}};
  r.network_isolated = true;
  r.sandbox = Json{{"landlock", true}};
  AuditTrace trace;
  trace.route = Instrument::cupti;
  trace.workloads = {"timed", "hidden"};
  TracedFunction fn;
  fn.name = "_Z4gemmv";
  fn.launches = 2;
  fn.recorded = true;
  fn.pcs[16] = {4, 128};
  fn.pcs[32] = {1, 32};
  fn.share = 0.97;
  fn.note = "recorded";
  trace.functions = {fn};
  trace.chip = "gh100";
  trace.error = "partly";
  trace.error_kind = "cupti";
  trace.brokers = 2;
  trace.shares_measured = true;
  trace.shares_unknown = true;
  trace.audited_share = 0.97;
  trace.skipped = {{"_Z5smallv", 0.01, 0.03, AuditSkip::small_share}};
  trace.messages = {"one"};
  trace.timed = TimedCounts{true, "", 10, 3.75e11, 1e9, 0.98, 1.5, 0.07, 0.91, 0.2, 0.3, 0.4, 0.6};
  r.audit_trace = trace;
  r.timeline = {{SessionPhase::checks, SpanKind::verify, 12.25, 1.5, 0, 1},
                {SessionPhase::timing, SpanKind::library, 40.5, 0.75, -1, 0}};
  r.worker_stdout_tail = std::string(kOutputWithheld);
  r.worker_stderr_tail = std::string(kOutputWithheld);
  r.broker_output_tail = "broker said";
  r.memcheck_output_tail = "========= ERROR SUMMARY: 0 errors";
  r.ran_hidden = true;
  r.seconds = 12.5;
  r.verifier_session = 3;
  r.phase_seconds = {1.5, 2.5, 3.5, 0.5, 1.25, 0.75, 0.25, 3, 40};
  return r;
}

TEST(EvalResultJson, EveryMemberReadsBackAndWritesAgainByteForByte) {
  const EvalResult r = everything();
  const std::string first = to_text(r.to_json(), 2);
  auto back = eval_result_from_json(r.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(to_text(back->to_json(), 2), first);
  // Typed again, not just echoed: a few fields by value.
  EXPECT_EQ(back->outcome, Outcome::incorrect);
  EXPECT_EQ(back->failed_kind, task::HiddenKind::ragged);
  EXPECT_TRUE(back->has_flag(Flag::library_fails_task_rule));
  ASSERT_TRUE(back->timing.has_value());
  EXPECT_EQ(back->timing->speedup, 1.2);
  EXPECT_EQ(back->timing->candidate.n, 40u);
  ASSERT_TRUE(back->audit_trace.has_value());
  EXPECT_EQ(back->audit_trace->functions.at(0).pc_count(), 2u);
  EXPECT_TRUE(back->audit_trace->functions.at(0).pcs.empty());  // counts are not stored
  EXPECT_EQ(back->audit_trace->skipped.at(0).why, AuditSkip::small_share);
  EXPECT_EQ(back->timeline.at(1).kind, SpanKind::library);
  EXPECT_TRUE(back->ran_hidden);
  EXPECT_EQ(back->summary(), r.summary());
  EXPECT_EQ(back->feedback(), r.feedback());
}

TEST(EvalResultJson, ADefaultResultRoundTrips) {
  const EvalResult r;
  auto back = eval_result_from_json(r.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(to_text(back->to_json()), to_text(r.to_json()));
}

// Run files made before a member existed lack it: it reads as the field's default.
TEST(EvalResultJson, AMemberOlderFilesLackReadsAsItsDefault) {
  auto r = eval_result_from_json(Json::parse(
      R"({"outcome": "passed", "seed": 5, "flags": ["side_stream", "a_newer_flag"],
          "timing": {"speedup": 1.5, "candidate": {"n": 3, "median_ms": 2.0}},
          "memcheck": {"ran": true}})"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->outcome, Outcome::passed);
  EXPECT_EQ(r->seed, 5u);
  EXPECT_EQ(r->failed_on, FailedOn::none);
  EXPECT_FALSE(r->input_seed.has_value());
  EXPECT_EQ(r->flags, std::vector<Flag>{Flag::side_stream});  // a name of no flag is left out
  ASSERT_TRUE(r->timing.has_value());
  EXPECT_EQ(r->timing->candidate.median, 2.0);
  EXPECT_FALSE(r->timing->tflops.has_value());
  EXPECT_FALSE(r->timing->speedup_basis.has_value());  // recorded since 2026-12
  EXPECT_TRUE(r->memcheck_ran);
  EXPECT_TRUE(r->trials.empty());
  EXPECT_FALSE(r->ran_hidden);
}

TEST(EvalResultJson, WhatIsNoEvaluationIsAnErrorNamingWhy) {
  struct Case {
    const char* json;
    const char* says;
  };
  for (const Case& c : {
           Case{R"([1, 2])", "not a JSON object"},
           Case{R"({"seed": 1})", "no known \"outcome\""},
           Case{R"({"outcome": "won"})", "no known \"outcome\""},
           Case{R"({"outcome": "passed", "seed": "x"})", "malformed evaluation"},
           Case{R"({"outcome": "passed", "failed_on": "lunch"})", "\"failed_on\" has the unknown"},
           Case{R"({"outcome": "passed", "failed_kind": "huge"})", "failed_kind"},
           Case{R"({"outcome": "passed", "timeline": [[1]]})", "a timeline span"},
           Case{R"({"outcome": "passed", "timeline": [["checks", "nap", 1, 1, 0, 0]]})",
                "\"kind\" has the unknown value \"nap\""},
           Case{R"({"outcome": "passed", "audit_trace": {"skipped": [{"why": "tired"}]}})",
                "\"why\" has the unknown value"},
           Case{R"({"outcome": "passed", "timing": {"speedup_basis": "sundial"}})",
                "\"speedup_basis\" has the unknown value \"sundial\""},
       }) {
    auto r = eval_result_from_json(Json::parse(c.json));
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.error().to_string().find(c.says), std::string::npos)
        << c.json << ": " << r.error().to_string();
  }
}

// The speedup's basis by its one name table; "" (a timing without a speedup) is none.
TEST(EvalResultJson, TheSpeedupBasisReadsBackByItsName) {
  for (SpeedupBasis b : {SpeedupBasis::events, SpeedupBasis::wall_clock}) {
    EXPECT_EQ(speedup_basis_from_string(to_string(b)), b);
    TimingReport t;
    t.speedup_basis = b;
    EvalResult r;
    r.timing = t;
    auto back = eval_result_from_json(r.to_json());
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back->timing->speedup_basis, b);
  }
  EXPECT_EQ(to_string(SpeedupBasis::wall_clock), "wall clock");  // as run files hold it
  EXPECT_FALSE(speedup_basis_from_string("").has_value());
  EvalResult untimed;
  untimed.timing = TimingReport{};
  EXPECT_EQ(untimed.to_json()["timing"]["speedup_basis"], "");
}

}  // namespace
}  // namespace ptxbench::eval
