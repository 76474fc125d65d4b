#include "eval/protocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "eval/gpu/compare_stats.h"
#include "eval/test_support.h"

namespace ptxbench::eval {
namespace {

TEST(Problem, ValidatesShapesAndTypes) {
  gpu::Problem p = testing::gemm_problem();
  EXPECT_TRUE(p.validate().ok());
  p.outputs[0].shape = {256, 127};
  auto st = p.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("expected N=128"), std::string::npos);
  p = testing::gemm_problem();
  p.inputs.pop_back();
  EXPECT_FALSE(p.validate().ok());
  p = testing::gemm_problem();
  p.outputs[0].type = gpu::ElemType::fp32;
  EXPECT_FALSE(p.validate().ok());
}

TEST(Problem, BuiltFromShapesIsValid) {
  EXPECT_TRUE(gpu::gemm_problem(1, 7168, 5120).validate().ok());
  for (auto kind : {gpu::Kind::attention_fwd, gpu::Kind::attention_bwd}) {
    gpu::Problem p = gpu::attention_problem(kind, 4, 48, 4096, 128, true);
    EXPECT_TRUE(p.validate().ok()) << p.validate().error().message;
    EXPECT_TRUE(p.causal);
    EXPECT_FLOAT_EQ(p.scale(), 1.0f / std::sqrt(128.0f));
  }
  gpu::Problem bwd = gpu::attention_problem(gpu::Kind::attention_bwd, 1, 2, 128, 64, false);
  ASSERT_EQ(bwd.inputs.size(), 6u);
  EXPECT_EQ(bwd.inputs[4].name, "dO");
  EXPECT_EQ(bwd.inputs[5].type, gpu::ElemType::fp32);
  EXPECT_EQ(bwd.outputs[2].name, "dV");
}

TEST(Protocol, RequestRoundTrip) {
  WorkerRequest r;
  r.mode = "candidate";
  r.library = "/x/k.so";
  r.dir = "/dev/shm/d";
  TrialSpec t;
  t.index = 2;
  t.label = "hidden";
  t.problem = testing::gemm_problem();
  t.seed = 0xFFFFFFFFFFFFFFF1ull;  // full 64-bit seeds survive JSON
  t.dist = gpu::Distribution::spiky;
  t.after_timing = true;
  r.trials = {t};
  r.timed = testing::gemm_problem();
  r.timing.seed = 99;
  r.timing.rule.min_samples = 7;
  r.call_timeout_seconds = 3.5;
  EXPECT_EQ(WorkerRequest::from_json(r.to_json())->baseline_dist, gpu::Distribution::normal);
  r.baseline_dist = gpu::Distribution::spiky;
  auto back = WorkerRequest::from_json(Json::parse(r.to_json().dump()));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->mode, "candidate");
  ASSERT_EQ(back->trials.size(), 1u);
  EXPECT_EQ(back->trials[0].seed, 0xFFFFFFFFFFFFFFF1ull);
  EXPECT_EQ(back->trials[0].dist, gpu::Distribution::spiky);
  EXPECT_TRUE(back->trials[0].after_timing);
  EXPECT_EQ(back->trials[0].problem.outputs[0].shape, (std::vector<std::int64_t>{256, 128}));
  EXPECT_EQ(back->timing.rule.min_samples, 7u);
  EXPECT_DOUBLE_EQ(back->call_timeout_seconds, 3.5);
  EXPECT_EQ(back->baseline_dist, gpu::Distribution::spiky);
  ASSERT_TRUE(back->timed.has_value());
}

TEST(Protocol, RequestErrors) {
  EXPECT_FALSE(WorkerRequest::from_json(Json{{"mode", "candidate"}}).ok());
  WorkerRequest r;
  r.mode = "explode";
  r.dir = "/tmp";
  EXPECT_FALSE(WorkerRequest::from_json(r.to_json()).ok());
  r.mode = "candidate";  // timing on but no timed workload
  EXPECT_FALSE(WorkerRequest::from_json(r.to_json()).ok());
}

TEST(Protocol, ResponseRoundTrip) {
  WorkerResponse r;
  r.mode = "check";
  TrialOutcome t;
  t.index = 1;
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 100;
  s.failed = 3;
  s.max_abs_err = 0.5;
  s.worst_rule_ratio = 1.25;
  gpu::BadElement b;
  b.flat = 7;
  b.index = {0, 7};
  b.out = 1.5f;
  b.ref = 1.0f;
  s.first_bad = {b};
  t.outputs = {s};
  r.trials = {t};
  TimingOutcome tm;
  tm.candidate = summarize({1, 2, 3});
  tm.side_stream = true;
  r.timing = tm;
  r.provenance = {{"gpu", "NVIDIA H200"}};
  auto back = parse_response(r.to_json().dump());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  ASSERT_EQ(back->trials.size(), 1u);
  EXPECT_FALSE(back->trials[0].passed());
  EXPECT_EQ(back->trials[0].outputs[0].failed, 3);
  EXPECT_DOUBLE_EQ(back->trials[0].outputs[0].worst_rule_ratio, 1.25);
  EXPECT_EQ(back->trials[0].outputs[0].first_bad[0].index, (std::vector<std::int64_t>{0, 7}));
  ASSERT_TRUE(back->timing.has_value());
  EXPECT_TRUE(back->timing->side_stream);
  EXPECT_DOUBLE_EQ(back->timing->candidate.median, 2.0);
  EXPECT_EQ(back->provenance["gpu"], "NVIDIA H200");
}

