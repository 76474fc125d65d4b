#include "eval/session_decision.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace ptxbench::eval {
namespace {

std::string load_words(LoadShare share) {
  return std::string(share_words(share)) + " GPU's SMs";
}

bool add_flag(std::vector<Flag>& flags, Flag f) {
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

// The broker's own cost of a call beyond its events: the median wall - event of its calibration
// no-ops; nullopt without any.
std::optional<double> calibrated_overhead(const std::vector<CallRecord>& calls) {
  std::vector<double> cal;
  for (const auto& c : calls)
    if (c.calibration) cal.push_back(c.wall_ms - c.event_ms);
  if (cal.empty()) return std::nullopt;
  return percentile(cal, 0.5);
}

// What a call of `wall_ms` may spend beyond its events before it counts as work outside them:
// the calibrated overhead and its allowance (side_stream, session_decision.h).
double allowed_overhead_ms(double calibrated_ms, double wall_ms) {
  return calibrated_ms + kOverheadAllowanceMs + kOverheadAllowanceShare * wall_ms;
}

// A call's wall time less its events beyond what it is allowed (> 0: work outside the events).
double excess_ms(const CallRecord& c, double calibrated_ms) {
  return c.wall_ms - c.event_ms - allowed_overhead_ms(calibrated_ms, c.wall_ms);
}

// The candidate's checked calls (before the timing phase) after the session's first, as indices.
// Not a further audit broker's ordinary call (broker > 1): made after the timing phase, the first
// of a fresh process (review-7: honest there for free, a candidate with many kernel functions
// outvoted its own checked calls with them after it was known slow by the clock).
std::vector<std::size_t> later_checked_calls(const std::vector<CallRecord>& calls) {
  std::vector<std::size_t> out;
  bool first = true;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const CallRecord& c = calls[i];
    if (c.baseline || c.calibration || c.timing || c.audited || c.broker > 1) continue;
    if (!first) out.push_back(i);
    first = false;
  }
  return out;
}

bool fresh_sample(const CallRecord& c) {
  return !c.baseline && new_inputs(c.plan.content) && (c.timing || c.checked_sample);
}

// What a call's time is: its events, or its wall time less the calibrated overhead.
struct Basis {
  bool wall = false;
  double overhead_ms = 0;
  double of(const CallRecord& c) const {
    return wall ? wall_clock_call_ms(c.wall_ms, overhead_ms) : c.event_ms;
  }
};

// The basis of a candidate's checked calls: the wall clock when they worked outside their
// events, else their events.
Basis checked_basis(const std::vector<CallRecord>& calls) {
  if (!checked_work_outside_events(calls)) return {};
  return {true, calibrated_overhead(calls).value_or(0)};
}

}  // namespace

Yardstick compare_with_library(const CallCheck& candidate, const CallCheck& library) {
  if (candidate.outputs.size() != library.outputs.size())
    return {false, "the library's check has other outputs than the kernel's"};
  for (std::size_t k = 0; k < candidate.outputs.size(); ++k) {
    const gpu::CompareStats &c = candidate.outputs[k], &l = library.outputs[k];
    auto worse = [&](const std::string& what, double mine, double lib) {
      return Yardstick{
          false, fmt::format("{}: {} {:.3g}, the library's {:.3g}", c.tensor, what, mine, lib)};
    };
    if (c.nonfinite > l.nonfinite || c.unwritten > l.unwritten)
      return worse("non-finite or unwritten elements", static_cast<double>(c.nonfinite),
                   static_cast<double>(l.nonfinite));
    if (c.rel_l2 > kYardstickSlack * l.rel_l2 + kYardstickL2Floor)
      return worse("relative L2 error", c.rel_l2, l.rel_l2);
    if (c.worst_rule_ratio > kYardstickSlack * std::max(l.worst_rule_ratio, 1.0))
      return worse("worst element (in units of what the rule allows)", c.worst_rule_ratio,
                   l.worst_rule_ratio);
    if (c.failed > static_cast<std::int64_t>(kYardstickSlack * static_cast<double>(l.failed)) +
                       kYardstickFailedFloor)
      return worse("failing elements", static_cast<double>(c.failed),
                   static_cast<double>(l.failed));
  }
  return {true, "every output within the library's own error on these inputs"};
}

double checks_seconds(const std::vector<CallRecord>& calls) {
  double ms = 0;
  for (const auto& c : calls) {
    if (c.timing || c.baseline || c.calibration || c.audited) continue;
    const double own = std::max(c.event_ms, c.wall_ms);
    // A loaded check: its slowdown is the judge's doing, bounded apart (load_outlasted).
    const double unloaded = c.plan.sm_load ? longest_unloaded(calls, c.plan.workload) : 0;
    ms += unloaded > 0 ? std::min(own, unloaded) : own;
  }
  return ms / 1000;
}

