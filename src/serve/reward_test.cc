#include "serve/reward.h"

#include <gtest/gtest.h>

#include "serve/fakes_test.h"

namespace ptxbench::serve {
namespace {

using testing::verdict_named;

TEST(Reward, PassedKernelsComponents) {
  const RewardComponents c = reward_components(verdict_named("passed"));
  EXPECT_TRUE(c.compiled);
  EXPECT_TRUE(c.correct);
  EXPECT_TRUE(c.evaluated);
  EXPECT_EQ(c.executed, true);
  EXPECT_DOUBLE_EQ(*c.coverage, 0.8);
  EXPECT_DOUBLE_EQ(*c.speedup, 2.0);
  EXPECT_DOUBLE_EQ(*c.speedup_low, 1.9);
  EXPECT_DOUBLE_EQ(*c.speedup_high, 2.1);
  EXPECT_FALSE(c.guard_flag);
}

TEST(Reward, PresetFormulas) {
  RewardComponents c = reward_components(verdict_named("passed"));
  EXPECT_DOUBLE_EQ(reward(c, RewardPreset::ptxbench), (1 + 1 + 0.5) / 3);
  EXPECT_DOUBLE_EQ(reward(c, RewardPreset::kernelgym), 0.5 + 0.5 * 2 + 0.5 * 0.8);
  c.speedup = 10;  // capped: 4x for ptxbench, 3x for kernelgym
  EXPECT_DOUBLE_EQ(reward(c, RewardPreset::ptxbench), 1.0);
  EXPECT_DOUBLE_EQ(reward(c, RewardPreset::kernelgym), 0.5 + 1.5 + 0.4);
  c.executed = false;
  EXPECT_DOUBLE_EQ(reward(c, RewardPreset::ptxbench), 2.0 / 3);
}

TEST(Reward, NoCreditWithoutCorrectnessOrWithAGuardFlag) {
  const RewardComponents wrong = reward_components(verdict_named("incorrect"));
  EXPECT_FALSE(wrong.correct);
  for (RewardPreset p : kRewardPresets) EXPECT_EQ(reward(wrong, p), 0.0);
  run::TurnVerdict v = verdict_named("passed");
  v.report.eval.done()->flags = {eval::Flag::cached_result};
  const RewardComponents flagged = reward_components(v);
  EXPECT_TRUE(flagged.guard_flag);
  for (RewardPreset p : kRewardPresets) EXPECT_EQ(reward(flagged, p), 0.0);
  const RewardComponents unbuilt = reward_components(verdict_named("compile_error"));
  EXPECT_FALSE(unbuilt.compiled);
  EXPECT_FALSE(unbuilt.evaluated);
}

TEST(Reward, JsonNamesPresetAndNullsWhatIsUnknown) {
  const Json j =
      reward_json(reward_components(verdict_named("compile_error")), RewardPreset::kernelgym);
  EXPECT_EQ(j["preset"], "kernelgym");
  EXPECT_EQ(j["value"], 0.0);
  EXPECT_TRUE(j["components"]["speedup"].is_null());
  EXPECT_TRUE(j["components"]["executed"].is_null());
  for (RewardPreset p : kRewardPresets) EXPECT_EQ(reward_preset_from_string(to_string(p)), p);
}

}  // namespace
}  // namespace ptxbench::serve
