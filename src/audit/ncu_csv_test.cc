#include "audit/ncu_csv.h"

#include <gtest/gtest.h>

#include "audit/test_data.h"

namespace ptxbench::audit {
namespace {

using testing::testdata;

TEST(NcuCsv, SplitsQuotedFields) {
  auto f = split_csv_line(R"("a","b,c","say ""hi""",,7)");
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[1], "b,c");
  EXPECT_EQ(f[2], "say \"hi\"");
  EXPECT_EQ(f[3], "");
  EXPECT_EQ(f[4], "7");
}

TEST(NcuCsv, ParsesNumbersWithSeparators) {
  double v = 0;
  ASSERT_TRUE(parse_ncu_number("13,309,107", v));
  EXPECT_DOUBLE_EQ(v, 13309107);
  ASSERT_TRUE(parse_ncu_number("4,344.24", v));
  EXPECT_DOUBLE_EQ(v, 4344.24);
  EXPECT_FALSE(parse_ncu_number("n/a", v));
  EXPECT_FALSE(parse_ncu_number("", v));
}

TEST(NcuCsv, ParsesOpcodeInstances) {
  auto m = parse_opcode_instances("1,624 (ISETP.GE.U32.AND: 1,000; FFMA: 600; EXIT: 24)");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->at("ISETP.GE.U32.AND"), 1000u);
  EXPECT_EQ(m->at("FFMA"), 600u);
  EXPECT_EQ(m->size(), 3u);
  EXPECT_TRUE(parse_opcode_instances("0")->empty());
  EXPECT_FALSE(parse_opcode_instances("5 (FFMA 5)").ok());
  EXPECT_FALSE(parse_opcode_instances("5 (FFMA: 5").ok());
}

TEST(NcuCsv, RawPageOfTheReferenceGemm) {
  auto launches = parse_ncu_raw(testdata("ncu_raw_reference_gemm.csv"));
  ASSERT_TRUE(launches.ok()) << launches.error().to_string();
  ASSERT_EQ(launches->size(), 1u);
  const NcuLaunch& l = launches->front();
  EXPECT_EQ(l.id, 0);
  EXPECT_NE(l.kernel.find("gemm_tma_wgmma_kernel"), std::string::npos);
  EXPECT_EQ(l.warp_by_opcode.at("HGMMA.64x256x16.F32.BF16"), 573440u);
  EXPECT_EQ(l.thread_pred_on_by_opcode.at("HGMMA.64x256x16.F32.BF16"), 18350080u);
  EXPECT_EQ(l.warp_by_opcode.at("UTMALDG.2D"), 35840u);
  EXPECT_DOUBLE_EQ(l.counters.at("sm__inst_executed_pipe_tensor_op_gmma"), 573440);
  EXPECT_DOUBLE_EQ(l.counters.at("smsp__inst_executed_op_tma_ld_pred_on_any"), 35840);
}

TEST(NcuCsv, RawPageWithTwoKernels) {
  auto launches = parse_ncu_raw(testdata("ncu_raw_two_kernels_gemm.csv"));
  ASSERT_TRUE(launches.ok());
  ASSERT_EQ(launches->size(), 2u);
  EXPECT_NE((*launches)[0].kernel.find("prologue_scale_probe"), std::string::npos);
  EXPECT_EQ((*launches)[0].thread_pred_on_by_opcode.count("HGMMA.64x256x16.F32.BF16"), 0u);
  EXPECT_EQ((*launches)[1].thread_pred_on_by_opcode.at("HGMMA.64x256x16.F32.BF16"), 18350080u);
}

TEST(NcuCsv, PredicatedOffStmatrixHasWarpButNoThreadCount) {
  auto launches = parse_ncu_raw(testdata("ncu_raw_predicated_off_stmatrix.csv"));
  ASSERT_TRUE(launches.ok());
  const NcuLaunch& l = launches->front();
  EXPECT_EQ(l.warp_by_opcode.at("STSM.16.M88"), 14336u);
  EXPECT_EQ(l.thread_pred_on_by_opcode.count("STSM.16.M88"), 0u);  // zero counts are not listed
  EXPECT_DOUBLE_EQ(l.counters.at("smsp__inst_executed_op_shared_stsm_pred_on_any"), 0);
}

TEST(NcuCsv, SourcePageGivesPerPcCounts) {
  auto kernels = parse_ncu_source(testdata("ncu_source_predicated_off_stmatrix.csv"));
  ASSERT_TRUE(kernels.ok()) << kernels.error().to_string();
  ASSERT_EQ(kernels->size(), 1u);
  const auto& rows = kernels->front().rows;
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().pc, 0u);
  const NcuSourceRow* stsm = nullptr;
  for (const auto& r : rows)
    if (r.text.find("STSM") != std::string::npos) stsm = &r;
  ASSERT_NE(stsm, nullptr);
  EXPECT_EQ(stsm->pc, 0x190u);  // the offset cuobjdump prints for `@P0 STSM.16.M88`
  EXPECT_EQ(stsm->warp_executed, 14336u);
  EXPECT_EQ(stsm->thread_executed, 458752u);
  EXPECT_EQ(stsm->thread_pred_on, 0u);
}

TEST(NcuCsv, RejectsOutputWithoutTheColumns) {
  EXPECT_FALSE(parse_ncu_raw("==PROF== nothing\n").ok());
  EXPECT_FALSE(parse_ncu_raw("\"ID\",\"Kernel Name\"\n\"0\",\"k\"\n").ok());
  EXPECT_FALSE(parse_ncu_source("\"0x10\",\"FFMA\"\n").ok());
}

}  // namespace
}  // namespace ptxbench::audit
