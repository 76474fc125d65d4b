#include "run/config.h"

#include <gtest/gtest.h>

namespace ptxbench::run {
namespace {

// The judging settings are stored only when a run sets them, so a default run's stored settings
// and hash are what they were before the options existed (and old run files read as defaults).
TEST(JudgingSettings, DefaultsAreNotStoredAndOldRunsReadAsDefaults) {
  RunConfig c;
  c.tasks = {"gemm_n7168_k5120"};
  const Json stored = c.to_json();
  EXPECT_FALSE(stored.contains("judging"));
  auto back = RunConfig::from_json(stored);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(back->judging.is_default());
  EXPECT_EQ(config_hash(*back), config_hash(c));
}

TEST(JudgingSettings, SetOnesRoundTripAndChangeTheSettingsHash) {
  RunConfig c;
  c.tasks = {"gemm_n7168_k5120"};
  RunConfig d = c;
  d.judging.trials = 7;
  d.judging.call_timeout_s = 45;
  d.judging.sample_budget_s = 1.5;
  d.judging.library_plan = "heuristic";
  d.judging.count_timed_calls = true;
  auto back = RunConfig::from_json(d.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->judging.trials, 7);
  EXPECT_EQ(back->judging.call_timeout_s, 45);
  EXPECT_EQ(back->judging.sample_budget_s, 1.5);
  EXPECT_EQ(back->judging.library_plan, "heuristic");
  EXPECT_TRUE(back->judging.count_timed_calls);
  EXPECT_NE(config_hash(c), config_hash(d));
  EXPECT_EQ(config_differences(c, d), (std::vector<std::string>{"judging"}));
}

// Counting off is not stored: a run with other settings set keeps the hash it had before the
// option existed.
TEST(JudgingSettings, CountingOffIsNotStored) {
  JudgingSettings s;
  s.trials = 7;
  EXPECT_FALSE(s.to_json().contains("count_timed_calls"));
  s.count_timed_calls = true;
  EXPECT_EQ(s.to_json().at("count_timed_calls"), true);
}

TEST(JudgingSettings, DamagedStoredSettingsAreRefused) {
  RunConfig c;
  c.tasks = {"gemm_n7168_k5120"};
  for (const Json& bad :
       {Json{{"trials", 1}}, Json{{"call_timeout_s", "x"}}, Json{{"library_plan", "fastestest"}},
        Json{{"count_timed_calls", 1.5}}, Json::array()}) {
    Json j = c.to_json();
    j["judging"] = bad;
    EXPECT_FALSE(RunConfig::from_json(j).ok()) << to_text(bad);
  }
}

}  // namespace
}  // namespace ptxbench::run
