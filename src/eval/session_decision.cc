#include "eval/session_decision.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace ptxbench::eval {
namespace {

bool add_flag(std::vector<std::string>& flags, const std::string& f) {
  for (const auto& x : flags)
    if (x == f) return false;
  flags.push_back(f);
  return true;
}

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// An earlier candidate call on the same workload that wrote (and passed) its outputs.
const CallRecord* earlier_pass(const std::vector<CallRecord>& calls, std::size_t i) {
  for (std::size_t k = 0; k < i; ++k)
    if (!calls[k].baseline && calls[k].plan.workload == calls[i].plan.workload && calls[k].check &&
        calls[k].check->passed())
      return &calls[k];
  return nullptr;
}

// Event (or wall) times of the calls `keep` selects.
template <class Keep>
std::vector<double> times(const std::vector<CallRecord>& calls, bool wall, Keep keep) {
  std::vector<double> v;
  for (const auto& c : calls)
    if (keep(c)) v.push_back(wall ? c.wall_ms : c.event_ms);
  return v;
}

// The runner's own cost of a call beyond its events: the median wall - event of its calibration
// no-ops; nullopt without any.
std::optional<double> calibrated_overhead(const std::vector<CallRecord>& calls) {
  std::vector<double> cal;
  for (const auto& c : calls)
    if (c.calibration) cal.push_back(c.wall_ms - c.event_ms);
  if (cal.empty()) return std::nullopt;
  return percentile(cal, 0.5);
}

// Is `overhead_ms` (wall - event of a call of `wall_ms`) more than the calibrated overhead and
// its allowance (side_stream, session_decision.h)?
bool beyond_allowance(double overhead_ms, double calibrated_ms, double wall_ms) {
  return overhead_ms > calibrated_ms + kOverheadAllowanceMs + kOverheadAllowanceShare * wall_ms;
}

// The candidate's checked calls (before the timing phase) after the session's first, as indices.
std::vector<std::size_t> later_checked_calls(const std::vector<CallRecord>& calls) {
  std::vector<std::size_t> out;
  bool first = true;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const CallRecord& c = calls[i];
    if (c.baseline || c.calibration || c.timing || c.audited) continue;
    if (!first) out.push_back(i);
    first = false;
  }
  return out;
}

bool fresh_sample(const CallRecord& c) {
  return !c.baseline && c.plan.content == Content::transformed && (c.timing || c.checked_sample);
}

}  // namespace

CorrectnessFindings judge_calls(const std::vector<CallRecord>& calls,
                                const std::vector<bool>& workload_hidden) {
  CorrectnessFindings f;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const CallRecord& c = calls[i];
    if (c.baseline || !c.check || c.check->passed()) continue;
    f.passed = false;
    f.failing_call = static_cast<int>(i);
    const std::size_t w = static_cast<std::size_t>(c.plan.workload);
    const bool hidden = w < workload_hidden.size() && workload_hidden[w];
    const std::string where = fmt::format("call {} of the session ({})", c.index + 1,
                                          hidden ? "a hidden workload" : c.plan.label);
    if (!c.check->inputs_modified.empty()) {
      add_flag(f.flags, "inputs_modified");
      f.message = fmt::format(
          "{}: the kernel changed its input tensor(s) {} (their checksums "
          "before and after the call differ); inputs are read-only",
          where, join_names(c.check->inputs_modified));
    } else if (c.check->all_unwritten && earlier_pass(calls, i)) {
      add_flag(f.flags, "cached_result");
      f.message = fmt::format(
          "{}: no output element was written although call {} on the same "
          "workload wrote its outputs: every call must compute its result",
          where, earlier_pass(calls, i)->index + 1);
    } else if (c.check->matches_previous) {
      add_flag(f.flags, "cached_result");
      f.message = fmt::format(
          "{}: the outputs are the result for the inputs of the call before, "
          "not for this call's inputs",
          where);
    } else {
      f.message = fmt::format("{}: the outputs fail the correctness rule", where);
    }
    return f;
  }
  return f;
}

