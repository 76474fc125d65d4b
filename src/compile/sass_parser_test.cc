#include "compile/sass_parser.h"

#include <gtest/gtest.h>

#include "compile/sass_fixtures.h"

namespace ptxbench::compile {
namespace {

TEST(SassParser, ParsesCuobjdumpFunctionsAndInstructions) {
  auto fns = parse_sass(fixtures::kCuobjdump);
  ASSERT_EQ(fns.size(), 2u);
  EXPECT_EQ(fns[0].name, "_Z9gemm_tilePf");
  EXPECT_EQ(fns[0].demangled, "gemm_tile(float*)");
  EXPECT_EQ(fns[0].arch, "sm_90a");
  ASSERT_EQ(fns[0].instrs.size(), 9u);
  const SassInstr& elect = fns[0].instrs[1];
  EXPECT_EQ(elect.pc, 0x4f0u);
  EXPECT_EQ(elect.predicate, "@P0");
  EXPECT_EQ(elect.opcode, "ELECT");
  EXPECT_EQ(elect.text, "@P0 ELECT P2, URZ, PT");
  const SassInstr& mma = fns[0].instrs[3];
  EXPECT_EQ(mma.pc, 0x7b0u);
  EXPECT_EQ(mma.opcode, "HGMMA.64x64x16.F32.BF16");
  EXPECT_EQ(mma.opcode_base, "HGMMA");
  EXPECT_TRUE(mma.predicate.empty());
  EXPECT_TRUE(fns[0].instrs[5].never_executes());
  EXPECT_EQ(fns[0].instrs[7].predicate, "@!P0");
  EXPECT_EQ(fns[0].instrs[8].text, "BRA 0x800");
  EXPECT_EQ(fns[1].name, "_Z4plainPf");
  EXPECT_EQ(fns[1].instrs.size(), 3u);
}

TEST(SassParser, ParsesNvdisasmListings) {
  auto fns = parse_sass(fixtures::kNvdisasm);
  ASSERT_EQ(fns.size(), 1u);
  EXPECT_EQ(fns[0].name, "_Z9gemm_tilePf");
  EXPECT_EQ(fns[0].arch, "sm_90a");
  ASSERT_EQ(fns[0].instrs.size(), 5u);
  EXPECT_EQ(fns[0].instrs[1].text, "@P1 BRA `(.L_x_1)");
  EXPECT_EQ(fns[0].instrs[2].opcode_base, "UTMALDG");
  EXPECT_EQ(fns[0].instrs[3].pc, 0x7b0u);
}

TEST(SassParser, UniformPredicatesAndEmptyInput) {
  SassInstr in =
      parse_instruction(0x40, "@!UP1 UTCHMMA gdesc[UR4], gdesc[UR6], tmem[UR8], idesc[UR9], UPT");
  EXPECT_EQ(in.predicate, "@!UP1");
  EXPECT_EQ(in.opcode, "UTCHMMA");
  EXPECT_EQ(in.opcode_base, "UTCHMMA");
  EXPECT_TRUE(parse_sass("").empty());
  EXPECT_TRUE(parse_sass("no sass here\n/* 0x1234 */\n").empty());
}

}  // namespace
}  // namespace ptxbench::compile
