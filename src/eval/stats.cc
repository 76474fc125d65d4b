#include "eval/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ptxbench::eval {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(pos));
  auto hi = std::min(lo + 1, v.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return v[lo] + (v[hi] - v[lo]) * frac;
}

SampleSummary summarize(const std::vector<double>& samples) {
  SampleSummary s;
  s.n = samples.size();
  if (samples.empty()) return s;
  s.median = percentile(samples, 0.5);
  s.p25 = percentile(samples, 0.25);
  s.p75 = percentile(samples, 0.75);
  auto [mn, mx] = std::minmax_element(samples.begin(), samples.end());
  s.min = *mn, s.max = *mx;
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  double ss = 0;
  for (double x : samples) ss += (x - s.mean) * (x - s.mean);
  double sd = s.n > 1 ? std::sqrt(ss / static_cast<double>(s.n - 1)) : 0.0;
  s.rel_stddev = s.mean > 0 ? sd / s.mean : 0.0;
  s.rel_iqr = s.median > 0 ? (s.p75 - s.p25) / s.median : 0.0;
  return s;
}

Json SampleSummary::to_json() const {
  return Json{{"n", n},        {"median_ms", median}, {"mean_ms", mean},
              {"min_ms", min}, {"max_ms", max},       {"p25_ms", p25},
              {"p75_ms", p75}, {"rel_iqr", rel_iqr},  {"rel_stddev", rel_stddev}};
}

SampleSummary SampleSummary::from_json(const Json& j) {
  SampleSummary s;
  s.n = j.value("n", std::size_t{0});
  s.median = j.value("median_ms", 0.0);
  s.mean = j.value("mean_ms", 0.0);
  s.min = j.value("min_ms", 0.0);
  s.max = j.value("max_ms", 0.0);
  s.p25 = j.value("p25_ms", 0.0);
  s.p75 = j.value("p75_ms", 0.0);
  s.rel_iqr = j.value("rel_iqr", 0.0);
  s.rel_stddev = j.value("rel_stddev", 0.0);
  return s;
}

StoppingRule::Reason StoppingRule::decide(const std::vector<double>& samples,
                                          double elapsed_seconds) const {
  if (samples.size() >= max_samples) return Reason::max_samples;
  if (samples.size() < min_samples) {
    // The budget still stops a pathologically slow kernel, but only after 3 samples.
    return (elapsed_seconds > budget_seconds && samples.size() >= 3) ? Reason::budget
                                                                     : Reason::keep_going;
  }
  if (summarize(samples).rel_iqr <= target_rel_spread) return Reason::converged;
  if (elapsed_seconds > budget_seconds) return Reason::budget;
  return Reason::keep_going;
}

double median_rel_ci95(const std::vector<double>& samples) {
  if (samples.size() < 2) return 0;
  return 1.96 * 1.2533 / 1.349 * summarize(samples).rel_iqr /
         std::sqrt(static_cast<double>(samples.size()));
}

double speedup_rel_ci95(const std::vector<double>& candidate, const std::vector<double>& library) {
  const double c = median_rel_ci95(candidate), l = median_rel_ci95(library);
  return std::sqrt(c * c + l * l);
}

StoppingRule::Reason StoppingRule::decide_speedup(const std::vector<double>& candidate,
                                                  const std::vector<double>& library,
                                                  double elapsed_seconds) const {
  const std::size_t n = std::min(candidate.size(), library.size());
  if (n >= max_samples) return Reason::max_samples;
  const double ci = speedup_rel_ci95(candidate, library);
  const double c = percentile(candidate, 0.5), l = percentile(library, 0.5);
  const bool slow = n >= min_slow_samples && c > 0 && l / c * (1 + ci) < slow_speedup;
  if (n < min_samples) {
    if (slow) return Reason::slow;
    return (elapsed_seconds > budget_seconds && n >= 3) ? Reason::budget : Reason::keep_going;
  }
  if (ci <= target_rel_spread) return Reason::converged;
  if (slow) return Reason::slow;
  if (elapsed_seconds > budget_seconds) return Reason::budget;
  return Reason::keep_going;
}

const char* to_string(StoppingRule::Reason r) {
  switch (r) {
    case StoppingRule::Reason::keep_going:
      return "keep_going";
    case StoppingRule::Reason::converged:
      return "converged";
    case StoppingRule::Reason::budget:
      return "time_budget";
    case StoppingRule::Reason::max_samples:
      return "max_samples";
    case StoppingRule::Reason::slow:
      return "slow";
  }
  return "?";
}

}  // namespace ptxbench::eval
