#include "eval/stats.h"

#include <gtest/gtest.h>

namespace ptxbench::eval {
namespace {

TEST(Stats, PercentileInterpolates) {
  EXPECT_DOUBLE_EQ(percentile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(percentile({4, 1, 3, 2}, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(percentile({4, 1, 3, 2}, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(percentile({}, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(percentile({7}, 0.25), 7.0);
}

TEST(Stats, SummaryFields) {
  SampleSummary s = summarize({1.0, 2.0, 3.0, 4.0, 5.0});
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.rel_iqr, (4.0 - 2.0) / 3.0);
  EXPECT_NEAR(s.rel_stddev, 1.58113883 / 3.0, 1e-6);
  SampleSummary back = SampleSummary::from_json(s.to_json());
  EXPECT_DOUBLE_EQ(back.median, s.median);
  EXPECT_EQ(back.n, s.n);
}

TEST(Stats, StopsWhenSpreadIsSmallAfterMinSamples) {
  StoppingRule rule;  // 10 samples, 0.5 %
  std::vector<double> v(9, 1.0);
  EXPECT_EQ(rule.decide(v, 0.1), StoppingRule::Reason::keep_going);
  v.push_back(1.001);
  EXPECT_EQ(rule.decide(v, 0.1), StoppingRule::Reason::converged);
}

TEST(Stats, NoisySamplesRunUntilTheBudget) {
  StoppingRule rule;
  rule.budget_seconds = 1.0;
  std::vector<double> v;
  for (int i = 0; i < 40; ++i) v.push_back(i % 2 ? 1.0 : 1.2);
  EXPECT_EQ(rule.decide(v, 0.5), StoppingRule::Reason::keep_going);
  EXPECT_EQ(rule.decide(v, 1.5), StoppingRule::Reason::budget);
}

TEST(Stats, MaxSamplesAndSlowKernelBudget) {
  StoppingRule rule;
  rule.max_samples = 12;
  std::vector<double> v;
  for (int i = 0; i < 12; ++i) v.push_back(i % 2 ? 1.0 : 2.0);
  EXPECT_EQ(rule.decide(v, 0.0), StoppingRule::Reason::max_samples);
  // Fewer than min_samples but far past the budget: stop after 3 samples, not before.
  rule.budget_seconds = 1;
  EXPECT_EQ(rule.decide({5.0, 5.0}, 100.0), StoppingRule::Reason::keep_going);
  EXPECT_EQ(rule.decide({5.0, 5.0, 5.0}, 100.0), StoppingRule::Reason::budget);
}

TEST(Stats, SideStreamRule) {
  EXPECT_FALSE(escaped_timed_stream(1.0, 1.1));    // launch overhead
  EXPECT_FALSE(escaped_timed_stream(0.01, 0.15));  // tiny kernel, sync overhead
  EXPECT_TRUE(escaped_timed_stream(0.01, 2.0));    // the work ran elsewhere
  EXPECT_TRUE(escaped_timed_stream(1.0, 2.0));
}

}  // namespace
}  // namespace ptxbench::eval
