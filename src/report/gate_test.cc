#include "report/gate.h"

#include <gtest/gtest.h>

namespace ptxbench::report {
namespace {

using judge::Disposition;

judge::JudgeReport judged(Disposition d, std::optional<double> speedup = std::nullopt) {
  judge::JudgeReport r;
  r.task = "gemm_n7168_k5120";
  r.arch = "sm_90a";
  r.has_code = true;
  r.disposition = d;
  r.message = "why";
  if (speedup) {
    eval::EvalResult e;
    e.seconds = 2;
    e.timing = eval::TimingReport{};
    e.timing->speedup = speedup;
    r.eval = std::move(e);
  }
  return r;
}

TEST(Gate, ACorrectKernelPassesWithoutARule) {
  auto v = gate_verdict(judged(Disposition::passed, 0.5), {});
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.exit_code, 0);
  auto m = gate_verdict(judged(Disposition::passed_missing_instructions, 0.5), {});
  EXPECT_TRUE(m.passed);
}

TEST(Gate, MinSpeedupFailsASlowerKernelWithItsOwnCode) {
  const GateRule rule{1.0, false};
  auto slow = gate_verdict(judged(Disposition::passed, 0.945), rule);
  EXPECT_FALSE(slow.passed);
  EXPECT_EQ(slow.exit_code, kGateMissed);
  EXPECT_EQ(slow.reason, "speedup 0.945x is below the gate's 1x");
  EXPECT_TRUE(gate_verdict(judged(Disposition::passed, 1.0), rule).passed);
  auto untimed = gate_verdict(judged(Disposition::passed), rule);
  EXPECT_FALSE(untimed.passed);
  EXPECT_EQ(untimed.exit_code, kGateMissed);
}

TEST(Gate, RequireArchFailsAKernelWhoseTargetsDidNotExecute) {
  auto v =
      gate_verdict(judged(Disposition::passed_missing_instructions, 1.2), {std::nullopt, true});
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.exit_code, 16);
  auto off = judged(Disposition::passed, 1.2);
  off.audit = judge::Skipped{judge::SkipCause::turned_off, judge::kAuditTurnedOff};
  EXPECT_EQ(gate_verdict(off, {std::nullopt, true}).exit_code, kGateMissed);
}

TEST(Gate, AFailingVerdictKeepsItsDispositionsCode) {
  EXPECT_EQ(gate_verdict(judged(Disposition::incorrect), {}).exit_code, 10);
  EXPECT_EQ(gate_verdict(judged(Disposition::compile_error), {}).exit_code, 11);
  EXPECT_EQ(gate_verdict(judged(Disposition::harness_error), {}).exit_code, 1);
}

TEST(Gate, NotEvaluatedNeverPasses) {
  auto r = judged(Disposition::not_evaluated);
  r.eval = judge::Skipped{judge::SkipCause::no_gpu, ""};
  auto v = gate_verdict(r, {});
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.exit_code, kGateMissed);
  EXPECT_NE(v.reason.find("correctness is unknown"), std::string::npos);
  compile::CompileResult c;
  c.census.target_families = {"wgmma", "tma"};
  c.census.targets_present = {"wgmma"};
  r.compile = std::move(c);
  EXPECT_NE(gate_verdict(r, {}).reason.find("(compiled; its SASS has wgmma, not proof that they "
                                            "execute)"),
            std::string::npos);
}

TEST(Gate, TheExitCodeIsTheFirstFailingKernels) {
  std::vector<GateCase> cases;
  cases.push_back({"a.cu", judged(Disposition::passed, 1.1), {true, 0, "ok"}});
  EXPECT_EQ(gate_exit_code(cases), 0);
  cases.push_back({"b.cu", judged(Disposition::incorrect), {false, 10, "INCORRECT"}});
  cases.push_back({"c.cu", judged(Disposition::harness_error), {false, 1, "harness"}});
  EXPECT_EQ(gate_exit_code(cases), 10);
}

TEST(Gate, JunitHasOneTestcasePerKernelAndEscapes) {
  const GateRule rule{1.0, true};
  std::vector<GateCase> cases;
  for (auto [file, d, s] : {std::tuple{"ok.cu", Disposition::passed, 1.1},
                            std::tuple{"slow <1>.cu", Disposition::passed, 0.9},
                            std::tuple{"broken.cu", Disposition::harness_error, 0.0}}) {
    auto r = judged(d, s > 0 ? std::optional<double>(s) : std::nullopt);
    cases.push_back({file, r, gate_verdict(r, rule)});
  }
  const std::string xml = gate_junit(cases, rule, "gemm_n7168_k5120", "sm_90a");
  EXPECT_NE(xml.find("<testsuites name=\"ptxbench gate\" tests=\"3\" failures=\"1\" errors=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"slow &lt;1&gt;.cu\" time=\"2.000\""), std::string::npos) << xml;
  EXPECT_NE(
      xml.find("<failure type=\"passed\" message=\"speedup 0.900x is below the gate&#39;s 1x\"/>"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<error type=\"harness_error\""), std::string::npos);
  EXPECT_NE(xml.find("<property name=\"min_speedup\" value=\"1\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<property name=\"require_arch\" value=\"true\"/>"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::report