CorrectnessFindings judge_calls(const std::vector<CallRecord>& calls,
                                const std::vector<bool>& workload_hidden) {
  CorrectnessFindings f;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const CallRecord& c = calls[i];
    if (c.baseline || !c.check || (c.check->passed() && !c.load_outlasted)) continue;
    f.passed = false;
    f.failing_call = static_cast<int>(i);
    const std::size_t w = static_cast<std::size_t>(c.plan.workload);
    const bool hidden = w < workload_hidden.size() && workload_hidden[w];
    // On or after a hidden call, which call failed and which inputs it wrote are the candidate's
    // choice and could carry a hidden size (leak3/input_write_call_index.cu, input_names_subset):
    // the message names neither, `withheld` keeps them for people.
    const bool quiet = hidden || c.after_hidden;
    const std::string where =
        hidden  ? std::string("a call on a hidden workload")
        : quiet ? "a call on the timed workload after the hidden ones"
                : fmt::format("call {} of the session ({})", c.index + 1, c.plan.label);
    const CallRecord* before = earlier_pass(calls, i);
    const std::string earlier = quiet || !before ? std::string("an earlier call")
                                                 : fmt::format("call {}", before->index + 1);
    if (quiet) f.withheld = fmt::format("call {} of the session", c.index + 1);
    if (!c.check->inputs_modified.empty()) {
      add_flag(f.flags, Flag::inputs_modified);
      const std::string names = join_names(c.check->inputs_modified);
      if (quiet) f.withheld += ", inputs changed: " + names;
      f.message = fmt::format(
          "{}: the kernel changed {} (checksums before and after the call differ); inputs are "
          "read-only{}",
          where, quiet ? std::string("an input tensor") : "its input tensor(s) " + names,
          c.rerun_after_fault ? " (the call faulted, since a write to an input faults; the same "
                                "call, run again with inputs it could write, changed them)"
                              : "");
    } else if (c.check->all_unwritten && before) {
      add_flag(f.flags, Flag::cached_result);
      f.message = fmt::format(
          "{}: no output element was written although {} on the same "
          "workload wrote its outputs: every call must compute its result",
          where, earlier);
    } else if (c.check->matches_previous) {
      add_flag(f.flags, Flag::cached_result);
      f.message = fmt::format(
          "{}: the outputs are the result for the inputs of the call before, "
          "not for this call's inputs",
          where);
    } else if (c.check->passed()) {  // load_outlasted
      add_flag(f.flags, Flag::schedule_dependent);
      f.message = fmt::format(
          "{}: the call's work was still running when the load on {} ended, "
          "although it lasted several times the workload's unloaded calls: its blocks waited for "
          "SMs the load held (a kernel that needs all of its blocks resident at once must be "
          "launched cooperatively, and so must every kernel of that call)",
          where, load_words(c.plan.sm_load_share));
      // Its times could carry a hidden workload's size: for people only.
      if (!c.load_note.empty()) f.withheld += (f.withheld.empty() ? "" : ", ") + c.load_note;
    } else if (c.plan.sm_load && earlier_pass(calls, i)) {
      add_flag(f.flags, Flag::schedule_dependent);
      f.message = fmt::format(
          "{}: the outputs fail the correctness rule while {} were busy, although "
          "{} on the same workload passed on an idle GPU: the result depends on how the "
          "blocks are scheduled (a race, or a hand-off between blocks without the memory "
          "ordering it needs)",
          where, load_words(c.plan.sm_load_share), earlier);
    } else {
      f.message = fmt::format("{}: the outputs fail the correctness rule", where);
      // Its element count is the workload's size: on or after a hidden call, for people only.
      for (const auto& o : c.check->outputs)
        if (o.numel > 0 && o.unwritten == o.numel) {
          add_flag(f.flags, Flag::output_unwritten);
          const std::string count = fmt::format("all {} elements", o.numel);
          f.message += fmt::format(
              "; output {} was never written ({} still hold the poison written before the call)",
              o.tensor, quiet ? "its elements" : count);
          if (quiet) f.withheld += fmt::format(", output {}: {} unwritten", o.tensor, count);
        }
    }
    f.message += diagnosis_clause(c.seen, quiet);
    return f;
  }
  return f;
}

