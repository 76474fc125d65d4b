// Auditor: judging-session traces built from outputs recorded on the H200 (reference GEMM at
// M=1000; testdata/): CUPTI per-PC records and ncu raw pages, joined to cuobjdump listings
// that a fake ProcessRunner answers with.
#include "audit/auditor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "audit/join.h"
#include "audit/test_data.h"
#include "core/fs.h"
#include "task/loader.h"

namespace ptxbench::audit {
namespace {

using testing::testdata;
using testing::testdata_json;

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Answers the disassembler with the reference GEMM's listing.
class FakeRunner : public ProcessRunner {
 public:
  std::vector<std::string> disassembled;
  std::string listing = "sass_reference_gemm.txt";
  Result<ProcessResult> run(const ProcessSpec& spec) override {
    if (!has(spec.argv, "-sass")) return make_error("unexpected command " + spec.argv.at(0));
    ProcessResult r;
    r.exit_code = 0;
    disassembled.push_back(spec.argv.back());
    r.stdout_text = testdata(listing);
    return r;
  }
};

// A CUPTI trace from a recorded worker result: its launches and its records.
// The recorded traces ran gemm_n7168_k5120 at M = 1000 (the judge gives the audited calls'
// FLOPs, JudgeSession::audit_phase).
constexpr double kM1000Flops = 2.0 * 1000 * 7168 * 5120;

eval::AuditTrace cupti_trace(const std::string& recorded, std::vector<std::string> workloads) {
  eval::AuditTrace t;
  t.route = eval::Instrument::cupti;
  t.flops = kM1000Flops * static_cast<double>(workloads.size());
  t.workloads = std::move(workloads);
  const Json j = testdata_json(recorded);
  auto records = records_by_function(j);
  EXPECT_TRUE(records.ok());
  for (const auto& l : j.at("launches")) {
    eval::TracedFunction f;
    f.name = l.at("function").get<std::string>();
    f.launches = 1;
    auto it = records->find(f.name);
    if (it != records->end())
      for (const auto& [pc, c] : it->second) f.pcs[pc] = {c.warp_executed, c.thread_pred_on};
    f.recorded = !f.pcs.empty();
    if (!f.recorded) f.note = "CUPTI returned no records for this function";
    t.functions.push_back(std::move(f));
  }
  // The broker measured the functions' times: equal shares.
  t.shares_measured = true;
  for (auto& f : t.functions) f.share = 1.0 / static_cast<double>(t.functions.size());
  return t;
}

// The reference GEMM's function (sass_reference_gemm.txt) as the session names it.
const std::string kReferenceGemm =
    "_ZN52_GLOBAL__N__91902b47_19_gemm_n7168_k5120_cu_9377dfb521gemm_tma_wgmma_"
    "kernelE14CUtensorMap_"
    "stS0_P13__nv_bfloat16iii";

// An ncu trace from a recorded raw page, the session having chosen `chosen` (name, share) by
// their measured times.
eval::AuditTrace ncu_trace(const std::string& recorded,
                           std::vector<std::pair<std::string, double>> chosen = {
                               {kReferenceGemm, 1.0}}) {
  eval::AuditTrace t;
  t.route = eval::Instrument::nvtx;
  t.workloads = {"m1000"};
  t.flops = kM1000Flops;
  t.ncu_output = testdata(recorded);
  t.shares_measured = true;
  for (auto& [name, share] : chosen) {
    eval::TracedFunction f;
    f.name = name;
    f.launches = 1;
    f.share = share;
    t.functions.push_back(std::move(f));
  }
  return t;
}

class AuditorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : {"PTXBENCH_CUOBJDUMP", "PTXBENCH_NVDISASM"})
      setenv(v, "/bin/true", 1);  // found and executable; the fake runner answers for them
    auto t = task::load_task_by_name(paths_, "gemm_n7168_k5120");
    ASSERT_TRUE(t.ok());
    task_ = *t;
  }
  Result<AuditResult> audit(const eval::AuditTrace* trace, std::filesystem::path listing = {}) {
    Auditor auditor(paths_, runner_);
    AuditOptions o;
    o.sass_listing = listing;
    return auditor.audit(so_, task_, "sm_90a", trace, o, "no GPU here");
  }
  std::filesystem::path so_ = "/cache/candidate.so";
  Paths paths_ = Paths::discover();
  FakeRunner runner_;
  task::TaskSpec task_;
};

