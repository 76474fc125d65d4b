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

// When to stop taking samples: at least `min_samples`, and then either the relative
// spread (rel_iqr) is at most `target_rel_spread`, or the time budget is spent, or
// `max_samples` are taken.
struct StoppingRule {
  std::size_t min_samples = 10;
  std::size_t max_samples = 2000;
  double target_rel_spread = 0.005;
  double budget_seconds = 10.0;

  enum class Reason { keep_going, converged, budget, max_samples };
  Reason decide(const std::vector<double>& samples, double elapsed_seconds) const;
};
const char* to_string(StoppingRule::Reason r);

// Did a call do device work that its stream's events did not see? host_ms is a
// device-synchronised host-clock time of the same call (host_clock_check.h).
bool escaped_timed_stream(double event_ms, double host_ms);

}  // namespace ptxbench::eval
