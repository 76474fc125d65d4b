#include "eval/judge_session.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "compile/driver_allow_list.h"
#include "core/elapsed.h"
#include "core/fs.h"
#include "core/text.h"
#include "eval/broker_call_fields.h"
#include "eval/eval_result.h"
#include "eval/gpu/rng.h"
#include "eval/judge_session_peers.h"
#include "eval/verifier_host.h"
#include "eval/worker_spec.h"
#include "sandbox/refusal.h"

namespace ptxbench::eval {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

std::string session_tail(const std::string& s, std::size_t n = 4000) {
  return s.size() > n ? s.substr(s.size() - n) : s;
}

// `name`: the call's workload's name in the plan (emptied for a hidden one).
TrialReport trial_of(const CallRecord& c, bool hidden, const std::string& name) {
  TrialReport t;
  t.index = c.index;
  t.label = c.plan.label;
  t.workload = hidden ? std::string() : name;
  t.hidden = hidden;
  t.after_hidden = !hidden && c.after_hidden;
  t.seed = c.plan.transform_seed;
  t.passed = c.check && c.check->passed();
  if (c.check) t.outputs = c.check->outputs;
  return t;
}

}  // namespace

// Every call of a burst prepared by the verifier, and the broker's command for them.
bool JudgeSession::prepare_burst(Peers& p, const std::vector<PlannedCall>& burst, CallCommand& cmd,
                                 EvalResult& r) {
  for (const auto& c : burst) {
    if (!prepare(p, c, r)) return false;
    cmd.calls.push_back({c.workload, c.slot});
  }
  return true;
}

bool JudgeSession::prepare(Peers& p, const PlannedCall& call, EvalResult& r) {
  const auto t0 = Clock::now();
  if (!p.verifier->send(call.prepare().to_json()).ok()) {
    r.outcome = Outcome::harness_error;
    r.message = "the verifier is gone";
    return false;
  }
  Received got = p.verifier->receive(milliseconds(seconds(120)));
  if (!got.reply || !got.reply->ok) {
    r.outcome = Outcome::harness_error;
    r.message =
        "the verifier failed to prepare a call: " + (got.reply ? got.reply->error : got.text);
    judge_failed_on(call, r);
    return false;
  }
  timeline_.add(SpanKind::prepare, t0, call.workload);
  return true;
}

// The sustained load before a burst (EvalOptions::sustained_load_ms). A verifier that cannot
// run its library stops the heat for the rest of the session (the timing phase reports the
// library's failure); the candidate is judged on.
void JudgeSession::heat(Peers& p, const EvalOptions& o) {
  if (o.sustained_load_ms <= 0 || heat_failed_) return;
  const auto t0 = Clock::now();
  const bool sent = p.verifier->send(HeatCommand{o.sustained_load_ms}.to_json()).ok();
  Received got = sent ? p.verifier->receive(milliseconds(seconds(120))) : Received{};
  heat_failed_ = !got.reply || !got.reply->ok;
  timeline_.add(SpanKind::library, t0, 0);
}

bool JudgeSession::candidate_call(Peers& p, const PlannedCall& call, bool timing,
                                  const EvalOptions& o, EvalResult& r) {
  return candidate_burst(p, {call}, timing, o, r, {});
}

