#include "run/feedback.h"

#include <gtest/gtest.h>

#include "core/testing/golden.h"

namespace ptxbench::run {
namespace {

using judge::Disposition;

const TurnContext kCtx{3, 8, 1.2, "sm_90a"};

ModelView compiled() {
  ModelView v;
  v.compile.outcome = Outcome::passed;
  v.compile.resources = {{"_Z9gemm_wgmmaPK13__nv_bfloat16", 168, 197632, 0, 0, 0}};
  return v;
}

ModelView evaluated(Outcome o) {
  ModelView v = compiled();
  v.eval = EvalFacts{};
  v.eval->outcome = o;
  v.eval->workload = "timed";
  v.eval->baseline = "cuBLASLt";
  return v;
}

AuditFacts runtime_audit(bool wgmma_executed) {
  AuditFacts a;
  a.ran = true;
  a.runtime = true;
  a.route = "cupti";
  a.rule = "any";
  if (wgmma_executed) {
    a.families = {{"wgmma", audit::Verdict::executed, {"HGMMA.64x256x16.F32.BF16"}},
                  {"tma", audit::Verdict::executed, {"UTMALDG.2D"}}};
    a.coverage = 1.0;
    a.metric_pass = true;
    a.sentence = "wgmma and tma executed.";
  } else {
    a.families = {{"wgmma", audit::Verdict::absent, {}},
                  {"tma", audit::Verdict::present_not_executed, {"UTMALDG.2D"}}};
    a.metric_pass = false;
    a.sentence = "No target family executed.";
  }
  return a;
}

std::string golden_path(const std::string& name) {
  return "src/run/testdata/feedback/" + name + ".txt";
}

// `d`: the disposition judge::decide gave the turn (decide_test.cc covers that choice).
void check(ModelView& v, Disposition d, const std::string& name, TurnContext ctx = kCtx) {
  v.disposition = d;
  ptxbench::testing::expect_golden(build_feedback(v, ctx), golden_path(name));
}

TEST(Feedback, NoCode) {
  ModelView v;
  check(v, Disposition::no_code, "no_code");
}

// Campaign 7, P34: a reply that opened <think> and never closed it is all reasoning; the model is
// told that, not "no fenced code block" (its code block was inside the reasoning).
TEST(Feedback, NoCodeWhenTheReplyWasAllReasoning) {
  ModelView v;
  TurnContext ctx = kCtx;
  ctx.all_reasoning = all_reasoning("", "let me write the kernel\n```cuda\n...\n```");
  ASSERT_TRUE(ctx.all_reasoning);
  EXPECT_FALSE(all_reasoning("```cuda\nx\n```", "thoughts"));
  EXPECT_FALSE(all_reasoning(" \n", ""));
  check(v, Disposition::no_code, "no_code_all_reasoning", ctx);
}

TEST(Feedback, Policy) {
  ModelView v = compiled();
  v.compile.outcome = Outcome::policy_violation;
  v.compile.violations = {"#include <cublas_v2.h>: cuBLAS is not allowed",
                          "call to cudaMalloc in the entry point"};
  v.compile.disallowed_symbols = {"cublasGemmEx", "cudaMalloc"};
  check(v, Disposition::policy_violation, "policy");
}

TEST(Feedback, CompileErrorKeepsOnlyErrorsWithoutTempDirs) {
  ModelView v = compiled();
  v.compile.outcome = Outcome::compile_error;
  v.compile.log =
      "nvcc warning : incompatible redefinition for option 'compiler-bindir'\n"
      "/tmp/ptxbench-c1a2b3/candidate.cu(42): warning #177-D: variable \"x\" was declared but "
      "never referenced\n"
      "/tmp/ptxbench-c1a2b3/candidate.cu(57): error: identifier \"wgmma_fence\" is undefined\n"
      "      wgmma_fence();\n"
      "      ^\n"
      "\n"
      "ptxas /tmp/ptxbench-c1a2b3/candidate.ptx, line 310; error   : Arguments mismatch for "
      "instruction 'wgmma'\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n"
      "1 error detected in the compilation of \"/tmp/ptxbench-c1a2b3/candidate.cu\".\n";
  check(v, Disposition::compile_error, "compile_error");
}

TEST(Feedback, CompilerLogCutsAfterMaxErrors) {
  std::string log;
  for (int i = 0; i < 5; ++i) log += "k.cu(" + std::to_string(i) + "): error: bad\n";
  std::string t = trim_compiler_log(log, 2);
  EXPECT_EQ(t, "k.cu(0): error: bad\nk.cu(1): error: bad\n(3 more errors not shown)\n");
}

TEST(Feedback, CompilerLogWithoutErrorLinesKeepsTheTail) {
  std::string t = trim_compiler_log("line a\nline b\n");
  EXPECT_EQ(t, "line a\nline b\n");
}

TEST(Feedback, RuntimeError) {
  ModelView v = evaluated(Outcome::runtime_error);
  v.eval->error =
      "CUDA error: an illegal memory access was encountered (cudaErrorIllegalAddress)\n"
      "Invalid __global__ read of size 16 bytes at gemm_kernel+0x1a30 in candidate.cu:88";
  check(v, Disposition::runtime_error, "runtime_error");
}

TEST(Feedback, TimeoutOnHiddenWorkloadHidesItsSizes) {
  ModelView v = evaluated(Outcome::timeout);
  v.eval->workload = "M1000";
  v.eval->workload_hidden = true;
  v.eval->timeout_s = 30;
  check(v, Disposition::timeout, "timeout");
}

TEST(Feedback, Incorrect) {
  ModelView v = evaluated(Outcome::incorrect);
  Mismatch m;
  m.output = "C";
  m.workload = "timed";
  m.bad_elements = 8192;
  m.total_elements = 58720256;
  m.max_abs_error = 3.8125;
  m.max_rel_error = 1.0;
  m.rel_l2_error = 0.0118;
  m.first_bad = {{{0, 7167}, 0.0, 1.5078}, {{1, 7167}, 0.0, -2.25}};
  v.eval->mismatches = {m};
  Mismatch h = m;
  h.workload = "M1000";
  h.hidden = true;
  h.non_finite = true;
  h.first_bad.clear();
  v.eval->mismatches.push_back(h);
  v.eval->flags = {eval::Flag::cached_result};
  check(v, Disposition::incorrect, "incorrect");
}

TEST(Feedback, PassedMissingInstructions) {
  ModelView v = evaluated(Outcome::passed);
  v.eval->speedup = 0.0412;
  v.eval->kernel_ms = 24.27;
  v.eval->baseline_ms = 1.0;
  v.eval->tflops = 24.8;
  v.audit = runtime_audit(false);
  check(v, Disposition::passed_missing_instructions, "passed_missing_instructions");
}

TEST(Feedback, PassedBelowTarget) {
  ModelView v = evaluated(Outcome::passed);
  v.eval->speedup = 0.874;
  v.eval->kernel_ms = 0.9151;
  v.eval->baseline_ms = 0.7998;
  v.eval->tflops = 657.3;
  v.audit = runtime_audit(true);
  v.compile.warnings = {"C7515: wgmma serialized due to insufficient register resources"};
  check(v, Disposition::passed, "passed_below_target");
  EXPECT_FALSE(target_reached(v, 1.2));
}

TEST(Feedback, PassedTargetReachedOnLastTurn) {
  ModelView v = evaluated(Outcome::passed);
  v.eval->speedup = 1.25;
  v.audit = runtime_audit(true);
  check(v, Disposition::passed, "passed_target_reached", TurnContext{8, 8, 1.2, "sm_90a"});
  EXPECT_TRUE(target_reached(v, 1.2));
  EXPECT_FALSE(target_reached(v, 1.3));
}

TEST(Feedback, GuardFlagsBlockTheTargetButNotesDoNot) {
  ModelView v = evaluated(Outcome::passed);
  v.eval->speedup = 1.25;
  v.audit = runtime_audit(true);
  v.disposition = Disposition::passed;
  v.eval->flags = {eval::Flag::throttled, eval::Flag::timing_unstable};  // notes on the measurement
  EXPECT_TRUE(target_reached(v, 1.2));
  v.eval->flags.push_back(eval::Flag::side_stream);  // the time cannot be trusted
  EXPECT_FALSE(target_reached(v, 1.2));
}

TEST(Feedback, NotEvaluatedWithoutGpu) {
  ModelView v = compiled();
  v.gpu_skipped = true;
  v.eval = EvalFacts{};
  v.eval->outcome = Outcome::not_run;
  v.audit = AuditFacts{};
  v.audit->ran = true;
  v.audit->route = "static";
  v.audit->rule = "any";
  v.audit->families = {{"wgmma", audit::Verdict::present_not_audited, {"HGMMA.64x256x16.F32.BF16"}},
                       {"tma", audit::Verdict::absent, {}}};
  check(v, Disposition::not_evaluated, "not_evaluated");
  EXPECT_FALSE(arch_executed(v).has_value());
  EXPECT_FALSE(is_correct(v));
}

TEST(Feedback, HarnessErrorIsNotTheModelsFault) {
  ModelView v = evaluated(Outcome::harness_error);
  v.eval->error = "ptxbench-worker not found next to ptxbench";
  v.message = v.eval->error;
  check(v, Disposition::harness_error, "harness_error");
}

TEST(Feedback, OnlyPassedCanReachTheTarget) {
  ModelView v = evaluated(Outcome::passed);
  v.eval->speedup = 2.0;
  v.audit = runtime_audit(true);
  v.disposition = Disposition::passed_missing_instructions;  // e.g. a static census only
  EXPECT_FALSE(target_reached(v, 1.2));
  EXPECT_TRUE(is_correct(v));
  v.disposition = Disposition::passed;
  EXPECT_TRUE(target_reached(v, 1.2));
}

TEST(Feedback, CompileTimeout) {
  ModelView v = compiled();
  v.compile.outcome = Outcome::compile_error;
  v.compile.timed_out = true;
  v.compile.timeout_s = 180;
  check(v, Disposition::timeout, "compile_timeout");
}

TEST(Feedback, MissingEntryPointSaysWhatTheTaskCalls) {
  ModelView v = compiled();
  v.compile.outcome = Outcome::compile_error;
  v.compile.log = "ptxas info    : 0 bytes gmem";
  v.compile.entry_point = "no entry point: the source does not define ptxbench_launch";
  v.disposition = Disposition::compile_error;
  const std::string text = build_feedback(v, kCtx);
  EXPECT_NE(text.find("the harness cannot call it: no entry point"), std::string::npos) << text;
  EXPECT_EQ(text.find("ptxas info"), std::string::npos) << text;
}

TEST(Feedback, SandboxRefusalAtRunTime) {
  ModelView v = evaluated(Outcome::policy_violation);
  v.eval->error = "the sandbox refused the call ptrace";
  check(v, Disposition::policy_violation, "policy_at_run_time");
}

TEST(Feedback, TaskSuiteErrorIsNotTheModelsFault) {
  ModelView v = evaluated(Outcome::incorrect);
  v.message = "the task's library baseline fails the task's own correctness rule";
  check(v, Disposition::task_suite_error, "task_suite_error");
}

TEST(Feedback, ADispositionWithoutItsFactsIsAHarnessErrorNotACrash) {
  ModelView v = compiled();  // no evaluation facts
  v.message = "inconsistent report";
  for (Disposition d : {Disposition::incorrect, Disposition::runtime_error, Disposition::passed}) {
    v.disposition = d;
    EXPECT_NE(build_feedback(v, kCtx).find("NOT EVALUATED (benchmark error)"), std::string::npos);
  }
}

}  // namespace
}  // namespace ptxbench::run
