// JudgeSession's audit phase (audit_trace.h): after the timing phase, the audited calls, one on
// the timed workload and one on the audit workload, made and verified like every other call.
#include <fmt/format.h>

#include <algorithm>

#include "eval/judge_session.h"
#include "eval/judge_session_peers.h"
#include "eval/worker_spec.h"

namespace ptxbench::eval {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Every kernel function the candidate launched in `calls`, first-launch order, with its
// launches summed over the calls selected by `pick`.
template <class Pick>
std::vector<std::pair<std::string, int>> launched(const std::vector<CallRecord>& calls, Pick pick) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& c : calls) {
    if (c.baseline || c.calibration || !pick(c)) continue;
    for (const auto& [fn, n] : c.launches) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == fn; });
      if (it == out.end())
        out.emplace_back(fn, n);
      else
        it->second += n;
    }
  }
  return out;
}

// Every function launched so far, in first-launch order, with the GPU time the broker measured
// for its launches (CallRecord::function_ms) in the checked calls on the timed workload: the
// calls a kernel cannot tell from timing calls, so time it spends in a function there is time it
// pays for in its speed (the hidden calls are never timed: a function slowed only there would
// carry the share for free). A call with launches past the broker's bound leaves the times
// partial: then none counts (the shares are unknown).
std::vector<FunctionTime> function_times(const std::vector<CallRecord>& calls, bool& partial) {
  std::vector<FunctionTime> out;
  for (const auto& [fn, n] : launched(calls, [](const CallRecord&) { return true; }))
    out.push_back({fn, 0, 0});
  partial = false;
  for (const auto& c : calls) {
    if (c.baseline || c.calibration || c.plan.workload != 0) continue;
    partial = partial || c.untimed_launches > 0;
    for (const auto& [fn, ms] : c.function_ms) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& f) { return f.name == fn; });
      if (it != out.end()) it->ms += ms;
    }
  }
  if (partial)
    for (auto& f : out) f.ms = 0;
  return out;
}

// How many times `fn` was launched in the audited calls of broker `broker`.
int audited_launches(const std::vector<CallRecord>& calls, const std::string& fn, int broker) {
  for (const auto& [name, n] :
       launched(calls, [&](const CallRecord& c) { return c.audited && c.broker == broker; }))
    if (name == fn) return n;
  return 0;
}

