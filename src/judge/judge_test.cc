#include "judge/judge.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "judge/testing/fake_stages.h"
#include "sandbox/refusal.h"

namespace ptxbench::judge {
namespace {

// Leases that say whether a hold is live and give GPU 3.
class FlagLeases final : public Leases {
 public:
  bool cpu_held = false, gpu_held = false;
  std::unique_ptr<Hold> cpu() override { return std::make_unique<Flag>(cpu_held, -1); }
  std::unique_ptr<Hold> gpu() override { return std::make_unique<Flag>(gpu_held, 3); }

 private:
  struct Flag : Hold {
    Flag(bool& f, int d) : flag(f) {
      flag = true;
      device = d;
    }
    ~Flag() override { flag = false; }
    bool& flag;
  };
};

struct JudgeTest : ::testing::Test {
  testing::FakeStages stages;
  FlagLeases leases;
  task::TaskSpec task;
  JudgeOptions options;
  void SetUp() override {
    task.name = "gemm";
    options.gpu = true;
    stages.note = [this] {
      return std::string(leases.cpu_held ? " [cpu]" : "") + (leases.gpu_held ? " [gpu]" : "");
    };
  }
  JudgeReport run(std::optional<std::string> source = std::string("kernel")) {
    return Judge(stages).judge(task, source, options, leases);
  }
  using Calls = std::vector<std::string>;
};

TEST_F(JudgeTest, NoSourceRunsNothing) {
  JudgeReport r = run(std::nullopt);
  EXPECT_EQ(r.disposition, Disposition::no_code);
  EXPECT_TRUE(stages.calls.empty());
  EXPECT_TRUE(r.compile_json().is_null());
}

TEST_F(JudgeTest, ACompileErrorStops) {
  stages.compile_outcome = Outcome::compile_error;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::compile_error);
  EXPECT_EQ(stages.calls, Calls{"compile [cpu]"});
  EXPECT_TRUE(r.eval_json().is_null());
  EXPECT_TRUE(r.audit_json().is_null());
  EXPECT_EQ(r.to_json()["exit_code"], 11);
}

TEST_F(JudgeTest, ACompileTimeoutStopsAsATimeout) {
  stages.compile_outcome = Outcome::compile_timeout;
  stages.compile_timed_out = true;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::timeout);
  EXPECT_EQ(r.compile_json()["outcome"], "compile_timeout");
  EXPECT_EQ(r.to_json()["exit_code"], 14);
  EXPECT_EQ(stages.calls.size(), 1u);
}

TEST_F(JudgeTest, ACompilerThatCannotRunIsAHarnessError) {
  stages.compiler_missing = true;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::harness_error);
  EXPECT_EQ(r.compile_json()["outcome"], "harness_error");
}

TEST_F(JudgeTest, WithoutAGpuNothingRunsTheCandidate) {
  options.gpu = false;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::not_evaluated);
  EXPECT_EQ(stages.calls, Calls{"compile [cpu]"});
  EXPECT_TRUE(r.gpu_stages_skipped());
  EXPECT_EQ(r.eval_json(), (Json{{"outcome", "not_run"}, {"reason", "no GPU"}}));
  EXPECT_EQ(r.audit_json()["route"], "static");
  EXPECT_EQ(r.audit_json()["census"]["target_families"], Json::array({"wgmma"}));
}

TEST_F(JudgeTest, AnArchitectureTheGpuCannotRunIsNotEvaluated) {
  options.compile.arch = "sm_100a";
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::not_evaluated);
  ASSERT_TRUE(r.eval.skipped());
  EXPECT_EQ(r.eval.skipped()->why, "the GPU here runs sm_90a, not sm_100a");
  EXPECT_EQ(stages.calls.size(), 1u);
}