TimingFindings judge_timing(const std::vector<CallRecord>& calls) {
  TimingFindings t;
  auto timed_fresh = [](const CallRecord& c) { return c.timing && fresh_sample(c); };
  auto library = [](const CallRecord& c) { return c.timing && c.baseline; };
  const auto cand = times(calls, false, fresh_sample);
  const auto base = times(calls, false, library), base_wall = times(calls, true, library);
  t.candidate = summarize(cand);
  t.candidate_wall = summarize(times(calls, true, fresh_sample));
  t.baseline = summarize(base);
  t.baseline_wall = summarize(base_wall);
  if (t.candidate.n == 0) return t;
  const std::optional<double> cal = calibrated_overhead(calls);
  t.calibrated_overhead_ms = cal.value_or(0);
  // Timed on its checked calls (known_slow): their side_stream test; else its timing calls'.
  bool side = false;
  const bool checked_samples =
      std::any_of(calls.begin(), calls.end(), [](const CallRecord& c) { return c.checked_sample; });
  if (checked_samples) {
    side = checked_work_outside_events(calls);
  } else {
    const auto over = times(calls, true, timed_fresh),
               over_events = times(calls, false, timed_fresh);
    std::vector<double> overhead;
    for (std::size_t i = 0; i < over.size(); ++i) overhead.push_back(over[i] - over_events[i]);
    side = cal && !overhead.empty() &&
           percentile(overhead, 0.5) > allowed_overhead_ms(*cal, t.candidate_wall.median);
  }
  if (side) add_flag(t.flags, Flag::side_stream);
  // The repeat-speed check on the speedup's basis: events, or the wall clock under side_stream
  // (every call is a burst of one, so its wall time is its own).
  const Basis basis{side, t.calibrated_overhead_ms};
  const std::size_t min_repeats = checked_samples ? kMinRepeatsKnownSlow : kMinRepeats;
  std::vector<double> rep, fresh;
  for (const auto& c : calls) {
    if (timed_repeat(c)) rep.push_back(basis.of(c));
    if (fresh_sample(c)) fresh.push_back(basis.of(c));
  }
  t.repeats = summarize(rep);
  const double fresh_median = percentile(fresh, 0.5);
  if (rep.size() >= min_repeats && t.repeats.median < kRepeatRatio * fresh_median) {
    add_flag(t.flags, Flag::cached_result);
    t.incorrect = true;
    // No figures: the candidate sets both times, and after the hidden checks they can encode
    // a hidden workload's sizes (withheld/repeat_speed_figures.cu); t.repeats keeps them.
    t.message = fmt::format(
        "calls that repeated an earlier call's inputs took under {:g} of the time of calls with "
        "new inputs (medians): the kernel recognises inputs it has seen and skips work",
        kRepeatRatio);
  }
  if (t.baseline.n > 0 && t.candidate.median > 0 && t.baseline.median > 0) {
    if (side) {
      const double c = wall_clock_call_ms(t.candidate_wall.median, t.calibrated_overhead_ms);
      t.speedup = t.baseline.median / c;
      t.speedup_basis = SpeedupBasis::wall_clock;
    } else {
      t.speedup = t.baseline.median / t.candidate.median;
      t.speedup_basis = SpeedupBasis::events;
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
  for (std::size_t i : later_checked_calls(calls))  // a call under the SM load times nothing
    if (calls[i].plan.workload == 0 && !calls[i].plan.sm_load) out.push_back(i);
  return out;
}

namespace {

// Those of later_checked_timed_calls with new inputs: the samples of a candidate timed on its
// checked calls.
std::vector<std::size_t> later_fresh_checked_timed_calls(const std::vector<CallRecord>& calls) {
  std::vector<std::size_t> out;
  for (std::size_t i : later_checked_timed_calls(calls))
    if (new_inputs(calls[i].plan.content)) out.push_back(i);
  return out;
}

}  // namespace

bool checked_work_outside_events(const std::vector<CallRecord>& calls) {
  const std::optional<double> cal = calibrated_overhead(calls);
  if (!cal) return false;
  // Over the calls whose times are the samples (known_slow's, the checked samples): the later
  // checked calls on the timed workload with new inputs. review-7: over every later checked call,
  // the hidden workloads' calls (5 of 8 on a GEMM task) outvoted them, and a candidate working
  // outside its events on the timed shape only was timed by its forged events.
  std::vector<double> excess;
  for (std::size_t i : later_fresh_checked_timed_calls(calls))
    excess.push_back(excess_ms(calls[i], *cal));
  return !excess.empty() && percentile(excess, 0.5) > 0;
}

std::vector<double> checked_times_ms(const std::vector<CallRecord>& calls,
                                     const std::vector<std::size_t>& which) {
  const Basis basis = checked_basis(calls);
  std::vector<double> v;
  for (std::size_t i : which) v.push_back(basis.of(calls[i]));
  return v;
}

bool known_slow(const std::vector<CallRecord>& calls, double library_ms, double slow_speedup) {
  const std::vector<std::size_t> fresh = later_fresh_checked_timed_calls(calls);
  if (fresh.size() < 2 || library_ms <= 0) return false;
  const double median = percentile(checked_times_ms(calls, fresh), 0.5);
  return median > 0 && library_ms / median < slow_speedup / 2;
}

bool faster_since_checks(const std::vector<CallRecord>& calls) {
  const Basis basis = checked_basis(calls);
  std::vector<double> checked, later;
  for (const auto& c : calls) {
    if (c.checked_sample) checked.push_back(basis.of(c));
    if (c.timing && timed_repeat(c)) later.push_back(basis.of(c));
  }
  return !checked.empty() && !later.empty() &&
         percentile(later, 0.5) < kRepeatRatio * percentile(checked, 0.5);
}

bool verifier_reusable_after(Outcome outcome) {
  return outcome != Outcome::harness_error;
}

}  // namespace ptxbench::eval