// Prepare every call, one "call" burst in the broker (the parent times the round trip), then
// `between` (the library's burst, so the GPU works on without a pause), then verify every call.
bool JudgeSession::candidate_burst(Peers& p, const std::vector<PlannedCall>& burst, bool timing,
                                   const EvalOptions& o, EvalResult& r,
                                   const std::function<void()>& between) {
  CallCommand cmd;
  if (!prepare_burst(p, burst, cmd, r)) return false;
  // Per-launch events serialise PDL: not on hidden checks (leak6/pdl_race_hidden.cu).
  cmd.function_times = time_functions_ && !timing && !p.audit_armed && !burst.front().workload;
  plan_load(cmd, calls_, burst, o.call_timeout_seconds);
  heat(p, o);
  // Per call of the burst: the session had made a hidden call before, in any of its processes
  // (device code outlives a host process: memory a further broker's kernels can read, red team
  // leak4/cross_broker_unwithheld.cu).
  std::vector<bool> after_hidden;
  for (const auto& c : burst) {
    after_hidden.push_back(p.session_ran_hidden);
    p.session_ran_hidden = p.session_ran_hidden || hidden_workload(c.workload);
  }
  const auto t0 = Clock::now();
  if (!p.broker->send(cmd.to_json()).ok()) {
    broker_failed(p, Received{std::nullopt, ReceiveFailure::closed, "the broker is gone"},
                  burst.front(), r);
    return false;
  }
  const double limit =
      p.audit_armed ? audited_call_limit(o.call_timeout_seconds) : o.call_timeout_seconds;
  const double n = static_cast<double>(burst.size());
  Received got = p.broker->receive(milliseconds(static_cast<long long>(1000 * (limit * n + 15))));
  const double wall =
      got.reply ? wall_without_counters(ms_since(t0), got.reply->extra) : ms_since(t0);
  timeline_.add(SpanKind::candidate_call, t0, burst.front().workload, p.brokers);
  const std::vector<double> events = got.reply ? events_of(*got.reply) : std::vector<double>{};
  if (!got.reply || !got.reply->ok) {
    const EvalResult as_before = r;  // a re-run that shows a write into an input decides instead
    broker_failed(p, got, burst.front(), r);
    if (got.reply && got.reply->status.broker() == BrokerStatus::illegal_address &&
        input_write_rerun(p, burst, o))
      r = as_before;
    return false;
  }
  if (events.size() != burst.size()) {
    r.outcome = Outcome::harness_error;
    r.message = "the broker's reply lacks the burst's event times";
    return false;
  }
  const Json* host_ms = find_array(got.reply->extra, "host_ms");
  if (between) between();
  bool passed = true;
  for (std::size_t i = 0; i < burst.size(); ++i) {
    CallRecord rec;
    rec.index = static_cast<int>(calls_.size());
    rec.plan = burst[i];
    rec.timing = timing && !burst[i].sm_load;  // a loaded timing round is a check (plan.h)
    // The host's time before its work began is not the call's: the broker measured it (trusted),
    // its events start after it; the wall-clock check sees the rest.
    const double host = host_ms && i < host_ms->size() && (*host_ms)[i].is_number()
                            ? (*host_ms)[i].get<double>()
                            : 0.0;
    rec.wall_ms = std::max(0.0, wall / n - host);
    rec.host_ms = host;
    rec.event_ms = events[i];
    // What the broker saw (call_diagnoses.h): the default stream or another (it ran the work on
    // its own stream, inside the call's events), stale buffers, workspace kept.
    rec.seen = call_diagnoses(got.reply->extra, i);
    // A diagnosis that is no guard (workspace_kept) only from calls before the session's first
    // hidden one: the candidate raises it at will, a bit it could choose after seeing hidden sizes
    // (leak4/diag_flag_bits). Guards stay on every call: they decide what its time is worth.
    const bool quiet = after_hidden[i] || hidden_workload(burst[i].workload);
    for (Flag f : diagnosis_flags(rec.seen))
      if (!quiet || is_guard(f)) r.add_flag(f);
    rec.audited = p.audit_armed;
    rec.after_hidden = after_hidden[i];
    rec.broker = p.brokers;
    read_broker_call_fields(got.reply->extra, i, rec);
    // A load the broker could not start: the call ran on the usual schedule.
    rec.plan.sm_load = cmd.sm_load && got.reply->extra.value("sm_load", false);
    if (rec.plan.sm_load) set_load_share(rec.plan, cmd.sm_load_share);  // the burst's (lowered?)
    rec.load_outlasted =
        rec.plan.sm_load && !rec.cooperative && got.reply->extra.value("sm_load_outlasted", false);
    // Not loaded, or a launch of it ran beside none of the load (cooperative, wide clusters).
    if (cmd.sm_load && (!rec.plan.sm_load || got.reply->extra.value("sm_load_bare", false)))
      r.add_flag(Flag::schedule_not_varied);
    const PlannedCall& call = burst[i];
    const auto v0 = Clock::now();
    if (!p.verifier->send(VerifyCommand{call.workload, call.slot}.to_json()).ok()) {
      r.outcome = Outcome::harness_error;
      r.message = "the verifier is gone";
      return false;
    }
    Received checked = p.verifier->receive(milliseconds(seconds(120)));
    if (!checked.reply || !checked.reply->ok || !checked.reply->check) {
      r.outcome = Outcome::harness_error;
      r.message = "the verifier failed to check a call: " +
                  (checked.reply ? checked.reply->error : checked.text);
      judge_failed_on(call, r);
      return false;
    }
    timeline_.add(SpanKind::verify, v0, call.workload);
    rec.check = checked.reply->check;
    passed = passed && rec.check->passed() && !rec.load_outlasted;
    calls_.push_back(std::move(rec));
  }
  return passed;
}

