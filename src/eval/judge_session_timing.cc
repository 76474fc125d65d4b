// The judging session's timing phase (judge_session.h, docs/judging.md "The clock regime"):
// rounds of a candidate burst and a library burst back to back after a warm-up, the stopping rule
// on the speedup's precision, a candidate known to be slow timed on its checked calls, the closing
// repeats, and a library that slowed while the candidate ran timed again alone.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "core/elapsed.h"
#include "eval/eval_result.h"
#include "eval/gpu/rng.h"
#include "eval/judge_session.h"
#include "eval/judge_session_peers.h"
#include "eval/verifier_host.h"

namespace ptxbench::eval {
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

// The library on its own tensors in the verifier, `count` runs back to back on the private sets
// from `slot` on, the candidate's slot of the round (timing samples when `timing`).
bool JudgeSession::library_burst(Peers& p, int count, int slot, bool timing, EvalResult& r) {
  const auto t0 = Clock::now();
  const bool sent = p.verifier->send(LibraryCommand{0, count, slot}.to_json()).ok();
  Received got = sent ? p.verifier->receive(milliseconds(seconds(120))) : Received{};
  const double wall = ms_since(t0);
  timeline_.add(SpanKind::library, t0, 0);
  const std::vector<double> events = got.reply ? events_of(*got.reply) : std::vector<double>{};
  if (!got.reply || !got.reply->ok || events.empty()) {
    r.add_flag(Flag::baseline_failed);
    r.baseline_check_error = got.reply ? got.reply->error : got.text;
    return false;
  }
  if (r.timing && r.timing->baseline_name.empty()) {
    r.timing->baseline_name = got.reply->extra.value("name", std::string{});
    r.timing->baseline_description = got.reply->extra.value("description", std::string{});
  }
  for (double ms : events) {
    CallRecord rec;
    rec.index = static_cast<int>(calls_.size());
    rec.plan.label = plan_.labels.front() + ", library call";
    rec.baseline = true;
    rec.timing = timing;
    rec.event_ms = ms;
    rec.wall_ms = wall / static_cast<double>(events.size());
    calls_.push_back(std::move(rec));
  }
  return true;
}

double JudgeSession::slowest_checked_call_ms() const {
  double slowest = 0;
  for (const CallRecord& c : calls_)
    if (!c.baseline && !c.calibration && !c.timing) slowest = std::max(slowest, c.event_ms);
  return slowest;
}

// Rounds of a candidate burst (kTimingBurst calls) and a library burst of as many runs, back to
// back, then the candidate's calls verified (plan.h says why bursts of one). Warm-up rounds
// first.
void JudgeSession::timing_phase(Peers& p, const EvalOptions& o, EvalResult& r) {
  TimingDraw draw(plan_, gpu::mix64(r.seed ^ 0x7131D5EEDull));
  for (auto c = calls_.rbegin(); c != calls_.rend(); ++c)
    if (!c->baseline && !c->calibration) {
      draw.follow(c->plan);
      break;
    }
  r.timing.emplace();
  r.timing->workload = plan_.verifier.workloads.front().problem.workload;
  r.timing->sustained_load_ms = heat_failed_ ? 0 : o.sustained_load_ms;
  // The library's own check on the session's inputs (its result is reported, not judged).
  const auto setup_start = Clock::now();
  bool library_ok = baseline_call(p, draw.next_library(), false, true, r);
  r.phase_seconds.library_setup = ms_since(setup_start) / 1000;
  const double opening_ms = library_ok && calls_.back().baseline ? calls_.back().event_ms : 0;
  if (library_ok && o.library_choices && library_plan_timed_)
    o.library_choices->record(choice_key_, library_plan_index_);
  StoppingRule rule{o.min_samples, o.max_samples, o.target_rel_spread, o.sample_budget_seconds};
  // A candidate known to be slow goes straight to the closing repeats (below).
  const std::size_t before_known = calls_.size();
  bool closing = library_ok && known_slow(calls_, opening_ms, rule.slow_speedup) &&
                 slow_from_checks(p, rule, r, library_ok);
  bool loaded_seen = false;    // a sampled round under the SM load (plan.h kLoadedTimingOdds)
  std::set<int> one_sm_slots;  // the buffer sets of loaded rounds with all but one SM busy
  auto run = [&](const std::vector<PlannedCall>& burst, bool sampled) {
    const int count = static_cast<int>(burst.size());
    const std::size_t first = calls_.size();
    const bool ok = candidate_burst(p, burst, sampled, o, r, [&] {
      if (library_ok) library_ok = library_burst(p, count, burst.front().slot, sampled, r);
    });
    for (std::size_t i = first; i < calls_.size(); ++i)
      if (calls_[i].plan.sm_load && calls_[i].plan.sm_load_share == LoadShare::all_but_one)
        one_sm_slots.insert(calls_[i].plan.slot);
    return ok;
  };
  auto round = [&](bool sampled, bool force_loaded = false) {
    const bool loaded = force_loaded || (!closing && draw.loaded_round());
    loaded_seen = loaded_seen || (loaded && sampled);
    // All but one SM busy drawn for one round at most (the rest at the phase's end, below).
    const auto share = loaded ? std::optional(draw.draw_share(one_sm_slots.empty())) : std::nullopt;
    return run(draw.next_burst(sampled, kTimingBurst, closing && !loaded, loaded, share), sampled);
  };
  // All but one SM busy on each buffer set, as many rounds as its budget allows
  // (all_but_one_rounds, by the timing samples' median): a kernel that tells the timing calls by
  // their buffer set (leak13/timing_slots_eighth_fit.cu: sets 2-3 are the timing phase's) meets
  // it on every set when fast, on a drawn one at least. Checks, not samples.
  auto one_sm_rounds = [&] {
    const std::size_t allowed = all_but_one_rounds(calls_, 0, o.call_timeout_seconds);
    for (int slot : draw.drawn_slots())
      if (one_sm_slots.size() < allowed && !one_sm_slots.count(slot) &&
          !run(draw.loaded_on(slot, LoadShare::all_but_one), false))
        return false;
    return true;
  };
  if (closing) {
    const KnownSlowEnd end = known_slow_repeats(p, r, before_known, [&] { return round(true); });
    if (end == KnownSlowEnd::failed) return;
    // Its calls with new inputs meet the other schedule too (checked, not sampled): a slow
    // kernel that runs an unsafe path only on inputs it has not seen was never loaded there
    // (fresh/unsafe_on_new_rows passed on an H100, 2026-12-07).
    if (end == KnownSlowEnd::done) {
      if (round(false, true) && one_sm_rounds()) (void)hidden_all_but_one_check(p, o, r);
      return;
    }
    closing = false;
  }
  const auto warm_start = Clock::now();
  // A candidate whose checked calls each kept the GPU busy for the warm-up's length is warm
  // already (a 0.0006x GEMM: 1.24 s a call); the library is, by its opening check.
  const bool warm = slowest_checked_call_ms() >= 1000 * o.warmup_seconds;
  for (int i = 0; !warm && (i < 1 || ms_since(warm_start) < 1000 * o.warmup_seconds); ++i) {
    if (!round(false)) return;
    ++r.phase_seconds.warmup_rounds;
    if (i > 200) break;
  }
  r.phase_seconds.warmup = ms_since(warm_start) / 1000;
  read_clocks(p, r.timing->clocks_before);
  std::vector<double> cand, base;
  std::size_t repeats = timed_repeats(calls_), closing_rounds = 0;
  const auto start = Clock::now();
  while (true) {
    const std::size_t first = calls_.size();
    if (!round(true)) return;
    ++r.phase_seconds.sampled_rounds;
    for (std::size_t i = first; i < calls_.size(); ++i) {
      const CallRecord& c = calls_[i];
      if (c.baseline)
        base.push_back(c.event_ms);
      else if (!c.timing)  // a loaded round: a check, not a sample
        continue;
      else if (new_inputs(c.plan.content))
        cand.push_back(c.event_ms);
      else if (timed_repeat(c))
        ++repeats;
    }
    if (closing) {
      ++closing_rounds;
      if (repeats < kMinRepeats) continue;
      r.timing->stop_reason +=
          fmt::format("; then {} repeat call(s), to {}", closing_rounds, repeats);
      break;
    }
    const double el = ms_since(start) / 1000;
    if (library_ok) {  // the speedup's precision (stats.h)
      const auto why = rule.decide_speedup(cand, base, el);
      if (why == StoppingRule::Reason::keep_going) continue;
      r.timing->stop_reason = fmt::format("speedup: {} (95% interval +-{:.2f}%)", to_string(why),
                                          100 * speedup_rel_ci95(cand, base));
    } else if (const auto why = rule.decide(cand, el); why != StoppingRule::Reason::keep_going) {
      r.timing->stop_reason = std::string("candidate: ") + to_string(why);
    } else {
      continue;
    }
    // Whatever stopped the sampling, the check of repeat calls' speed (session_decision.h) gets
    // its kMinRepeats: drawn at 1 in 4, ten rounds had fewer than 3 about half the time, so a
    // kernel that recognises repeated inputs escaped it by chance.
    if (repeats >= kMinRepeats) break;
    closing = true;
  }
  // At least one loaded round a timing phase, wherever the sampling stopped; then all but one SM
  // busy (above), decided by the timed speed, which the candidate cannot slow for free (red team
  // leak13: slow calls nobody times kept the share off the checks).
  if (!loaded_seen && !round(true, true)) return;
  if (!one_sm_rounds() || !hidden_all_but_one_check(p, o, r)) return;
  read_clocks(p, r.timing->clocks_after);
}

void JudgeSession::read_clocks(Peers& p, Json& into) {
  if (!p.verifier->send(Json{{"op", "clocks"}}).ok()) return;
  Received c = p.verifier->receive(milliseconds(seconds(30)));
  if (c.reply) into = c.reply->extra;
}

// The closing repeats of a candidate timed on its checked calls (slow_from_checks), one
// `closing_round` each until the session has kMinRepeatsKnownSlow (the checked repeat counts).
// When they are far faster than its checked calls (faster_since_checks: a kernel slow in its
// first calls only, or one fast on repeats only) those were not its speed: the checked samples
// and the library's runs since `before_known` are dropped, its repeats kept, and it is timed as
// usual.
JudgeSession::KnownSlowEnd JudgeSession::known_slow_repeats(
    Peers& p, EvalResult& r, std::size_t before_known, const std::function<bool()>& closing_round) {
  read_clocks(p, r.timing->clocks_before);
  std::size_t closing_rounds = 0;
  while (timed_repeats(calls_) < kMinRepeatsKnownSlow) {
    if (!closing_round()) return KnownSlowEnd::failed;
    ++r.phase_seconds.sampled_rounds;
    ++closing_rounds;
  }
  if (!faster_since_checks(calls_)) {
    r.timing->stop_reason +=
        fmt::format("; then {} repeat call(s), to {}", closing_rounds, timed_repeats(calls_));
    read_clocks(p, r.timing->clocks_after);
    return KnownSlowEnd::done;
  }
  r.timing->stop_reason.clear();
  for (std::size_t i = 0; i < calls_.size(); ++i) {
    calls_[i].checked_sample = false;
    if (i >= before_known && calls_[i].baseline) calls_[i].timing = false;
  }
  return KnownSlowEnd::timed_as_usual;
}

// A candidate known to be slow (session_decision.h): rule.min_slow_samples library samples on
// their own (library_ok false when the library fails), and
// the stopping rule on its later checked calls on the timed workload (new inputs and the
// repeat: a kernel faster on repeats only looks faster, so the slow stop errs towards timing),
// by their events or, when they worked outside them, their wall times (checked_times_ms).
// When that stops it slow, its checked calls with new inputs are its timing samples. Otherwise
// the library samples are dropped and the timing phase goes on as for any candidate.
bool JudgeSession::slow_from_checks(Peers& p, const StoppingRule& rule, EvalResult& r,
                                    bool& library_ok) {
  const std::size_t first = calls_.size();
  const auto later = later_checked_timed_calls(calls_);
  library_ok = library_burst(p, static_cast<int>(rule.min_slow_samples), 0, true, r);
  if (!library_ok) return false;
  const std::vector<double> cand = checked_times_ms(calls_, later);
  std::vector<double> base;
  for (std::size_t i = first; i < calls_.size(); ++i) base.push_back(calls_[i].event_ms);
  if (rule.decide_speedup(cand, base, 0) != StoppingRule::Reason::slow) {
    for (std::size_t i = first; i < calls_.size(); ++i) calls_[i].timing = false;
    return false;
  }
  for (std::size_t i : later) calls_[i].checked_sample = new_inputs(calls_[i].plan.content);
  r.timing->stop_reason =
      fmt::format("speedup: slow, from {} checked calls (95% interval +-{:.2f}%)", cand.size(),
                  100 * speedup_rel_ci95(cand, base));
  return true;
}

// The library's median against the fastest this verifier process measured for the same baseline
// in its earlier sessions: a library that got slower while this candidate ran (contention from
// anything else on the machine or the GPU) is timed again once the candidate's processes have
// ended, and the speedup keeps the faster library time. A slowed library never makes a speedup.
void JudgeSession::check_library_speed(Peers& p, EvalResult& r) {
  if (!r.timing || !r.timing->speedup || r.timing->baseline.median <= 0) return;
  const double paired = r.timing->baseline.median;
  if (library_best_ms_ <= 0 || paired <= library_best_ms_ * (1 + kLibrarySlowdownShare)) return;
  r.add_flag(Flag::library_slowed);
  stop_broker(p);
  const std::size_t first = calls_.size();
  if (!library_burst(p, kLibraryRetimeRuns, 0, false, r)) return;
  std::vector<double> alone;
  for (std::size_t i = first; i < calls_.size(); ++i) alone.push_back(calls_[i].event_ms);
  const double median = percentile(alone, 0.5);
  r.timing->stop_reason += fmt::format(
      "; the library took {:.4f} ms, this verifier's best is {:.4f} ms: timed again alone, "
      "{:.4f} ms",
      paired, library_best_ms_, median);
  if (median > 0 && median < paired) *r.timing->speedup *= median / paired;
}

bool JudgeSession::hidden_all_but_one_check(Peers& p, const EvalOptions& o, EvalResult& r) {
  const std::vector<int> fit = hidden_all_but_one_workloads(calls_, plan_.workload_flops,
                                                            plan_.hidden, o.call_timeout_seconds);
  if (fit.empty()) return true;
  const std::uint64_t seed = gpu::mix64(r.seed ^ 0xA11B0710Full);
  const int w = fit[(seed >> 1) % fit.size()];
  // The workload's planned loaded check, with inputs of its own (another transform and poison: a
  // kernel that recognises the inputs cannot answer from memory) and all but one SM busy.
  auto planned = std::find_if(plan_.checks.begin(), plan_.checks.end(),
                              [&](const PlannedCall& c) { return c.sm_load && c.workload == w; });
  if (planned == plan_.checks.end()) return true;
  PlannedCall check = *planned;
  check.transform_seed = gpu::mix64(seed ^ check.transform_seed);
  check.poison_seed = gpu::mix64(seed ^ check.poison_seed);
  set_load_share(check, LoadShare::all_but_one);
  return candidate_call(p, check, false, o, r);  // a check: a failure shows in judge_calls
}

}  // namespace ptxbench::eval
