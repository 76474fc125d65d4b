#include "compile/census.h"

#include <gtest/gtest.h>

#include "compile/sass_fixtures.h"

namespace ptxbench::compile {
namespace {

task::ArchTargets hopper_targets() {
  task::ArchTargets t;
  t.arch = "sm_90a";
  t.families = {"wgmma", "tma"};
  t.rule = "any";
  return t;
}

TEST(Census, CountsOpcodesAndFamiliesPerFunction) {
  auto targets = hopper_targets();
  Census c = build_census(parse_sass(fixtures::kCuobjdump), "sm_90a", &targets);
  ASSERT_EQ(c.functions.size(), 2u);
  const FunctionCensus& g = c.functions[0];
  EXPECT_EQ(g.instructions, 8);  // NOP is not counted
  EXPECT_EQ(g.by_base.at("HGMMA"), 3);
  EXPECT_EQ(g.by_opcode.at("HGMMA.64x64x16.F32.BF16"), 3);
  EXPECT_EQ(g.families.at("wgmma"), 2);  // the @!PT one never executes
  EXPECT_EQ(g.families.at("tma"), 1);
  EXPECT_EQ(g.families.count("tcgen05"), 0u);  // not a Hopper family
  const FunctionCensus& p = c.functions[1];
  EXPECT_EQ(p.families.at("wgmma"), 0);
  EXPECT_EQ(p.families.at("tma"), 0);
  EXPECT_EQ(c.family_totals.at("wgmma"), 2);
  EXPECT_EQ(c.targets_present, (std::vector<std::string>{"wgmma", "tma"}));
  EXPECT_TRUE(c.targets_met);
}

TEST(Census, TargetsAbsentAndRuleAll) {
  auto fns = parse_sass(fixtures::kCuobjdump);
  fns.erase(fns.begin());  // only the plain function
  auto targets = hopper_targets();
  Census c = build_census(fns, "sm_90a", &targets);
  EXPECT_TRUE(c.targets_present.empty());
  EXPECT_FALSE(c.targets_met);

  targets.rule = "all";
  targets.families = {"wgmma", "setmaxnreg"};
  Census all = build_census(parse_sass(fixtures::kCuobjdump), "sm_90a", &targets);
  EXPECT_EQ(all.targets_present, std::vector<std::string>{"wgmma"});
  EXPECT_FALSE(all.targets_met);
}

TEST(Census, DuplicateListingsCountOnceAndOtherArchesAreSkipped) {
  std::string twice = std::string(fixtures::kCuobjdump) + fixtures::kCuobjdump;
  Census c = build_census(parse_sass(twice), "sm_90a", nullptr);
  EXPECT_EQ(c.functions.size(), 2u);
  EXPECT_EQ(c.family_totals.at("wgmma"), 2);
  EXPECT_TRUE(build_census(parse_sass(fixtures::kCuobjdump), "sm_100a", nullptr).functions.empty());
}

TEST(Census, NvdisasmListingGivesTheSameFamilies) {
  auto targets = hopper_targets();
  Census c = build_census(parse_sass(fixtures::kNvdisasm), "sm_90a", &targets);
  ASSERT_EQ(c.functions.size(), 1u);
  EXPECT_EQ(c.functions[0].families.at("wgmma"), 1);
  EXPECT_EQ(c.functions[0].families.at("tma"), 1);
  EXPECT_TRUE(c.targets_met);
}

}  // namespace
}  // namespace ptxbench::compile