TEST_F(JudgeTest, OnABlackwellGpuAHopperCandidateIsNotEvaluated) {
  options.gpu_arch = task::Arch::sm_100a;  // as eval/device_arch.h says on a B200
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::not_evaluated);
  ASSERT_TRUE(r.eval.skipped());
  EXPECT_EQ(r.eval.skipped()->why, "the GPU here runs sm_100a, not sm_90a");
  EXPECT_EQ(stages.calls.size(), 1u);
}

TEST_F(JudgeTest, OnABlackwellGpuABlackwellCandidateIsJudged) {
  options.gpu_arch = task::Arch::sm_100a;
  options.compile.arch = "sm_100a";
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::passed);
  EXPECT_EQ(stages.calls, (Calls{"compile [cpu]", "evaluate /cache/k.so [gpu]",
                                 "audit /cache/k.so sm_100a [gpu]"}));
  EXPECT_EQ(stages.eval_options.arch, "sm_100a");
}

TEST_F(JudgeTest, AGpuOfNeitherTargetRunsNothingAndSaysWhy) {
  options.gpu_arch.reset();
  options.gpu_none_why = "NVIDIA A100: compute capability 8.0 runs neither target";
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::not_evaluated);
  ASSERT_TRUE(r.eval.skipped());
  EXPECT_EQ(r.eval.skipped()->why, "NVIDIA A100: compute capability 8.0 runs neither target");
  EXPECT_EQ(stages.calls.size(), 1u);
}

TEST_F(JudgeTest, IncorrectIsNotAudited) {
  stages.eval_outcome = Outcome::incorrect;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::incorrect);
  EXPECT_EQ(stages.calls, (Calls{"compile [cpu]", "evaluate /cache/k.so [gpu]"}));
  EXPECT_TRUE(r.audit_json().is_null());
}

TEST_F(JudgeTest, CorrectAndExecutedIsPassedWithOneGpuLeaseForBothStages) {
  options.compile.arch = "sm_90a";
  options.eval.device = 0;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::passed);
  EXPECT_EQ(stages.calls, (Calls{"compile [cpu]", "evaluate /cache/k.so [gpu]",
                                 "audit /cache/k.so sm_90a [gpu]"}));
  EXPECT_EQ(stages.eval_options.device, 3);  // the leased GPU wins over the options'
  EXPECT_EQ(stages.eval_options.audit, eval::Instrument::cupti);  // audited in the session
  EXPECT_TRUE(stages.eval_options.timing);
  EXPECT_EQ(stages.eval_options.arch, "sm_90a");
  EXPECT_EQ(stages.eval_options.nvcc_version, "Cuda compilation tools, release 13.0, V13.0.88");
  EXPECT_EQ(stages.audit_options.sass_listing, "/cache/k.sass");
  EXPECT_FALSE(leases.gpu_held);
}

TEST_F(JudgeTest, CorrectWithoutTheTargetInstructions) {
  stages.executed = false;
  EXPECT_EQ(run().disposition, Disposition::passed_missing_instructions);
}

TEST_F(JudgeTest, AHarnessErrorInEvaluationIsNotTheCandidatesFault) {
  stages.eval_outcome = Outcome::harness_error;
  stages.eval_message = "the GPU worker does not exist";
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::harness_error);
  EXPECT_EQ(r.message, "the GPU worker does not exist");
  EXPECT_EQ(stages.calls.size(), 2u);  // not audited
}

TEST_F(JudgeTest, ASandboxRefusalInEvaluationIsAPolicyViolation) {
  stages.eval_outcome = Outcome::policy_violation;
  stages.eval_message = "the sandbox refused ptrace";
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::policy_violation);
  EXPECT_EQ(exit_code(r.disposition), 12);
  EXPECT_EQ(stages.calls.size(), 2u);
}

TEST_F(JudgeTest, AnAuditThatFailsIsAHarnessError) {
  stages.audit_fails = true;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::harness_error);
  EXPECT_EQ(r.audit_json(), (Json{{"error", "no disassembler"}}));
}