TEST_F(AuditorTest, CuptiTraceIsJoinedToTheListing) {
  const auto t = cupti_trace("cupti_reference_gemm.json", {"m1000"});
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->route, Route::cupti);
  EXPECT_TRUE(r->runtime_run);
  EXPECT_EQ(r->workload, "m1000");
  ASSERT_EQ(r->kernels.size(), 1u);
  EXPECT_TRUE(r->kernels[0].recorded);
  EXPECT_EQ(r->kernels[0].unmatched_records, 0);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  EXPECT_EQ(r->family("wgmma")->thread_pred_on, 18350080u);
  EXPECT_NEAR(r->coverage.ratio, 1.024, 1e-9);
  EXPECT_TRUE(r->instruction_metric_evaluated);
  EXPECT_TRUE(r->instruction_metric_passed);
  EXPECT_EQ(needs_ncu(*r), "");
  EXPECT_EQ(r->feedback(), "");
}

TEST_F(AuditorTest, CoverageIsOverTheFlopsOfEveryAuditedCall) {
  // The same counts over two audited calls of that workload: half the task's work ran.
  const auto t = cupti_trace("cupti_reference_gemm.json", {"m1000", "m1000"});
  auto r = audit(&t);
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->coverage.ratio, 0.512, 1e-9);
}

TEST_F(AuditorTest, TheCompileStagesListingSparesASecondDisassembly) {
  const auto t = cupti_trace("cupti_reference_gemm.json", {"m1000"});
  auto plain = audit(&t);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(has(runner_.disassembled, so_.string()));
  runner_.disassembled.clear();
  auto reused = audit(&t, paths_.root / "src/audit/testdata/sass_reference_gemm.txt");
  ASSERT_TRUE(reused.ok()) << reused.error().to_string();
  EXPECT_TRUE(runner_.disassembled.empty());
  EXPECT_EQ(reused->family("wgmma")->thread_pred_on, plain->family("wgmma")->thread_pred_on);
}

TEST_F(AuditorTest, AnInstrumentationFailureIsAnErrorWithTheHint) {
  eval::AuditTrace t;
  t.route = eval::Instrument::cupti;
  t.error = "cuptiProfilerInitialize failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)";
  t.error_kind = "permission";
  auto r = audit(&t);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("INSUFFICIENT_PRIVILEGES"), std::string::npos);
  EXPECT_NE(r.error().hint.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
}

TEST_F(AuditorTest, NoTraceGivesTheStaticCensusAndSaysWhy) {
  auto r = audit(nullptr);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_FALSE(r->runtime_run);
  EXPECT_EQ(r->route, Route::static_only);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::present_not_audited);
  EXPECT_FALSE(r->instruction_metric_evaluated);
  ASSERT_FALSE(r->messages.empty());
  EXPECT_EQ(r->messages[0], "runtime audit not run: no GPU here");
}

TEST_F(AuditorTest, AnUnrecordedFunctionIsNamedAndCallsForNcu) {
  runner_.listing = "sass_reference_gemm.txt";
  const auto t = cupti_trace("cupti_two_kernels_gemm.json", {"m1000"});
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->kernels.size(), 2u);
  int unrecorded = 0;
  for (const auto& k : r->kernels) unrecorded += !k.recorded;
  EXPECT_EQ(unrecorded, 2);  // neither function is in this listing: no join, named
  EXPECT_EQ(needs_ncu(*r),
            "2 of 2 kernel functions launched in the audited calls were not recorded by CUPTI");
}

// A function launched earlier in the session but not in the audited calls (a helper of the
// first calls only) has no counts to miss: no second session under Nsight Compute for it, and
// no credit either (its wgmma: present, not executed).
TEST_F(AuditorTest, AFunctionNotLaunchedInTheAuditedCallsDoesNotCallForNcu) {
  auto t = cupti_trace("cupti_reference_gemm.json", {"m1000"});
  ASSERT_EQ(t.functions.size(), 1u);
  eval::TracedFunction& f = t.functions.front();
  f.pcs.clear();
  f.recorded = false;
  f.launches = 0;
  f.note = std::string(eval::kNotLaunchedInAuditedCalls);
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(needs_ncu(*r), "");
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::present_not_executed);
  // Launched in the audited calls and still not recorded: CUPTI missed it.
  f.launches = 1;
  f.note = "CUPTI returned no records for this function";
  r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(needs_ncu(*r),
            "1 of 1 kernel functions launched in the audited calls were not recorded by CUPTI");
}