TEST(Protocol, MalformedResponses) {
  EXPECT_FALSE(parse_response("").ok());
  EXPECT_FALSE(parse_response("{\"mode\": ").ok());
  EXPECT_FALSE(parse_response("[1,2]").ok());
  EXPECT_FALSE(parse_response("{\"mode\":\"check\"}").ok());  // no status, no trials
  EXPECT_FALSE(parse_response(R"({"mode":"check","status":"ok","trials":[{"index":"x"}]})").ok());
}

TEST(CompareStats, VerdictRule) {
  gpu::Tolerances tol;
  gpu::CompareStats s;
  s.numel = 1000;
  gpu::finish_verdict(s, tol);
  EXPECT_TRUE(s.passed);
  s.failed = 1;
  gpu::finish_verdict(s, tol);
  EXPECT_FALSE(s.passed);  // matched ratio 1.0 required
  tol.matched_ratio = 0.99;
  gpu::finish_verdict(s, tol);
  EXPECT_TRUE(s.passed);
  s.rel_l2 = 0.02;  // near-zero outputs cannot pass on the element rule alone
  gpu::finish_verdict(s, tol);
  EXPECT_FALSE(s.passed);
  s.rel_l2 = 0;
  s.unwritten = 1, s.nonfinite = 1;
  gpu::finish_verdict(s, tol);
  EXPECT_FALSE(s.passed);
  EXPECT_NE(gpu::describe(s).find("never written"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::eval

namespace ptxbench::eval {
namespace {

// The outputs' common scaling (red team of 2026-12-06, kernels/controls/bwdterm/t01: every
// element 0.93% too large passes rtol and the relative L2 limit): beyond 2^-10, and beyond
// 7 standard errors of what chance gives, the output fails; the figures survive JSON.
TEST(Protocol, AnOutputScaledAsAWholeFails) {
  gpu::Tolerances tol;
  gpu::CompareStats s;
  s.numel = 1000000;
  s.scale_bias = 0.0093, s.scale_bias_se = 1e-5;
  gpu::finish_verdict(s, tol);
  EXPECT_FALSE(s.passed);
  EXPECT_NE(gpu::describe(s).find("scaled by 1+9.300e-03 as a whole"), std::string::npos)
      << gpu::describe(s);
  s.scale_bias = -0.0009;  // under 2^-10
  gpu::finish_verdict(s, tol);
  EXPECT_TRUE(s.passed);
  s.scale_bias = 0.004, s.scale_bias_se = 0.001;  // a small noisy output: within 7 SE
  gpu::finish_verdict(s, tol);
  EXPECT_TRUE(s.passed);
  s.scale_bias_se = 0.0005;
  gpu::finish_verdict(s, tol);
  EXPECT_FALSE(s.passed);
  const gpu::CompareStats back = gpu::compare_stats_from_json(s.to_json());
  EXPECT_EQ(back.scale_bias, 0.004);
  EXPECT_EQ(back.scale_bias_se, 0.0005);
  Json old = s.to_json();  // files written before the figure existed
  old.erase("scale_bias");
  old.erase("scale_bias_se");
  EXPECT_EQ(gpu::compare_stats_from_json(old).scale_bias, 0.0);
}

// A sampled comparison (gpu/sample_check.h) says so: its counts are the sample's, the output's
// size is kept beside them, and a comparison of every element writes nothing new.
TEST(Protocol, ASampledComparisonSaysSoAndSurvivesJson) {
  gpu::Tolerances tol;
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 65536;
  s.sampled_from = 58720256;
  s.failed = 3;
  gpu::finish_verdict(s, tol);
  EXPECT_FALSE(s.passed);
  EXPECT_NE(gpu::describe(s).find("3/65536 sampled elements fail"), std::string::npos)
      << gpu::describe(s);
  EXPECT_EQ(gpu::compare_stats_from_json(s.to_json()).sampled_from, 58720256);
  s.sampled_from = 0;
  EXPECT_FALSE(s.to_json().contains("sampled_from"));
  EXPECT_EQ(gpu::describe(s).find("sampled"), std::string::npos);
}

// An output that still holds the NaN poison has NaN error figures; JSON writes them as
// null, and the check worker's response must still parse (seen on the H200 with the
// half_output control, 2026-11-29).
TEST(Protocol, CompareStatsSurviveNaNThroughJson) {
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 4;
  s.unwritten = 2;
  s.max_abs_err = std::numeric_limits<double>::quiet_NaN();
  s.rel_l2 = std::numeric_limits<double>::quiet_NaN();
  gpu::BadElement e;
  e.flat = 3;
  e.index = {1, 1};
  e.out = std::numeric_limits<float>::quiet_NaN();
  e.ref = 0.5f;
  s.first_bad.push_back(e);
  Json parsed = Json::parse(s.to_json().dump());
  gpu::CompareStats back = gpu::compare_stats_from_json(parsed);
  EXPECT_TRUE(std::isnan(back.max_abs_err));
  EXPECT_TRUE(std::isnan(back.rel_l2));
  ASSERT_EQ(back.first_bad.size(), 1u);
  EXPECT_TRUE(std::isnan(back.first_bad[0].out));
  EXPECT_EQ(back.first_bad[0].ref, 0.5f);
  EXPECT_EQ(back.unwritten, 2);
}

}  // namespace
}  // namespace ptxbench::eval
