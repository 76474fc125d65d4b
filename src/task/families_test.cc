#include "task/families.h"

#include <gtest/gtest.h>

namespace ptxbench::task {
namespace {

bool matches(const char* family, const char* opcode) {
  const InstructionFamily* f = find_family(family);
  EXPECT_NE(f, nullptr) << family;
  return f && family_matches(*f, opcode);
}

TEST(Families, OpcodeBase) {
  EXPECT_EQ(opcode_base("HGMMA.64x128x16.F32.BF16"), "HGMMA");
  EXPECT_EQ(opcode_base("@!P0 UTMALDG.2D"), "UTMALDG");
  EXPECT_EQ(opcode_base("FFMA"), "FFMA");
}

TEST(Families, HopperTargets) {
  EXPECT_TRUE(matches("wgmma", "HGMMA.64x128x16.F32.BF16"));
  EXPECT_TRUE(matches("wgmma", "QGMMA.64x256x32.F32.E4M3.E4M3"));
  EXPECT_FALSE(matches("wgmma", "HMMA.16816.F32.BF16"));
  EXPECT_TRUE(matches("tma", "UTMALDG.2D"));
  EXPECT_TRUE(matches("tma", "UTMASTG.3D"));
  EXPECT_TRUE(matches("tma", "UTMAREDG.2D.ADD"));
  EXPECT_FALSE(matches("tma", "UBLKCP.S.G"));
  EXPECT_FALSE(matches("tma", "LDG.E.128"));
}

TEST(Families, BlackwellTargets) {
  EXPECT_TRUE(matches("tcgen05", "UTCHMMA.2CTA"));
  EXPECT_TRUE(matches("tcgen05", "UTCBAR"));
  EXPECT_TRUE(matches("tcgen05", "LDTM.x16"));
  EXPECT_TRUE(matches("tcgen05", "STTM.x8"));
  EXPECT_FALSE(matches("tcgen05", "UTMALDG.2D"));
}

TEST(Families, SupportingFeatures) {
  EXPECT_TRUE(matches("setmaxnreg", "USETMAXREG.DEALLOC.CTAPOOL"));
  EXPECT_TRUE(matches("stmatrix", "STSM.16.M88.4"));
  EXPECT_TRUE(matches("mbarrier", "SYNCS.ARRIVE.TRANS64.A1T0"));
  EXPECT_EQ(find_family("nope"), nullptr);
}

}  // namespace
}  // namespace ptxbench::task