// The session audited the function carrying 99% of the kernel time and skipped 27 helpers:
// they are listed with their share and why, call for no Nsight Compute session, and the credit
// rests on the audited function.
TEST_F(AuditorTest, SkippedFunctionsAreListedAndDoNotCallForNcu) {
  auto t = cupti_trace("cupti_reference_gemm.json", {"m1000"});
  ASSERT_EQ(t.functions.size(), 1u);
  t.shares_measured = true;
  t.functions[0].share = 0.99;
  for (int i = 0; i < 27; ++i)
    t.skipped.push_back({"_Z6helperILi" + std::to_string(i) + "EEvv", 0.01, 0.01 / 27,
                         eval::AuditSkip::small_share});
  t.audited_share = 0.99;
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->kernels.size(), 28u);
  EXPECT_EQ(r->kernels[0].skipped, eval::AuditSkip::none);
  EXPECT_EQ(r->kernels[5].skipped, eval::AuditSkip::small_share);
  EXPECT_NEAR(r->kernels[5].time_share, 0.01 / 27, 1e-12);
  EXPECT_EQ(needs_ncu(*r), "");
  ASSERT_TRUE(r->audited_time_share);
  EXPECT_NEAR(*r->audited_time_share, 0.99, 1e-12);
  EXPECT_TRUE(r->instruction_metric_passed);
  const Json j = r->to_json();
  EXPECT_EQ(j["kernels"][5]["skipped_because"], "small_share");
  EXPECT_EQ(j["kernels"][0]["audited"], true);
  // The audited function timed out under instrumentation: its share is not proven.
  t.functions[0].pcs.clear();
  t.functions[0].recorded = false;
  t.functions[0].note = "an audited call did not finish";
  r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_DOUBLE_EQ(*r->audited_time_share, 0);
  EXPECT_FALSE(r->instruction_metric_passed);
  EXPECT_TRUE(r->instruction_metric_evaluated);
}

// A checked call with more launches than the broker times left the shares unknown: whatever
// the audited functions executed, no credit (red team 2026-12-04, gemm_launch_flood_share).
TEST_F(AuditorTest, ALaunchFloodThatHidTheSharesEarnsNoCredit) {
  auto t = cupti_trace("cupti_reference_gemm.json", {"m1000"});
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->instruction_metric_passed);  // shares measured: the metric as usual
  t.shares_unknown = true;
  r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  ASSERT_TRUE(r->audited_time_share);
  EXPECT_DOUBLE_EQ(*r->audited_time_share, 0);
  EXPECT_FALSE(r->instruction_metric_passed);
}

// 280 equal functions: one audited, executing wgmma, covering 1/280 of the time: no credit.
TEST_F(AuditorTest, ManyEqualFunctionsEarnNoCredit) {
  auto t = cupti_trace("cupti_reference_gemm.json", {"m1000"});
  t.shares_measured = true;
  t.functions[0].share = 1.0 / 280;
  for (int i = 1; i < 280; ++i)
    t.skipped.push_back({"k" + std::to_string(i), 1, 1.0 / 280, eval::AuditSkip::unreachable});
  t.audited_share = 1.0 / 280;
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  EXPECT_FALSE(r->instruction_metric_passed);
  EXPECT_TRUE(r->instruction_metric_evaluated);
  EXPECT_EQ(needs_ncu(*r), "");
}

TEST_F(AuditorTest, NcuTraceGivesRowsPerOpcodeAndTheCorroboratingCounters) {
  const auto t = ncu_trace("ncu_raw_reference_gemm.csv");
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->route, Route::ncu);
  ASSERT_EQ(r->kernels.size(), 1u);
  EXPECT_EQ(r->kernels[0].launches, 1);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  EXPECT_NEAR(r->coverage.ratio, 1.024, 1e-9);
  EXPECT_DOUBLE_EQ(r->corroborating.at("sm__inst_executed_pipe_tensor_op_gmma"), 573440);
  EXPECT_EQ(needs_ncu(*r), "");
}

TEST_F(AuditorTest, NcuThatProfiledNothingSaysSo) {
  eval::AuditTrace t = ncu_trace("ncu_raw_reference_gemm.csv");
  t.ncu_output = "==PROF== Disconnected\n";
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->kernels.size(), 1u);  // the chosen function, with its static rows only
  EXPECT_FALSE(r->kernels[0].recorded);
  EXPECT_DOUBLE_EQ(*r->audited_time_share, 0);
  EXPECT_FALSE(r->instruction_metric_passed);
  bool said = false;
  for (const auto& m : r->messages)
    said = said || m.find("profiled no kernel") != std::string::npos;
  EXPECT_TRUE(said);
}

