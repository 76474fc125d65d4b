// The PC join and the verdicts on CUPTI records and cubin listings recorded on the H200
// (gemm controls at M=1000; src/audit/testdata/).
#include "audit/join.h"

#include <gtest/gtest.h>

#include "audit/test_data.h"
#include "audit/verdicts.h"
#include "task/loader.h"

namespace ptxbench::audit {
namespace {

using testing::testdata;
using testing::testdata_json;

struct Recorded {
  std::vector<compile::SassFunction> listing;
  KernelAudit kernel;
};

Recorded load(const std::string& name) {
  Recorded r;
  r.listing = compile::parse_sass(testdata("sass_" + name + ".txt"));
  EXPECT_EQ(r.listing.size(), 1u);
  auto records = records_by_function(testdata_json("cupti_" + name + ".json"));
  EXPECT_TRUE(records.ok());
  EXPECT_EQ(records->size(), 1u);
  auto it = records->find(r.listing.at(0).name);
  EXPECT_NE(it, records->end()) << "records name the listed function";
  r.kernel = join_pcs(r.listing.at(0), it->second);
  r.kernel.launches = 1;
  return r;
}

const OpcodeCounts* row(const KernelAudit& k, const std::string& opcode) {
  for (const auto& o : k.opcodes)
    if (o.opcode == opcode) return &o;
  return nullptr;
}

task::TaskSpec gemm_task() {
  auto t = task::load_task_by_name(Paths::discover(), "gemm_n7168_k5120");
  EXPECT_TRUE(t.ok());
  return *t;
}

double task_flops_m1000() {
  return 2.0 * 1000 * 7168 * 5120;
}

TEST(Join, SumsTheTwoMetricRecordsOfEachPc) {
  auto records = records_by_function(testdata_json("cupti_reference_gemm.json"));
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(testdata_json("cupti_reference_gemm.json")["records"].size(), 2282u);
  EXPECT_EQ(records->begin()->second.size(), 1141u);  // one record per (PC, metric)
}

TEST(Join, ReferenceGemmCountsEveryHgmma) {
  Recorded r = load("reference_gemm");
  EXPECT_EQ(r.kernel.unmatched_records, 0);
  const OpcodeCounts* h = row(r.kernel, "HGMMA.64x256x16.F32.BF16");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->static_count, 4);
  EXPECT_EQ(h->warp_executed, 573440u);
  EXPECT_EQ(h->thread_pred_on, 18350080u);
  const OpcodeCounts* tma = row(r.kernel, "UTMALDG.2D");
  ASSERT_NE(tma, nullptr);
  EXPECT_EQ(tma->thread_pred_on, 35840u);  // one elected thread per TMA load
}

TEST(Join, ReferenceGemmVerdictsAndCoverage) {
  Recorded r = load("reference_gemm");
  const auto t = gemm_task();
  auto fams = evaluate_families(r.listing, {r.kernel}, "sm_90a", t.targets_for("sm_90a"), true);
  ASSERT_GE(fams.size(), 2u);
  EXPECT_EQ(fams[0].name, "wgmma");  // targets first
  EXPECT_EQ(fams[0].verdict, Verdict::executed);
  EXPECT_EQ(fams[1].verdict, Verdict::executed);
  Coverage c = compute_coverage({r.kernel}, t.targets_for("sm_90a"), task_flops_m1000());
  ASSERT_TRUE(c.available);
  EXPECT_NEAR(c.ratio, 1.024, 1e-9);  // 1000 rows padded to 8 tiles of 128
  EXPECT_DOUBLE_EQ(c.target_tensor_flops, c.target_tensor_flops_warp);
}

TEST(Join, TokenWgmmaExecutesButCoversAlmostNothing) {
  Recorded r = load("token_wgmma_ffma");
  const auto t = gemm_task();
  auto fams = evaluate_families(r.listing, {r.kernel}, "sm_90a", t.targets_for("sm_90a"), true);
  EXPECT_EQ(fams[0].verdict, Verdict::executed);
  Coverage c = compute_coverage({r.kernel}, t.targets_for("sm_90a"), task_flops_m1000());
  ASSERT_TRUE(c.available);
  // 1792 CTAs x one HGMMA.64x8x16 each
  EXPECT_NEAR(c.target_tensor_flops, 1792.0 * 2 * 64 * 8 * 16, 1);
  EXPECT_LT(c.ratio, 1e-3);
  EXPECT_GT(c.ratio, 0);
}

TEST(Join, DeadBranchWgmmaIsPresentNotExecuted) {
  Recorded r = load("dead_branch_wgmma");
  const auto t = gemm_task();
  auto fams = evaluate_families(r.listing, {r.kernel}, "sm_90a", t.targets_for("sm_90a"), true);
  EXPECT_EQ(fams[0].name, "wgmma");
  EXPECT_EQ(fams[0].verdict, Verdict::present_not_executed);
  EXPECT_EQ(fams[0].static_count, 1);
  EXPECT_EQ(fams[1].verdict, Verdict::absent);
  AuditResult a;
  a.runtime_run = true;
  a.families = fams;
  a.target_families = {"wgmma", "tma"};
  a.audited_time_share = 1.0;
  apply_instruction_metric(a);
  EXPECT_TRUE(a.instruction_metric_evaluated);
  EXPECT_FALSE(a.instruction_metric_passed);
  EXPECT_NE(a.feedback().find("never executed"), std::string::npos);
  EXPECT_NE(a.feedback().find("wgmma"), std::string::npos);
}

TEST(Join, PredicatedOffStmatrixIsIssuedButNotExecuted) {
  Recorded r = load("predicated_off_stmatrix");
  const OpcodeCounts* s = row(r.kernel, "STSM.16.M88");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->warp_executed, 14336u);  // issued by every warp ...
  EXPECT_EQ(s->thread_pred_on, 0u);     // ... on no thread
  const auto t = gemm_task();
  auto fams = evaluate_families(r.listing, {r.kernel}, "sm_90a", t.targets_for("sm_90a"), true);
  for (const auto& f : fams)
    if (f.name == "stmatrix") {
      EXPECT_EQ(f.verdict, Verdict::present_not_executed);
    }
}

TEST(Join, PcsMissingFromTheListingAreCounted) {
  compile::SassFunction f;
  f.name = "k";
  f.instrs.push_back(compile::parse_instruction(0x0, "FFMA R1, R2, R3, R4"));
  PcTable pcs;
  pcs[0x0] = {4, 128};
  pcs[0x40] = {1, 32};
  KernelAudit k = join_pcs(f, pcs);
  EXPECT_EQ(k.unmatched_records, 1);
  ASSERT_EQ(k.opcodes.size(), 1u);
  EXPECT_EQ(k.opcodes[0].thread_pred_on, 128u);
}

}  // namespace
}  // namespace ptxbench::audit