void note_skipped(AuditTrace& t, FunctionTime f, AuditSkip why) {
  t.skipped.push_back({std::move(f.name), f.ms, f.share, why});
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// The functions to audit (audit_selection.h) into t.functions, the others into t.skipped.
void JudgeSession::choose_functions(AuditTrace& t) const {
  bool partial = false;
  AuditChoice c = choose_audited(function_times(calls_, partial));
  if (partial)
    t.messages.push_back(
        fmt::format("a checked call made more than {} launches: the functions' times are unknown",
                    kMaxTimedLaunchesPerCall));
  t.shares_measured = c.measured;
  t.shares_unknown = partial;
  t.audited_share = c.audited_share();
  for (auto& f : c.audited) {
    TracedFunction traced{f.name, 0, false, {}, {}};
    traced.share = f.share;
    t.functions.push_back(std::move(traced));
  }
  for (auto& [f, why] : c.skipped) note_skipped(t, std::move(f), why);
}

// The chosen functions one after the other, each further one only while the audit phase's
// budget allows (AuditBudget); those past it are skipped (AuditSkip::budget).
void JudgeSession::audit_functions(Peers& p, TimingDraw& draw, const EvalOptions& o, EvalResult& r,
                                   AuditTrace& t,
                                   std::chrono::steady_clock::time_point phase_start) {
  const AuditBudget budget;
  double last_cost = 0;
  for (std::size_t k = 0; k < t.functions.size() && t.error.empty(); ++k) {
    if (!budget.may_start(k, seconds_since(phase_start), last_cost)) {
      t.messages.push_back(fmt::format(
          "{} chosen function(s) not audited: the audit phase's budget of {:.0f} s ran out",
          t.functions.size() - k, budget.seconds));
      skip_for_budget(t, k);
      break;
    }
    const auto f0 = std::chrono::steady_clock::now();
    audit_function(p, k, draw, o, r, t);
    last_cost = seconds_since(f0);
    if (r.outcome != Outcome::not_run && r.outcome != Outcome::passed) break;
  }
}

// One round trip with the broker outside a call (audit_arm / audit_collect). False when the
// broker is gone (r then says why, as for a failed call).
bool JudgeSession::audit_command(Peers& p, const Json& command, Received& got, EvalResult& r) {
  const PlannedCall what{0, 0, Content::transformed, 0, 0, 0, "the instruction audit"};
  const auto t0 = std::chrono::steady_clock::now();
  if (!p.broker->send(command).ok()) {
    broker_failed(p, Received{std::nullopt, ReceiveFailure::closed, "the broker is gone"}, what, r);
    return false;
  }
  got = p.broker->receive(milliseconds(seconds(120)));
  timeline_.add(SpanKind::audit_command, t0, -1, p.brokers);
  if (!got.reply) {
    broker_failed(p, got, what, r);
    return false;
  }
  return true;
}

// The audited calls themselves, one per audited workload. An audited call that does not finish
// within its (widened) limit is not the candidate's timeout: instrumented kernels are slow. The
// audit then lacks that call's counts and says so; a kernel gains nothing by hanging here.
bool JudgeSession::audited_calls(Peers& p, TimingDraw& draw, const EvalOptions& o, EvalResult& r,
                                 AuditTrace& t) {
  for (int w : audited_) {
    const Outcome before = r.outcome;
    const std::string message = r.message, phase = r.phase, withheld = r.withheld;
    const FailedOn failed_on = r.failed_on;
    if (candidate_call(p, draw.fresh_on(w, "audited call"), false, o, r)) continue;
    if (r.outcome == Outcome::timeout) {
      t.messages.push_back("an audited call on " +
                           plan_.verifier.workloads[static_cast<std::size_t>(w)].problem.workload +
                           " did not finish within " +
                           std::to_string(int(audited_call_limit(o.call_timeout_seconds))) +
                           " s under instrumentation: its counts are missing");
      r.outcome = before;
      r.message = message;
      r.phase = phase;
      r.withheld = withheld;
      r.failed_on = failed_on;
    }
    return false;
  }
  return true;
}

// The median wall time of the candidate's calls on workload `w` so far, ms; 0 without calls.
double JudgeSession::median_wall_ms(int w) const {
  std::vector<double> walls;
  for (const auto& c : calls_)
    if (!c.baseline && !c.calibration && c.plan.workload == w) walls.push_back(c.wall_ms);
  if (walls.empty()) return 0;
  std::sort(walls.begin(), walls.end());
  return walls[walls.size() / 2];
}

// What an audited call on workload `w` is assumed to take, ms: its calls' median wall time,
// kInstrumentedSlowdown times, but for a hidden workload never more than the timed workload's
// scaled by the two workloads' FLOPs. A hidden workload's one checked call is never timed, so a
// candidate could make it slow for free to steer the audit off that workload; its timed calls
// are its speedup.
double JudgeSession::instrumented_estimate_ms(int w) const {
  const double own = median_wall_ms(w) * kInstrumentedSlowdown;
  const std::vector<double>& flops = plan_.workload_flops;
  const auto i = static_cast<std::size_t>(w);
  if (w == 0 || i >= flops.size() || flops[0] <= 0 || flops[i] <= 0) return own;
  const double timed = median_wall_ms(0) * kInstrumentedSlowdown;
  return timed > 0 ? std::min(own, timed * flops[i] / flops[0]) : own;
}

// The session's audit workload or, when its audited call would take more than
// kAuditWorkloadBudgetSeconds, the largest smaller hidden workload whose call would not (when
// none would, the cheapest, the audit workload included). Only an audit workload nobody named is
// replaced.
int JudgeSession::audit_workload_for_speed(const EvalOptions& o, AuditTrace& t) const {
  const int planned = plan_.audit_workload;
  const double budget_ms = 1000 * kAuditWorkloadBudgetSeconds;
  const double planned_ms = instrumented_estimate_ms(planned);
  if (!o.audit_workload.empty() || planned_ms <= budget_ms) return planned;
  // The other hidden workloads, largest by FLOPs first.
  std::vector<int> smaller;
  for (std::size_t w = 1; w < plan_.hidden.size(); ++w)
    if (plan_.hidden[w] && static_cast<int>(w) != planned) smaller.push_back(static_cast<int>(w));
  const std::vector<double>& flops = plan_.workload_flops;
  std::stable_sort(smaller.begin(), smaller.end(), [&](int a, int b) {
    return flops[static_cast<std::size_t>(a)] > flops[static_cast<std::size_t>(b)];
  });
  int pick = planned;
  double pick_ms = planned_ms;
  for (int w : smaller) {
    const double ms = instrumented_estimate_ms(w);
    if (ms <= budget_ms) {
      pick = w;
      break;
    }
    if (ms < pick_ms) pick = w, pick_ms = ms;
  }
  if (pick == planned) return planned;
  auto name = [&](int w) {
    return plan_.verifier.workloads[static_cast<std::size_t>(w)].problem.workload;
  };
  t.messages.push_back(fmt::format(
      "{} audited instead of {}: a call on {} would take about {:.1f} s under instrumentation",
      name(pick), name(planned), name(planned), planned_ms / 1000));
  return pick;
}

// The audited workloads: the timed one and the audit workload (audit_workload_for_speed), each
// kept when its calls so far, slowed down kInstrumentedSlowdown times, fit in half the audited
// call limit; at least the cheaper one. Empty when even that would not fit (t.messages says so).
std::vector<int> JudgeSession::pick_audited(const EvalOptions& o, AuditTrace& t) const {
  std::vector<int> wanted{0};
  if (plan_.audit_workload != 0) wanted.push_back(audit_workload_for_speed(o, t));
  const double limit_ms = 1000 * audited_call_limit(o.call_timeout_seconds);
  std::vector<int> kept;
  int cheapest = wanted.front();
  double cheapest_ms = 1e300;
  for (int w : wanted) {
    const double est = instrumented_estimate_ms(w);
    if (est <= limit_ms / 2) kept.push_back(w);
    if (est < cheapest_ms) cheapest = w, cheapest_ms = est;
    if (est > limit_ms / 2)
      t.messages.push_back(plan_.verifier.workloads[static_cast<std::size_t>(w)].problem.workload +
                           " not audited: its call would take about " +
                           std::to_string(int(est / 1000)) + " s under instrumentation");
  }
  if (kept.empty() && cheapest_ms <= limit_ms) kept.push_back(cheapest);
  return kept;
}

// Kernel function k (cupti): in the main broker (k = 0) or in a broker of its own, armed for
// it, the audited calls, then its per-PC counts.
void JudgeSession::audit_function(Peers& p, std::size_t k, TimingDraw& draw, const EvalOptions& o,
                                  EvalResult& r, AuditTrace& t) {
  TracedFunction& f = t.functions[k];
  if (k > 0) {
    stop_broker(p);
    if (!start_broker(p, o, r)) return;
    // One ordinary call first, so the audited calls are not a fresh process's first; on the
    // first audited workload (a slow kernel's timed workload may take a second a call).
    if (!candidate_call(p, draw.fresh_on(audited_.front(), "checked call"), false, o, r)) return;
  }
  Received got;
  if (!audit_command(p, AuditArmCommand{f.name}.to_json(), got, r)) return;
  if (!got.reply->ok) {
    f.note = got.reply->error;
    if (t.error.empty()) t.error = got.reply->error;
    return;
  }
  p.audit_armed = true;
  const bool calls_ok = audited_calls(p, draw, o, r, t);
  p.audit_armed = false;
  // Its launches in the audited calls of its own broker, the one armed for it: a function that
  // broker never launched (a host that behaves otherwise in a fresh process) has nothing to
  // record and its share earns nothing; it is no reason to try another route (needs_ncu; red
  // team of 2026-12-06, leak3/ncu_fallback_token_credit.cu).
  f.launches = audited_launches(calls_, f.name, p.brokers);
  if (!calls_ok) return;
  if (!audit_command(p, Json{{"op", "audit_collect"}}, got, r) || !got.reply->ok) return;
  const Json& x = got.reply->extra;
  if (t.chip.empty()) t.chip = x.value("chip", std::string{});
  const std::string error = x.value("error", std::string{});
  if (!error.empty() && t.error.empty()) {
    t.error = error;
    t.error_kind = x.value("error_kind", std::string{});
  }
  if (x.contains("records") && x["records"].is_array())
    for (const auto& rec : x["records"]) {
      if (!rec.is_array() || rec.size() != 4 || !rec[0].is_string() || rec[0] != f.name) continue;
      PcCounts& c = f.pcs[rec[1].get<std::uint32_t>()];
      c.warp_executed += rec[2].get<std::uint64_t>();
      c.thread_pred_on += rec[3].get<std::uint64_t>();
    }
  f.recorded = !f.pcs.empty();
  if (!f.recorded)
    f.note = !error.empty() ? error
             : x.value("enabled_for", std::string{}).empty()
                 ? std::string(kNotLaunchedInAuditedCalls)
                 : "CUPTI returned no records for this function";
}

// What the timed calls themselves ran, from the first broker's counters (timed_counts.h), read
// before anything is armed: counting ends with this command.
void JudgeSession::count_timed_calls(Peers& p, EvalResult& r, AuditTrace& t) {
  if (!p.broker_request.count_calls || plan_.workload_flops.empty()) return;
  // Counting asked for and not read backs nothing (audit/verdicts.h timed_calls_back).
  if (p.brokers != 1) {
    t.timed = TimedCounts{false, "a further broker ran before the counters were read"};
    return;
  }
  Received got;
  if (!audit_command(p, Json{{"op", "counters"}}, got, r)) return;
  const Json reply = got.reply->ok ? got.reply->extra : Json(nullptr);
  std::vector<bool> hidden;
  for (std::size_t w = 0; w < plan_.workload_flops.size(); ++w)
    hidden.push_back(hidden_workload(static_cast<int>(w)));
  t.timed = summarize_timed_counts(reply, calls_, plan_.workload_flops,
                                   plan_.workload_input_bytes.front(), hidden,
                                   plan_.workload_input_bytes);
}

void JudgeSession::audit_phase(Peers& p, const EvalOptions& o, EvalResult& r) {
  const auto phase_start = std::chrono::steady_clock::now();
  AuditTrace t;
  t.route = setup_.audit;
  TimingDraw draw(plan_, gpu::mix64(r.seed ^ 0xA0D17CA11ull));
  const int brokers_before = p.brokers;
  audited_ = pick_audited(o, t);
  count_timed_calls(p, r, t);
  for (int w : audited_) {
    t.workloads.push_back(plan_.verifier.workloads[static_cast<std::size_t>(w)].problem.workload);
    t.flops += plan_.workload_flops[static_cast<std::size_t>(w)];
  }
  if (audited_.empty()) {
    r.audit_trace = std::move(t);
    return;
  }
  if (setup_.audit == Instrument::nvtx) {
    // The same choice as on the CUPTI route, from this session's own measured times: ncu profiles
    // every launch, but only the chosen functions' counts count (audit/ncu_route.cc), and the
    // credit rests on the share they carry.
    choose_functions(t);
    Received got;
    bool calls_ok = false;
    if (audit_command(p, AuditArmCommand{}.to_json(), got, r) && got.reply->ok) {
      // Audited calls as on the CUPTI route (CallRecord::audited, the widened call limit).
      p.audit_armed = true;
      calls_ok = audited_calls(p, draw, o, r, t);
      p.audit_armed = false;
    }
    if (calls_ok && audit_command(p, Json{{"op", "audit_collect"}}, got, r)) {
      stop_broker(p);
      t.ncu_output = p.broker_end.stdout_text;
      if (p.broker_end.exit_code != 0 && !p.broker_end.timed_out)
        t.messages.push_back("ncu: " + p.broker_end.describe_end());
    }
  } else if (!p.broker_audit_error.empty()) {
    t.error = p.broker_audit_error;
    t.error_kind =
        p.broker_audit_error.find("PRIVILEGES") != std::string::npos ? "permission" : "cupti";
  } else {
    // The functions that carry the candidate's work (audit_selection.h).
    choose_functions(t);
    if (t.functions.empty()) {
      t.messages.push_back("the candidate launched no kernel");
      audited_calls(p, draw, o, r, t);
    }
    audit_functions(p, draw, o, r, t, phase_start);
  }
  // Every function launched in the audited calls that was neither chosen nor skipped: launched
  // only there, so no checked call measured it and it carries none of the measured work. The
  // chosen functions' launches are their own brokers' (audit_function); on the ncu route the one
  // broker's.
  for (const auto& [fn, n] : launched(calls_, [](const CallRecord& c) { return c.audited; })) {
    auto it = std::find_if(t.functions.begin(), t.functions.end(),
                           [&](const TracedFunction& f) { return f.name == fn; });
    if (it != t.functions.end()) {
      if (setup_.audit == Instrument::nvtx) it->launches = n;
    } else if (std::none_of(t.skipped.begin(), t.skipped.end(),
                            [&](const SkippedFunction& s) { return s.name == fn; })) {
      note_skipped(t, {fn, 0, 0}, AuditSkip::no_time);
    }
  }
  t.brokers = p.brokers - brokers_before + 1;
  r.audit_trace = std::move(t);
}

}  // namespace ptxbench::eval