TEST_F(JudgeTest, AuditOnlyIsAnUntimedSessionWhoseCallsAreChecked) {
  options.evaluate = false;
  stages.executed = false;
  JudgeReport r = run();
  EXPECT_EQ(stages.calls, (Calls{"compile [cpu]", "evaluate /cache/k.so [gpu]",
                                 "audit /cache/k.so sm_90a [gpu]"}));
  EXPECT_FALSE(stages.eval_options.timing);
  EXPECT_EQ(r.disposition, Disposition::passed_missing_instructions);
  stages.eval_outcome = Outcome::incorrect;  // a wrong output in an audited call
  EXPECT_EQ(run().disposition, Disposition::incorrect);
}

TEST_F(JudgeTest, AutoAuditRunsAnUntimedNcuSessionWhenCuptiMissesAKernel) {
  stages.cupti_misses_a_kernel = true;
  JudgeReport r = run();
  EXPECT_EQ(stages.calls,
            (Calls{"compile [cpu]", "evaluate /cache/k.so [gpu]", "audit /cache/k.so sm_90a [gpu]",
                   "evaluate /cache/k.so [gpu]", "audit /cache/k.so sm_90a ncu [gpu]"}));
  EXPECT_EQ(stages.eval_options.audit, eval::Instrument::nvtx);
  EXPECT_FALSE(stages.eval_options.timing);
  ASSERT_TRUE(r.audit.done());
  EXPECT_EQ(r.audit.done()->route, audit::Route::ncu);
  EXPECT_NE(r.audit.done()->messages.at(0).find("audited with Nsight Compute"), std::string::npos);
}

TEST_F(JudgeTest, AWrongOutputInTheNcuSessionIsTheCandidatesVerdict) {
  stages.cupti_misses_a_kernel = true;
  stages.speedup = 1.5;
  stages.ncu_session_outcome = Outcome::incorrect;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::incorrect);
  ASSERT_TRUE(r.eval.done()->timing.has_value());  // the first session's timing is kept
  EXPECT_EQ(r.eval.done()->timing->speedup, 1.5);
}

// The ncu session is one of the candidate's judged sessions, as the memcheck session is
// (eval/tool_session.h): a throw, a fault, a hang or a refused call there is its verdict, not
// only wrong outputs (leak3/ncu_session_throw_keeps_pass.cu).
TEST_F(JudgeTest, ACandidateFailureOfAnyKindInTheNcuSessionIsItsVerdict) {
  stages.cupti_misses_a_kernel = true;
  const std::pair<Outcome, Disposition> cases[] = {
      {Outcome::runtime_error, Disposition::runtime_error},
      {Outcome::timeout, Disposition::timeout},
      {Outcome::policy_violation, Disposition::policy_violation}};
  for (const auto& [outcome, disposition] : cases) {
    stages.ncu_session_outcome = outcome;
    JudgeReport r = run();
    EXPECT_EQ(r.disposition, disposition) << to_string(outcome);
    EXPECT_EQ(r.message, "under Nsight Compute: the ncu session's words");
  }
}

// Only a failure of the judge's side under ncu (a harness error, the broker's sandbox refusing
// the tool's injected library) leaves the CUPTI audit standing, and says so.
TEST_F(JudgeTest, TheJudgesOwnFailureInTheNcuSessionLeavesTheCuptiAuditStanding) {
  stages.cupti_misses_a_kernel = true;
  for (const auto& [outcome, exit] : {std::pair{Outcome::harness_error, -1},
                                      std::pair{Outcome::runtime_error, kSandboxRefusalExit}}) {
    stages.ncu_session_outcome = outcome;
    stages.ncu_broker_exit = exit;
    JudgeReport r = run();
    EXPECT_EQ(r.disposition, Disposition::passed) << to_string(outcome);
    ASSERT_TRUE(r.audit.done());
    EXPECT_EQ(r.audit.done()->route, audit::Route::cupti);
    ASSERT_FALSE(r.audit.done()->messages.empty());
    EXPECT_NE(r.audit.done()->messages.back().find("Nsight Compute session ended"),
              std::string::npos);
  }
}