// ncu's own "==ERROR== ERR_NVGPUCTRPERM" line is the machine's; the same word inside a kernel
// name in the CSV (words/ncu_perm_word_kernel_name.cu) is not: the rows are read as usual.
TEST_F(AuditorTest, OnlyNcusOwnErrorLineSaysTheCountersAreRestricted) {
  eval::AuditTrace t = ncu_trace("ncu_raw_reference_gemm.csv");
  t.ncu_output =
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
      "NVIDIA GPU Performance Counters on the target device 0.\n";
  auto denied = audit(&t);
  ASSERT_FALSE(denied.ok());
  EXPECT_NE(denied.error().message.find("may not read the GPU performance counters"),
            std::string::npos);

  eval::AuditTrace named = ncu_trace("ncu_raw_reference_gemm.csv");
  const std::string kernel = "gemm_tile_ERR_NVGPUCTRPERM";
  named.ncu_output =
      "==PROF== Connected to process 1 (ptxbench-worker) " + kernel + "\n" + named.ncu_output;
  auto r = audit(&named);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  // An error line of ncu's that quotes the kernel's name (words2/ncu_error_line_kernel_name.cu).
  named = ncu_trace("ncu_raw_reference_gemm.csv");
  named.ncu_output = "==ERROR== Failed to profile \"words_ERR_NVGPUCTRPERM_probe\" in process 1\n" +
                     named.ncu_output;
  r = audit(&named);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
}

// A chosen function its own audit broker never launched in the audited calls (a host that
// launches another function in a fresh process) did none of their work: its share is lost, and
// it sends nobody to Nsight Compute (leak3/ncu_fallback_token_credit.cu).
TEST_F(AuditorTest, AChosenFunctionItsBrokerNeverLaunchedCarriesNoShare) {
  auto t = cupti_trace("cupti_reference_gemm.json", {"m1000"});
  t.functions[0].share = 0.5;
  eval::TracedFunction bottom;
  bottom.name = "_Z9lk_bottomv";
  bottom.share = 0.5;
  bottom.note = std::string(eval::kNotLaunchedInAuditedCalls);
  t.functions.push_back(bottom);
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(needs_ncu(*r), "");
  ASSERT_TRUE(r->audited_time_share);
  EXPECT_NEAR(*r->audited_time_share, 0.5, 1e-12);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  EXPECT_FALSE(r->instruction_metric_passed);
  EXPECT_TRUE(r->instruction_metric_evaluated);
}

// On the Nsight Compute route only the functions the session chose count, as on the CUPTI
// route: a target family executed only in a function of small share (skipped) earns nothing
// (leak3/ncu_route_no_share_rule.cu).
TEST_F(AuditorTest, TheNcuRouteCountsOnlyTheChosenFunctions) {
  const std::string prologue = "prologue_scale_probe(const __nv_bfloat16 *, long long, float *)";
  auto t = ncu_trace("ncu_raw_two_kernels_gemm.csv", {{prologue, 0.97}});
  t.skipped.push_back({kReferenceGemm, 0.03, 0.03, eval::AuditSkip::small_share});
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->route, Route::ncu);
  ASSERT_EQ(r->kernels.size(), 2u);
  EXPECT_TRUE(r->kernels[0].recorded);
  EXPECT_EQ(r->kernels[1].skipped, eval::AuditSkip::small_share);
  EXPECT_FALSE(r->kernels[1].recorded);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::present_not_audited);
  EXPECT_NEAR(*r->audited_time_share, 0.97, 1e-12);
  EXPECT_FALSE(r->instruction_metric_passed);
  EXPECT_TRUE(r->instruction_metric_evaluated);
}

// The share rule holds on the Nsight Compute route: the chosen functions' measured share must
// reach the target, and without measured shares there is no credit at all.
TEST_F(AuditorTest, TheNcuRouteHoldsTheShareRule) {
  auto t = ncu_trace("ncu_raw_reference_gemm.csv");
  auto r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->instruction_metric_passed);
  t = ncu_trace("ncu_raw_reference_gemm.csv", {{kReferenceGemm, 0.5}});
  t.skipped.push_back({"_Z7k_otherv", 1, 0.5, eval::AuditSkip::budget});
  r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  EXPECT_NEAR(*r->audited_time_share, 0.5, 1e-12);
  EXPECT_FALSE(r->instruction_metric_passed);
  t = ncu_trace("ncu_raw_reference_gemm.csv");
  t.shares_measured = false;
  r = audit(&t);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_FALSE(r->audited_time_share);
  EXPECT_FALSE(r->instruction_metric_passed);
  EXPECT_TRUE(r->instruction_metric_evaluated);
  EXPECT_NE(r->feedback().find("was not measured"), std::string::npos) << r->feedback();
}

TEST_F(AuditorTest, UnknownArchIsAnError) {
  Auditor auditor(paths_, runner_);
  EXPECT_FALSE(auditor.audit(so_, task_, "sm_100b", nullptr, AuditOptions{}).ok());
}

}  // namespace
}  // namespace ptxbench::audit
