#include "run/stage_pipeline.h"

#include <gtest/gtest.h>

#include <thread>

#include "judge/testing/fake_stages.h"
#include "run/feedback.h"

namespace ptxbench::run {
namespace {

TEST(StageFacts, CompileResultKeepsEntryResourcesViolationsAndWarnings) {
  compile::CompileResult r;
  r.outcome = Outcome::policy_violation;
  r.log = "log";
  r.violations.push_back({12, "banned_include", "#include <cublas_v2.h>", "cuBLAS is not allowed"});
  r.disallowed_symbols = {"cudaMalloc"};
  r.forbidden_exports = {"cudaLaunchKernel"};
  compile::KernelResources entry;
  entry.name = "_Z4gemmv";
  entry.demangled = "gemm()";
  entry.entry = true;
  entry.registers = 168;
  entry.shared_bytes = 1024;
  entry.spill_store_bytes = 8;
  compile::KernelResources helper = entry;
  helper.entry = false;
  r.resources = {entry, helper};
  r.warnings.push_back({"C7508", "", "setmaxnreg ignored"});
  CompileFacts f = compile_facts(r);
  EXPECT_EQ(f.outcome, Outcome::policy_violation);
  ASSERT_EQ(f.violations.size(), 1u);
  EXPECT_EQ(f.violations[0], "line 12: cuBLAS is not allowed (`#include <cublas_v2.h>`)");
  EXPECT_EQ(f.disallowed_symbols,
            (std::vector<std::string>{"cudaMalloc", "cudaLaunchKernel (exported)"}));
  ASSERT_EQ(f.resources.size(), 1u);
  EXPECT_EQ(f.resources[0].kernel, "gemm()");
  EXPECT_EQ(f.resources[0].spill_store_bytes, 8);
  EXPECT_EQ(f.warnings, (std::vector<std::string>{"C7508: setmaxnreg ignored"}));
  EXPECT_FALSE(f.timed_out);
}

TEST(StageFacts, RefusedObjectGivesSymbolReasonsThenLoadTimeProblems) {
  compile::CompileResult r;
  r.outcome = Outcome::policy_violation;
  r.symbol_reasons = {"cudaMalloc: allocates memory"};
  r.object_problems = {"`at_load()` runs when the library is loaded"};
  CompileFacts f = compile_facts(r);
  EXPECT_EQ(f.violations,
            (std::vector<std::string>{"cudaMalloc: allocates memory",
                                      "`at_load()` runs when the library is loaded"}));
}

// The failing workload's name is the plan's, carried as data (TrialReport::workload), never
// parsed out of the label the plan wrote for people.
TEST(StageFacts, TheFailingWorkloadIsNamedByTheTrialNotItsLabel) {
  eval::EvalResult r;
  r.outcome = Outcome::incorrect;
  eval::TrialReport bad;
  bad.label = "a label in any words at all";
  bad.workload = "timed";
  gpu::CompareStats c;
  c.tensor = "C";
  c.numel = 100;
  c.failed = 7;
  bad.outputs = {c};
  r.trials = {bad};
  const EvalFacts f = eval_facts(r, 20);
  EXPECT_EQ(f.workload, "timed");
  ASSERT_EQ(f.mismatches.size(), 1u);
  EXPECT_EQ(f.mismatches[0].workload, "timed");
}

TEST(StageFacts, EvalResultNamesTheFailingWorkloadAndHidesHiddenOnes) {
  eval::EvalResult r;
  r.outcome = Outcome::incorrect;
  eval::TrialReport ok;
  ok.label = "timed workload timed (M=8192), normal inputs";
  ok.passed = true;
  eval::TrialReport bad;
  bad.label = "hidden workload M1000 (M=1000), normal inputs";
  bad.hidden = true;
  gpu::CompareStats c;
  c.tensor = "C";
  c.numel = 100;
  c.failed = 7;
  c.nonfinite = 1;
  c.max_abs_err = 2.5;
  c.first_bad.push_back({5, {0, 5}, 0, 0, 1.0f, 3.5f});
  bad.outputs = {c};
  r.trials = {ok, bad};
  r.flags = {eval::Flag::side_stream};
  EvalFacts f = eval_facts(r, 20);
  EXPECT_EQ(f.workload, "");  // a hidden workload's name is never kept
  EXPECT_TRUE(f.workload_hidden);
  ASSERT_EQ(f.mismatches.size(), 1u);
  EXPECT_TRUE(f.mismatches[0].hidden);
  EXPECT_TRUE(f.mismatches[0].non_finite);
  // Counts, positions and errors of a hidden workload give its sizes away: none is kept.
  EXPECT_EQ(f.mismatches[0].bad_elements, 0);
  EXPECT_EQ(f.mismatches[0].max_abs_error, 0);
  EXPECT_TRUE(f.mismatches[0].first_bad.empty());
  EXPECT_EQ(f.flags, std::vector<eval::Flag>{eval::Flag::side_stream});
  ModelView v;
  v.disposition = judge::Disposition::incorrect;
  v.compile.outcome = Outcome::passed;
  v.eval = f;
  std::string text = build_feedback(v, {1, 8, 1.2, "sm_90a"});
  EXPECT_EQ(text.find("1000"), std::string::npos) << text;
}

TEST(StageFacts, TimingGivesSpeedupAndBaseline) {
  eval::EvalResult r;
  r.outcome = Outcome::passed;
  r.timing = eval::TimingReport{};
  r.timing->candidate.median = 2.0;
  r.timing->baseline.median = 1.0;
  r.timing->speedup = 0.5;
  r.timing->tflops = 300;
  r.timing->baseline_name = "cuBLASLt";
  EvalFacts f = eval_facts(r, 20);
  EXPECT_DOUBLE_EQ(f.speedup.value(), 0.5);
  EXPECT_DOUBLE_EQ(f.kernel_ms.value(), 2.0);
  EXPECT_EQ(f.baseline, "cuBLASLt");
}

TEST(StageFacts, AuditResultGivesTargetVerdictsAndTheMetric) {
  audit::AuditResult r;
  r.route = audit::Route::cupti;
  r.runtime_run = true;
  r.rule = "any";
  audit::KernelAudit k;
  k.opcodes.push_back({"HGMMA.64x128x16.F32.BF16", 4, 10, 1280});
  k.opcodes.push_back({"FFMA", 100, 10, 10});
  r.kernels = {k};
  audit::FamilyResult w;
  w.name = "wgmma";
  w.target = true;
  w.verdict = audit::Verdict::executed;
  w.thread_pred_on = 1280;
  audit::FamilyResult t = w;
  t.name = "tma";
  t.verdict = audit::Verdict::absent;
  t.thread_pred_on = 0;
  audit::FamilyResult other = w;
  other.name = "stmatrix";
  other.target = false;
  r.families = {w, t, other};
  r.instruction_metric_evaluated = true;
  r.instruction_metric_passed = true;
  AuditFacts a = audit_facts(r);
  EXPECT_TRUE(a.runtime);
  EXPECT_EQ(a.route, "cupti");
  ASSERT_EQ(a.families.size(), 2u);
  EXPECT_EQ(a.families[0].verdict, audit::Verdict::executed);
  EXPECT_EQ(a.families[0].opcodes, std::vector<std::string>{"HGMMA.64x128x16.F32.BF16"});
  EXPECT_EQ(a.families[1].verdict, audit::Verdict::absent);
  EXPECT_EQ(a.metric_pass, std::optional<bool>(true));
}

TEST(StageFacts, StaticCensusNeverDecidesTheMetric) {
  compile::Census c;
  c.target_families = {"wgmma", "tma"};
  c.target_rule = "any";
  c.family_totals = {{"wgmma", 12}, {"tma", 0}};
  compile::FunctionCensus fn;
  fn.by_opcode = {{"HGMMA.64x256x16.F32.BF16", 12}};
  c.functions = {fn};
  AuditFacts a = static_audit_facts(c);
  EXPECT_FALSE(a.runtime);
  EXPECT_FALSE(a.metric_pass.has_value());
  ASSERT_EQ(a.families.size(), 2u);
  EXPECT_EQ(a.families[0].verdict, audit::Verdict::present_not_audited);
  EXPECT_EQ(a.families[0].opcodes, std::vector<std::string>{"HGMMA.64x256x16.F32.BF16"});
  EXPECT_EQ(a.families[1].verdict, audit::Verdict::absent);
}

struct PipelineTest : ::testing::Test {
  task::TaskSpec task;
  judge::JudgeOptions options;
  judge::testing::FakeStages* stages = nullptr;
  std::unique_ptr<StagePipeline> pipeline;
  void SetUp() override {
    task.name = "gemm";
    options.gpu = true;
    auto s = std::make_unique<judge::testing::FakeStages>();
    s->speedup = 1.5;
    s->eval_message = "worker missing";
    stages = s.get();
    pipeline = std::make_unique<StagePipeline>(std::move(s), options);
  }
};

TEST_F(PipelineTest, TheTurnTakesTheJudgesDisposition) {
  StageSlots slots(1, 1);
  TurnVerdict v = pipeline->evaluate("src", task, "sm_90a", slots);
  EXPECT_EQ(v.source, std::optional<std::string>("src"));
  EXPECT_EQ(v.report.disposition, judge::Disposition::passed);
  EXPECT_TRUE(target_reached(v, 1.2));
  EXPECT_EQ(arch_executed(v), std::optional<bool>(true));
  EXPECT_EQ(v.report.audit_json()["route"], "cupti");
  stages->executed = false;
  v = pipeline->evaluate("src", task, "sm_90a", slots);
  EXPECT_EQ(v.report.disposition, judge::Disposition::passed_missing_instructions);
  EXPECT_FALSE(target_reached(v, 1.2));
}

TEST_F(PipelineTest, AHarnessErrorQuotesTheEvaluation) {
  stages->eval_outcome = Outcome::harness_error;
  StageSlots slots(1, 1);
  TurnVerdict v = pipeline->evaluate("src", task, "sm_90a", slots);
  EXPECT_EQ(v.report.disposition, judge::Disposition::harness_error);
  EXPECT_EQ(v.report.message, "worker missing");
  EXPECT_NE(build_feedback(v, {1, 8, 1.2, "sm_90a"}).find("worker missing"), std::string::npos);
}

TEST_F(PipelineTest, AnArchitectureTheGpuCannotRunKeepsTheStoredShapes) {
  StageSlots slots(1, 1);
  TurnVerdict v = pipeline->evaluate("src", task, "sm_100a", slots);
  EXPECT_EQ(v.report.disposition, judge::Disposition::not_evaluated);
  EXPECT_TRUE(v.report.gpu_stages_skipped());
  EXPECT_EQ(stages->calls, std::vector<std::string>{"compile"});
  EXPECT_EQ(v.report.eval_json(),
            (Json{{"outcome", "not_run"}, {"reason", "the GPU here runs sm_90a, not sm_100a"}}));
  EXPECT_EQ(v.report.audit_json()["route"], "static");
  const ModelView m = model_view(v);
  EXPECT_TRUE(m.gpu_skipped);
  ASSERT_TRUE(m.audit.has_value());
  EXPECT_EQ(m.audit->route, "static");
  ASSERT_EQ(m.audit->families.size(), 1u);
  EXPECT_EQ(m.audit->families[0].verdict, audit::Verdict::present_not_audited);
  EXPECT_FALSE(arch_executed(v).has_value());
}

TEST_F(PipelineTest, WithSeveralGpusEachEvaluationIsPinnedToItsQueue) {
  StageSlots slots(2, 2);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] { pipeline->evaluate("src", task, "sm_90a", slots); });
  for (auto& t : threads) t.join();
  ASSERT_EQ(stages->eval_devices.size(), 4u);
  for (int d : stages->eval_devices) EXPECT_TRUE(d == 0 || d == 1) << d;
  StageSlots one(1, 1);
  stages->eval_devices.clear();
  pipeline->evaluate("src", task, "sm_90a", one);
  EXPECT_EQ(stages->eval_devices, std::vector<int>{-1});  // one GPU: as inherited
}

}  // namespace
}  // namespace ptxbench::run