TEST_F(JudgeTest, AnExplicitCuptiRouteNeverFallsBack) {
  stages.cupti_misses_a_kernel = true;
  options.audit.route = audit::RouteChoice::cupti;
  run();
  EXPECT_EQ(stages.calls.size(), 3u);
}

TEST_F(JudgeTest, CompileOnlyRunsNoGpuStage) {
  options.evaluate = false;
  options.run_audit = false;
  JudgeReport r = run();
  EXPECT_EQ(stages.calls, Calls{"compile [cpu]"});
  EXPECT_EQ(r.disposition, Disposition::not_evaluated);
}

TEST_F(JudgeTest, AuditTurnedOff) {
  options.run_audit = false;
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::passed);
  EXPECT_EQ(stages.calls.size(), 2u);
}

// Which state each stage ended in, as a word (stage.h).
template <class T>
std::string state_of(const Stage<T>& s) {
  if (s.done()) return "done";
  if (s.failed()) return "failed";
  if (s.skipped_for(SkipCause::no_gpu)) return "skipped(no_gpu)";
  if (s.skipped_for(SkipCause::turned_off)) return "skipped(turned_off)";
  return "not_reached";
}

std::string states_of(const JudgeReport& r) {
  return state_of(r.compile) + " " + state_of(r.eval) + " " + state_of(r.audit);
}

// Each stage's state as the judge leaves it, and as the stored parts give it back: the same.
TEST_F(JudgeTest, EachStagesStateReadsBackFromItsStoredPart) {
  const auto check = [this](const char* expected) {
    JudgeReport r = run();
    EXPECT_EQ(states_of(r), expected);
    auto back = JudgeReport::from_stages(r.compile_json(), r.eval_json(), r.audit_json());
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(states_of(*back), expected);
    EXPECT_EQ(to_text(back->eval_json()), to_text(r.eval_json()));
  };
  check("done done done");
  options.run_audit = false;
  check("done done skipped(turned_off)");
  stages.eval_outcome = Outcome::incorrect;
  check("done done not_reached");  // the audit would not have run either way
  options.evaluate = false;
  check("done skipped(turned_off) skipped(turned_off)");
  options.evaluate = true;
  options.run_audit = true;
  options.gpu = false;
  check("done skipped(no_gpu) skipped(no_gpu)");
  options.gpu = true;
  stages.eval_outcome = Outcome::passed;
  stages.audit_fails = true;
  check("done done failed");
  stages.compile_outcome = Outcome::compile_error;
  check("done not_reached not_reached");
  stages.compiler_missing = true;
  check("failed not_reached not_reached");
}

// The GPU's cost of a candidate: the time it held its GPU lease (the stages run under it),
// stored with the evaluation; none without a GPU.
TEST_F(JudgeTest, RecordsTheSecondsTheCandidateHeldItsGpu) {
  stages.note = [this] {
    if (leases.gpu_held) std::this_thread::sleep_for(std::chrono::milliseconds(60));
    return std::string();
  };
  JudgeReport r = run();
  EXPECT_EQ(r.disposition, Disposition::passed);
  EXPECT_GE(r.gpu_seconds, 0.1);  // evaluate and audit, 60 ms each
  EXPECT_LT(r.gpu_seconds, 5.0);
  EXPECT_DOUBLE_EQ(r.eval_json()["gpu_seconds"].get<double>(), r.gpu_seconds);

  options.gpu = false;
  JudgeReport none = run();
  EXPECT_EQ(none.gpu_seconds, 0);
  EXPECT_FALSE(none.eval_json().contains("gpu_seconds"));
}

}  // namespace
}  // namespace ptxbench::judge