bool JudgeSession::baseline_call(Peers& p, const PlannedCall& call, bool timing, bool verify,
                                 EvalResult& r) {
  if (!prepare(p, call, r)) return false;
  CallRecord rec;
  rec.index = static_cast<int>(calls_.size());
  rec.plan = call;
  rec.baseline = true;
  rec.timing = timing;
  const auto t0 = Clock::now();
  bool sent = p.verifier->send(BaselineCommand{call.workload, call.slot, verify}.to_json()).ok();
  Received got = sent ? p.verifier->receive(milliseconds(seconds(120))) : Received{};
  rec.wall_ms = ms_since(t0);
  timeline_.add(SpanKind::library, t0, call.workload);
  if (!got.reply || !got.reply->ok) {
    r.add_flag(Flag::baseline_failed);
    r.baseline_check_error = got.reply ? got.reply->error : got.text;
    return false;
  }
  rec.event_ms = got.reply->event_ms;
  if (r.timing && r.timing->baseline_name.empty()) {
    r.timing->baseline_name = got.reply->extra.value("name", std::string{});
    r.timing->baseline_description = got.reply->extra.value("description", std::string{});
    r.timing->setup_ms = got.reply->extra.value("setup_ms", Json::object());
    library_plan_index_ = got.reply->extra.value("plan_index", -1);
    library_plan_timed_ = got.reply->extra.value("plan_timed", false);
    library_best_ms_ = got.reply->extra.value("library_best_ms", 0.0);
  }
  // The library's own check, made by the verifier on its private copy of the call's inputs.
  if (verify && got.reply->check) {
    rec.check = got.reply->check;
    for (const auto& o : rec.check->outputs) r.baseline_check.push_back(o);
    if (!rec.check->passed()) r.add_flag(Flag::baseline_incorrect);
  }
  calls_.push_back(std::move(rec));
  return true;
}

// After a plain numeric failure: the library on exactly the same inputs (same base set and
// permutation; fresh ones: the slot's again), by the same rule. Needs the verifier running.
const CallCheck* JudgeSession::library_fails_too(const CallRecord& bad, EvalResult& r) {
  Peers& p = *peers_;
  if (!p.verifier) return nullptr;
  PlannedCall same = bad.plan;
  same.content = bad.plan.content == Content::fresh ? Content::repeat : Content::transformed;
  same.poison_seed ^= 0x11B4A7ull;
  same.label += ", the library on the same inputs";
  const std::size_t before = calls_.size();
  if (!baseline_call(p, same, false, true, r) || calls_.size() == before) return nullptr;
  const CallRecord& lib = calls_.back();
  return lib.check && !lib.check->passed() ? &*lib.check : nullptr;
}