TimingFindings judge_timing(const std::vector<CallRecord>& calls) {
  TimingFindings t;
  const auto cand = times(calls, false, fresh_sample);
  auto timed_fresh = [](const CallRecord& c) { return c.timing && fresh_sample(c); };
  auto library = [](const CallRecord& c) { return c.timing && c.baseline; };
  const auto cand_wall = times(calls, true, timed_fresh);
  const auto base = times(calls, false, library), base_wall = times(calls, true, library);
  const auto rep_events = times(calls, false, timed_repeat);
  t.candidate = summarize(cand);
  t.candidate_wall = summarize(cand_wall);
  t.baseline = summarize(base);
  t.baseline_wall = summarize(base_wall);
  t.repeats = summarize(rep_events);
  if (t.candidate.n == 0) return t;
  if (rep_events.size() >= kMinRepeats && t.repeats.median < kRepeatRatio * t.candidate.median) {
    add_flag(t.flags, "cached_result");
    t.incorrect = true;
    t.message = fmt::format(
        "calls that repeated an earlier call's inputs took {:.3f} ms (median of {}), calls with "
        "new inputs {:.3f} ms: the kernel recognises inputs it has seen and skips work",
        t.repeats.median, rep_events.size(), t.candidate.median);
  }
  const std::optional<double> cal = calibrated_overhead(calls);
  t.calibrated_overhead_ms = cal.value_or(0);
  std::vector<double> over;
  for (const auto& c : calls)
    if (timed_fresh(c)) over.push_back(c.wall_ms - c.event_ms);
  const bool side = cal && !over.empty() &&
                    beyond_allowance(percentile(over, 0.5), *cal, t.candidate_wall.median);
  if (side) add_flag(t.flags, "side_stream");
  if (t.baseline.n > 0 && t.candidate.median > 0 && t.baseline.median > 0) {
    if (side) {
      const double c = wall_clock_call_ms(t.candidate_wall.median, t.calibrated_overhead_ms);
      t.speedup = t.baseline.median / c;
      t.speedup_basis = "wall clock";
    } else {
      t.speedup = t.baseline.median / t.candidate.median;
      t.speedup_basis = "events";
      t.speedup_rel_ci95 = speedup_rel_ci95(cand, base);
    }
  }
  return t;
}

bool timed_repeat(const CallRecord& c) {
  return !c.baseline && !c.calibration && c.plan.workload == 0 && c.plan.content == Content::repeat;
}

std::size_t timed_repeats(const std::vector<CallRecord>& calls) {
  return static_cast<std::size_t>(std::count_if(calls.begin(), calls.end(), timed_repeat));
}

std::vector<std::size_t> later_checked_timed_calls(const std::vector<CallRecord>& calls) {
  std::vector<std::size_t> out;
  for (std::size_t i : later_checked_calls(calls))
    if (calls[i].plan.workload == 0) out.push_back(i);
  return out;
}

bool checked_work_outside_events(const std::vector<CallRecord>& calls) {
  const std::optional<double> cal = calibrated_overhead(calls);
  const std::vector<std::size_t> later = later_checked_calls(calls);
  if (!cal || later.empty()) return false;
  double wall = 0, event = 0;
  for (std::size_t i : later) wall += calls[i].wall_ms, event += calls[i].event_ms;
  const double n = static_cast<double>(later.size());
  return beyond_allowance((wall - event) / n, *cal, wall / n);
}

bool known_slow(const std::vector<CallRecord>& calls, double library_ms, double slow_speedup) {
  if (checked_work_outside_events(calls)) return false;
  std::vector<double> fresh;
  for (std::size_t i : later_checked_timed_calls(calls))
    if (calls[i].plan.content == Content::transformed) fresh.push_back(calls[i].event_ms);
  if (fresh.size() < 2 || library_ms <= 0) return false;
  const double median = percentile(fresh, 0.5);
  return median > 0 && library_ms / median < slow_speedup / 2;
}

bool faster_since_checks(const std::vector<CallRecord>& calls) {
  const auto checked = times(calls, false, [](const CallRecord& c) { return c.checked_sample; });
  const auto later =
      times(calls, false, [](const CallRecord& c) { return c.timing && timed_repeat(c); });
  return !checked.empty() && !later.empty() &&
         percentile(later, 0.5) < kRepeatRatio * percentile(checked, 0.5);
}

}  // namespace ptxbench::eval
