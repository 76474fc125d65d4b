#include "eval/stats.h"

#include <gtest/gtest.h>

#include <cmath>

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

// Samples spread evenly over [m(1 - w), m(1 + w)]: rel_iqr = w.
std::vector<double> spread(std::size_t n, double median, double w) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i)
    v.push_back(median * (1 - w + 2 * w * static_cast<double>(i) / static_cast<double>(n - 1)));
  return v;
}

TEST(Stats, MedianIntervalShrinksWithTheSquareRootOfTheSamples) {
  EXPECT_EQ(median_rel_ci95({1.0}), 0.0);
  const double ci100 = median_rel_ci95(spread(100, 2.0, 0.02));
  EXPECT_NEAR(ci100, 1.8209 * 0.02 / 10, 1e-4);  // 1.96 x 1.2533 / 1.349 x rel_iqr / sqrt(n)
  EXPECT_NEAR(median_rel_ci95(spread(400, 2.0, 0.02)), ci100 / 2, 1e-4);
  EXPECT_NEAR(speedup_rel_ci95(spread(100, 2.0, 0.02), spread(100, 3.0, 0.02)),
              ci100 * std::sqrt(2.0), 1e-4);
}

TEST(Stats, SpeedupRuleStopsAtTheTargetIntervalOrWhenFarBelowHalfSpeed) {
  StoppingRule rule;  // +-0.5%, 10 samples at least, below 0.5x is slow
  // Tight samples: converged at the minimum.
  EXPECT_EQ(rule.decide_speedup(spread(10, 1.0, 0.002), spread(10, 1.0, 0.002), 0.1),
            StoppingRule::Reason::converged);
  EXPECT_EQ(rule.decide_speedup(spread(9, 1.0, 0.002), spread(9, 1.0, 0.002), 0.1),
            StoppingRule::Reason::keep_going);
  // 3% spread: about 240 samples of each reach +-0.5%.
  EXPECT_EQ(rule.decide_speedup(spread(100, 1.0, 0.03), spread(100, 1.0, 0.03), 0.1),
            StoppingRule::Reason::keep_going);
  EXPECT_EQ(rule.decide_speedup(spread(250, 1.0, 0.03), spread(250, 1.0, 0.03), 0.1),
            StoppingRule::Reason::converged);
  EXPECT_EQ(rule.decide_speedup(spread(100, 1.0, 0.03), spread(100, 1.0, 0.03), 20),
            StoppingRule::Reason::budget);
  // A candidate 3x slower than the library, noisy: its whole interval is below 0.5x.
  EXPECT_EQ(rule.decide_speedup(spread(10, 3.0, 0.05), spread(10, 1.0, 0.05), 0.1),
            StoppingRule::Reason::slow);
  // At 0.55x it is not clearly below half speed: keep measuring.
  EXPECT_EQ(rule.decide_speedup(spread(10, 1.0 / 0.55, 0.05), spread(10, 1.0, 0.05), 0.1),
            StoppingRule::Reason::keep_going);
  EXPECT_STREQ(to_string(StoppingRule::Reason::slow), "slow");
}

TEST(Stats, FarBelowHalfSpeedStopsAfterThreeSamples) {
  StoppingRule rule;
  // 100x slower than the library: three samples of each tell it, well before the ten a
  // precise speedup needs.
  EXPECT_EQ(rule.decide_speedup(spread(3, 100.0, 0.01), spread(3, 1.0, 0.01), 0.1),
            StoppingRule::Reason::slow);
  EXPECT_EQ(rule.decide_speedup(spread(2, 100.0, 0.01), spread(2, 1.0, 0.01), 0.1),
            StoppingRule::Reason::keep_going);
  // Three samples near the threshold are too wide to call slow: keep measuring.
  EXPECT_EQ(rule.decide_speedup(spread(3, 1.0 / 0.45, 0.2), spread(3, 1.0, 0.2), 0.1),
            StoppingRule::Reason::keep_going);
  // A fast kernel is never stopped early as slow.
  EXPECT_EQ(rule.decide_speedup(spread(3, 1.0, 0.01), spread(3, 1.0, 0.01), 0.1),
            StoppingRule::Reason::keep_going);
  // min_slow_samples = min_samples: the rule before issue 14's early stop.
  StoppingRule strict;
  strict.min_slow_samples = 10;
  EXPECT_EQ(strict.decide_speedup(spread(3, 100.0, 0.01), spread(3, 1.0, 0.01), 0.1),
            StoppingRule::Reason::keep_going);
}

}  // namespace
}  // namespace ptxbench::eval