void JudgeSession::finish(Peers& p, const EvalOptions& o, EvalResult& r) {
  stop_broker(p);  // first: no broker maps the session's buffers when they are freed
  if (p.verifier) {
    const auto t0 = Clock::now();
    // A hosted verifier is given back once its session is closed, unless anything in the session
    // failed on the harness's side (verifier_reusable_after); never one under a tool (hosted()).
    if (hosted(o) && verifier_reusable_after(r.outcome) &&
        p.verifier
            ->send(
                Json{{"op", "close"}, {"library_ms", r.timing ? r.timing->baseline.median : 0.0}})
            .ok()) {
      Received closed = p.verifier->receive(milliseconds(seconds(60)));
      if (closed.reply && closed.reply->ok && closed.reply->extra.value("closed", false))
        o.verifier_host->give_back(
            o.device,
            WarmVerifier{std::move(p.verifier), std::move(p.verifier_dir), p.verifier_started,
                         p.verifier_sessions + 1, std::move(p.verifier_descriptors)});
    }
    if (p.verifier) {
      (void)p.verifier->send(Json{{"op", "quit"}});
      p.verifier_end = p.verifier->finish(milliseconds(10000));
    }
    timeline_.add(SpanKind::verifier_stop, t0);
  }
  r.network_isolated = p.host_end.network_isolated && p.broker_end.network_isolated;
  if (p.broker && !r.network_isolated) r.add_flag(Flag::network_not_isolated);
  // What the candidate's host process printed and the broker's output (device printf, a tool's
  // report): after a hidden call they could name its sizes, so withheld from the result
  // (memcheck_broker/printf_hidden_workload_dump.cu), whole in --candidate-output.
  r.ran_hidden = p.session_ran_hidden;
  keep_candidate_output(o, p);
  auto printed = [&](const std::string& text) {
    return r.ran_hidden ? std::string(kOutputWithheld) : session_tail(text);
  };
  r.worker_stdout_tail = printed(p.host_end.stdout_text);
  r.worker_stderr_tail = printed(p.host_end.stderr_text);
  r.broker_output_tail = printed(p.broker_end.stdout_text + p.broker_end.stderr_text);
  if (!p.broker_end.timed_out && p.broker_end.signal == 0)
    r.broker_exit_code = p.broker_end.exit_code;
  if (!setup_.broker_tool_log.empty() && p.broker_dir)
    if (auto log = read_file(p.broker_dir->path() / setup_.broker_tool_log); log.ok())
      r.broker_tool_log = session_tail(*log);
}

void JudgeSession::run(const task::TaskSpec& task, const fs::path& so, const EvalOptions& o,
                       EvalResult& r) {
  Peers p;
  peers_ = &p;
  family_ = task.family;
  calls_.clear();
  timeline_.start(o.timeline);
  decide(p, task, so, o, r);
  timeline_.set_phase(SessionPhase::end);
  finish(p, o, r);
  r.timeline = timeline_.take();
  peers_ = nullptr;
}

// The checked calls past their session budget (session_decision.h kChecksBudgetCalls): the
// session ends, `timeout`. The message names no call and no figure the candidate chose (how long
// its calls took can encode a hidden workload's sizes: withheld/checks_budget_seconds.cu).
bool JudgeSession::checks_over_budget(const EvalOptions& o, EvalResult& r) const {
  const double budget = kChecksBudgetCalls * o.call_timeout_seconds;
  const double spent = checks_seconds(calls_);
  if (spent <= budget) return false;
  r.outcome = Outcome::timeout;
  r.message = fmt::format(
      "the checked calls took more than the session's budget of {:.0f} s together ({:g} call "
      "limits): time spent on calls that are not timed is the candidate's too",
      budget, kChecksBudgetCalls);
  r.phase = "correctness checks";
  return true;
}

