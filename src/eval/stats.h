// Sample statistics for timing, and the adaptive stopping rule (nvbench style).
// Pure host code; the worker uses it while sampling, the CPU tests check it.
#pragma once

#include <cstddef>
#include <vector>

#include "core/json.h"

namespace ptxbench::eval {

struct SampleSummary {
  std::size_t n = 0;
  double median = 0, mean = 0, min = 0, max = 0;
  double p25 = 0, p75 = 0;
  double rel_iqr = 0;     // (p75 - p25) / median
  double rel_stddev = 0;  // sample standard deviation / mean
  Json to_json() const;
  static SampleSummary from_json(const Json& j);
};

// Linear-interpolated percentile q in [0, 1] of unsorted `v` (empty -> 0).
double percentile(std::vector<double> v, double q);
SampleSummary summarize(const std::vector<double>& samples);

// The half-width of the 95% confidence interval of a sample's median, relative to the median
// (0 for fewer than 2 samples): 1.96 x SE, SE(median) = 1.2533 sigma / sqrt(n) for a normal
// sample, sigma estimated robustly as IQR / 1.349; so 1.82 x rel_iqr / sqrt(n).
double median_rel_ci95(const std::vector<double>& samples);

// The 95% interval of the speedup library/candidate (medians), relative to it: the two medians'
// relative half-widths combined in quadrature (independent samples).
double speedup_rel_ci95(const std::vector<double>& candidate, const std::vector<double>& library);

// When to stop taking samples.
//   decide (one sample set: the library alone, bench/baselines): at least `min_samples`, then
//     the relative spread (rel_iqr) at most `target_rel_spread`, or the time budget spent, or
//     `max_samples` taken.
//   decide_speedup (a candidate against the library, interleaved): at least `min_samples` of
//     each, then the speedup's 95% interval within +-target_rel_spread (converged), or the
//     whole interval below `slow_speedup` (slow: the feedback needs no more precision than
//     "far slower than the library"), or the time budget or `max_samples`. The slow stop
//     needs only `min_slow_samples` of each (a kernel at 0.01x gains nothing from ten samples
//     at 0.3 s a call: issue 14); its speedup is reported with the wider interval of those
//     samples. Below min_samples the budget still stops a pathologically slow kernel after 3
//     samples.
struct StoppingRule {
  std::size_t min_samples = 10;
  std::size_t max_samples = 2000;
  double target_rel_spread = 0.005;
  double budget_seconds = 10.0;
  double slow_speedup = 0.5;
  std::size_t min_slow_samples = 3;

  enum class Reason { keep_going, converged, budget, max_samples, slow };
  Reason decide(const std::vector<double>& samples, double elapsed_seconds) const;
  Reason decide_speedup(const std::vector<double>& candidate, const std::vector<double>& library,
                        double elapsed_seconds) const;
};
const char* to_string(StoppingRule::Reason r);

}  // namespace ptxbench::eval
