#include "audit/mma_shape.h"

#include <gtest/gtest.h>

namespace ptxbench::audit {
namespace {

TEST(MmaShape, ReadsWarpgroupShapes) {
  auto s = mma_shape("HGMMA.64x256x16.F32.BF16");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->m, 64);
  EXPECT_EQ(s->n, 256);
  EXPECT_EQ(s->k, 16);
  EXPECT_EQ(s->threads_per_instruction, 128);
  EXPECT_EQ(s->warps_per_instruction, 4);
  EXPECT_DOUBLE_EQ(s->flops_per_instruction(), 2.0 * 64 * 256 * 16);
  auto q = mma_shape("QGMMA.64x128x32.F32.E4M3.E4M3");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->k, 32);
}

// A sparse wgmma (2:4 A) spells its shape after .SP and does half the dense work of it (red team
// leak4/sparse_wgmma_unshaped.cu: unread, it switched the coverage rule off).
TEST(MmaShape, ReadsSparseWarpgroupShapesAtHalfTheirDenseWork) {
  auto s = mma_shape("HGMMA.SP.64x8x32.F32.BF16");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->sparse);
  EXPECT_EQ(s->m, 64);
  EXPECT_EQ(s->n, 8);
  EXPECT_EQ(s->k, 32);
  EXPECT_DOUBLE_EQ(s->flops_per_instruction(), 64.0 * 8 * 32);
  EXPECT_FALSE(mma_shape("HGMMA.SP"));
  EXPECT_FALSE(mma_shape("HGMMA.SP.F32"));
}

TEST(MmaShape, ReadsMmaSyncShapes) {
  auto s = mma_shape("HMMA.16816.F32.BF16");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->m, 16);
  EXPECT_EQ(s->n, 8);
  EXPECT_EQ(s->k, 16);
  EXPECT_EQ(s->threads_per_instruction, 32);
}

TEST(MmaShape, NoShapeForOtherOpcodes) {
  EXPECT_FALSE(mma_shape("FFMA"));
  EXPECT_FALSE(mma_shape("UTCHMMA.2CTA"));  // tcgen05: shape in the descriptor
  EXPECT_FALSE(mma_shape("HGMMA"));
  EXPECT_FALSE(mma_shape("HGMMA.64xx16.F32"));
}

// Measured on the H200 (reference GEMM, M=1000, N=7168, K=5120): each of the 4 HGMMA PCs
// ran 143360 warp-level / 4587520 predicated-on thread executions. 224 tiles x 2 consumer
// warpgroups x 80 k-blocks = 35840 warpgroup instructions per PC: 4 warps, 128 threads each.
TEST(MmaShape, WarpAndThreadCountsGiveTheSameFlops) {
  auto s = *mma_shape("HGMMA.64x256x16.F32.BF16");
  const double from_threads = mma_flops_from_threads(s, 4 * 4587520ull);
  const double from_warps = mma_flops_from_warps(s, 4 * 143360ull);
  EXPECT_DOUBLE_EQ(from_threads, from_warps);
  EXPECT_DOUBLE_EQ(from_threads, 4 * 35840.0 * 2 * 64 * 256 * 16);
  // 1024 padded rows of 1000: coverage 1.024
  EXPECT_NEAR(from_threads / (2.0 * 1000 * 7168 * 5120), 1.024, 1e-12);
}

}  // namespace
}  // namespace ptxbench::audit