void JudgeSession::decide(Peers& p, const task::TaskSpec& task, const fs::path& so,
                          const EvalOptions& o, EvalResult& r) {
  auto phase_start = Clock::now();
  auto lap = [&](double& into, SessionPhase next) {
    into = ms_since(phase_start) / 1000;
    phase_start = Clock::now();
    timeline_.set_phase(next);
  };
  const bool started = start(p, task, so, o, r);
  lap(r.phase_seconds.start, SessionPhase::checks);
  if (!started) return;
  bool ok = true;
  // Each check a burst of one (plan.h), as each timing call is; the broker measures each kernel
  // function's GPU time in them (the audit's choice of functions, audit_selection.h).
  time_functions_ = rerun_faults_ = true;
  bool shares_drawn = false;
  for (std::size_t i = 0; i < plan_.checks.size(); ++i) {
    if (plan_.checks[i].sm_load && !shares_drawn) {  // all but one SM busy: the calls decide
      shares_drawn = true;
      for (std::size_t k : all_but_one_checks(plan_.checks, i, calls_, o.call_timeout_seconds,
                                              gpu::mix64(r.seed ^ 0xA11B0710Eull) >> 1))
        set_load_share(plan_.checks[k], LoadShare::all_but_one);
    }
    const PlannedCall& check = plan_.checks[i];
    const std::size_t before = calls_.size();
    ok = candidate_call(p, check, false, o, r);
    if (calls_.size() > before)
      r.trials.push_back(trial_of(calls_.back(), hidden_workload(calls_.back().plan.workload),
                                  workload_name(calls_.back().plan.workload)));
    if (!ok) break;
    if (checks_over_budget(o, r)) {
      ok = false;
      break;
    }
  }
  time_functions_ = false;
  lap(r.phase_seconds.checks, SessionPhase::timing);
  if (ok && setup_.timing && r.outcome != Outcome::harness_error) timing_phase(p, o, r);
  rerun_faults_ = false;
  lap(r.phase_seconds.timing, SessionPhase::audit);
  if (r.outcome != Outcome::not_run && r.outcome != Outcome::passed) return;  // set by a failure
  // Not audited: a candidate already incorrect, by a check or by its repeat calls' speed.
  if (setup_.audit != Instrument::none && judge_calls(calls_, plan_.hidden).passed &&
      !(r.timing && judge_timing(calls_).incorrect))
    audit_phase(p, o, r);
  lap(r.phase_seconds.audit, SessionPhase::end);
  if (r.outcome != Outcome::not_run && r.outcome != Outcome::passed) return;
  CorrectnessFindings c = judge_calls(calls_, plan_.hidden);
  for (Flag f : c.flags) r.add_flag(f);
  if (!c.passed) {
    const CallRecord& bad = calls_[static_cast<std::size_t>(c.failing_call)];
    if (bad.timing || r.trials.empty() || r.trials.back().index != bad.index)
      r.trials.push_back(
          trial_of(bad, hidden_workload(bad.plan.workload), workload_name(bad.plan.workload)));
    r.outcome = Outcome::incorrect;
    r.message = c.message;  // judge_calls names no hidden workload
    r.phase = bad.plan.label;
    const std::string where = note_failed_on(bad.plan, r);
    if (r.failed_on == FailedOn::hidden) {
      r.withheld = bad.plan.label;
      r.phase = where;
    } else if (bad.after_hidden) {  // a public workload: which call and its figures withheld
      r.phase = bad.audited ? "an audited call on the timed workload, after the hidden calls"
                            : "the timed workload, after the hidden calls";
      r.withheld = bad.plan.label + ": the wrong values' figures (run after a hidden call)";
    }
    if (!c.withheld.empty()) r.withheld += (r.withheld.empty() ? "" : "; ") + c.withheld;
    const CallCheck candidate = *bad.check;  // library_fails_too adds to calls_
    const bool figures_withheld = r.failed_on == FailedOn::hidden || bad.after_hidden;
    const CallCheck* library = c.flags.empty() ? library_fails_too(bad, r) : nullptr;
    if (!library) return;
    // The library misses the rule too: the yardstick decides (session_decision.h). Its figures
    // (counts, errors) could size a hidden workload: on one, or after one, they are withheld.
    const Yardstick y = compare_with_library(candidate, *library);
    auto detail = [&](const std::string& figures) {
      if (!figures_withheld) return " (" + figures + ")";
      r.withheld += "; " + figures;
      return std::string();
    };
    if (!y.as_accurate) {
      r.add_flag(Flag::library_misses_rule);
      r.message = c.message +
                  "; the library also misses the rule on these inputs, but the kernel is clearly "
                  "less accurate" +
                  detail(y.why);
      return;
    }
    // Neither the candidate's fault nor the harness's: the verifier is healthy and is kept.
    r.outcome = Outcome::task_suite_error;
    r.message =
        "the library itself fails this task's correctness rule on the inputs the candidate "
        "failed on, and the candidate is as accurate as the library there" +
        detail(y.why) + ": an error of the task suite, not of the candidate (" + c.message + ")";
    return;
  }
  r.outcome = Outcome::passed;
  if (!r.timing) return;
  TimingFindings t = judge_timing(calls_);
  for (Flag f : t.flags) r.add_flag(f);
  r.timing->candidate = t.candidate;
  r.timing->baseline = t.baseline;
  r.timing->candidate_wall = t.candidate_wall;
  r.timing->baseline_wall = t.baseline_wall;
  r.timing->speedup_basis = t.speedup_basis;
  r.timing->calibrated_overhead_ms = t.calibrated_overhead_ms;
  r.timing->speedup = t.speedup;
  r.timing->speedup_rel_ci95 = t.speedup_rel_ci95;
  r.timing->verified_calls = 0;
  for (const auto& c2 : calls_) r.timing->verified_calls += (!c2.baseline && c2.check) ? 1 : 0;
  if (t.incorrect) {
    r.outcome = Outcome::incorrect;
    r.message = t.message;
    return;
  }
  check_library_speed(p, r);
}

}  // namespace ptxbench::eval
