#include "eval/judge_session.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "compile/driver_allow_list.h"
#include "core/elapsed.h"
#include "core/fs.h"
#include "core/refusal.h"
#include "core/text.h"
#include "eval/eval_result.h"
#include "eval/judge_session_peers.h"
#include "eval/verifier_host.h"
#include "eval/worker_spec.h"

namespace ptxbench::eval {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

std::string tail(const std::string& s, std::size_t n = 4000) {
  return s.size() > n ? s.substr(s.size() - n) : s;
}

const Json* find_array(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? &*it : nullptr;
}

// `name`: the call's workload's name in the plan (emptied for a hidden one).
TrialReport trial_of(const CallRecord& c, bool hidden, const std::string& name) {
  TrialReport t;
  t.index = c.index;
  t.label = c.plan.label;
  t.workload = hidden ? std::string() : name;
  t.hidden = hidden;
  t.seed = c.plan.transform_seed;
  t.passed = c.check && c.check->passed();
  if (c.check) t.outputs = c.check->outputs;
  return t;
}

// The verifier could not open a CUDA device at all (VerifierStatus::no_device: CUDA's words,
// which name no workload): the GPU or the environment is the cause, and what to do about it.
std::string no_gpu_message(const std::string& cuda_error) {
  const std::string cause =
      "no GPU could be used (the verifier could not open a CUDA device: " + cuda_error + ")";
  if (Evaluator::gpu_assumed())
    return "PTXBENCH_ASSUME_GPU=1 is set, but " + cause +
           ": unset PTXBENCH_ASSUME_GPU (it skips looking for a GPU); without a GPU ptxbench "
           "runs the static stages only";
  return cause +
         ": check the driver and CUDA_VISIBLE_DEVICES, or set PTXBENCH_NO_GPU=1 to run "
         "the static stages only";
}

// Why the verifier could not open a CUDA device at all, in words that name no workload, or "":
// its no_device reply (CUDA's error), or a process the loader could not start for want of the
// NVIDIA driver's library (exit 127 before main, so before any command). A verifier that ended
// is finished here, its end kept in `end`.
std::string no_device_cause(const Received& ready, std::unique_ptr<WorkerProcess>& verifier,
                            ProcessResult& end) {
  if (ready.reply)
    return verifier_status_from_string(ready.reply->status) == VerifierStatus::no_device
               ? ready.reply->error
               : std::string();
  if (ready.failure != ReceiveFailure::closed) return {};
  end = verifier->finish(milliseconds(2000));
  verifier.reset();
  if (end.exit_code != 127 ||
      end.stderr_text.find("error while loading shared libraries: libcuda.so") == std::string::npos)
    return {};
  return "the NVIDIA driver's library libcuda.so.1 cannot be loaded";
}

}  // namespace

bool JudgeSession::start(Peers& p, const task::TaskSpec& task, const fs::path& so,
                         const EvalOptions& o, EvalResult& r) {
  auto fail = [&](Outcome out, std::string msg, std::string phase) {
    return fail_with(r, out, std::move(msg), std::move(phase));
  };
  auto planned = plan_session(task, o.trials, r.seed, o.audit_workload, o.input_seed);
  if (!planned.ok()) return fail(Outcome::harness_error, planned.error().to_string(), "planning");
  plan_ = std::move(*planned);
  if (setup_.checks_only_first) plan_.checks.resize(1);
  p.so = so;

  // The verifier: this GPU's warm one from the run (verifier_host.h), else a new process. Its
  // session ("open": buffers, references, IPC handles) is asked for before the broker starts.
  OpenCommand open = plan_.verifier;
  open.library_plan = o.library_plan;
  choice_key_ = {task.name, plan_.verifier.workloads.front().problem.workload, o.device};
  if (o.library_choices) open.library_plan_index = o.library_choices->find(choice_key_);
  const auto verifier_start = Clock::now();
  if (!start_verifier(p, o, r)) return false;
  if (!p.verifier->send(open.to_json()).ok() && p.verifier_warm) {
    p.verifier.reset();  // it ended while it waited: a new one
    if (!start_verifier(p, o, r)) return false;
    (void)p.verifier->send(open.to_json());  // a failure shows as its missing reply
  }

  // The broker's and the host's requests, less their directories and copies of the candidate
  // (each pair gets its own); the first pair starts now, beside the verifier, and the broker gets
  // the slots once they exist.
  BrokerRequest& breq = p.broker_request;
  breq.call_timeout_seconds = o.call_timeout_seconds;
  breq.instrument = setup_.audit;
  breq.profiled = setup_.audit == Instrument::nvtx;  // under ncu: sockets allowed
  breq.sandbox_read = setup_.broker_read;
  breq.workspace_quota = o.workspace_quota;
  host::HostRequest& hreq = p.host_request;
  hreq.contract = setup_.contract;
  hreq.tvm_ffi_library = setup_.tvm_ffi_library;
  hreq.shim_dir = setup_.shim_dir.string();
  if (!launch_broker(p, o, r)) return false;

  Received ready = p.verifier->receive(milliseconds(o.check_timeout));
  r.phase_seconds.verifier = ms_since(verifier_start) / 1000;
  timeline_.add(SpanKind::verifier_start, verifier_start);
  if (std::string cause = no_device_cause(ready, p.verifier, p.verifier_end); !cause.empty())
    return fail(Outcome::harness_error, no_gpu_message(cause), "opening the GPU");
  if (!ready.reply || !ready.reply->ok) {
    // The verifier's words may name any workload of the plan, the hidden ones too.
    r.withheld = "the verifier could not prepare the session: " +
                 (ready.reply ? ready.reply->error : ready.text);
    return fail(Outcome::harness_error,
                "the judge's verifier could not prepare the session's inputs and references (its "
                "error is not shown: it may name a hidden workload)",
                "preparing inputs and references");
  }
  r.verifier_session = p.verifier_sessions + 1;
  r.provenance = ready.reply->extra.value("provenance", Json::object());
  const Json& slots = ready.reply->extra.at("slots");
  for (std::size_t w = 0; w < plan_.verifier.workloads.size(); ++w) {
    RunnerWorkload rw;
    rw.problem = plan_.verifier.workloads[w].problem;
    for (const auto& s : slots.at(w)) {
      auto h = slot_handles_from_json(s);
      if (!h.ok())
        return fail(Outcome::harness_error, "the verifier's slots: " + h.error().to_string(),
                    "preparing inputs and references");
      rw.slots.push_back(std::move(*h));
    }
    p.broker_map.workloads.push_back(std::move(rw));
  }
  return ready_broker(p, r, true);
}

// Bursts of a built-in no-op in the broker before the candidate is loaded, prepared like real
// timing bursts (kTimingBurst calls): what a call costs beyond its events when nobody lies
// (session_decision.h).
bool JudgeSession::calibrate(Peers& p, EvalResult& r, bool record) {
  TimingDraw draw(plan_, gpu::mix64(r.seed ^ 0xCA11B8A7Eull));
  for (int done = 0; done < kCalibrationCalls;) {
    std::vector<PlannedCall> burst = draw.next_burst(false, kTimingBurst);
    for (auto& c : burst) c.label = "calibration";
    CallCommand cmd;
    if (!prepare_burst(p, burst, cmd, r)) return false;
    const auto t0 = Clock::now();
    Received got = p.broker->send(cmd.to_json("noop")).ok()
                       ? p.broker->receive(milliseconds(seconds(60)))
                       : Received{std::nullopt, ReceiveFailure::closed, "the broker is gone"};
    const double wall = ms_since(t0);
    const std::vector<double> events = got.reply ? events_of(*got.reply) : std::vector<double>{};
    if (!got.reply || !got.reply->ok || events.size() != burst.size()) {
      r.outcome = Outcome::harness_error;
      r.message =
          "the broker failed its calibration calls: " + (got.reply ? got.reply->error : got.text);
      r.phase = "calibration";
      return false;
    }
    for (std::size_t i = 0; i < burst.size(); ++i, ++done) {
      CallRecord rec;
      rec.index = -1;
      rec.plan = burst[i];
      rec.calibration = true;
      rec.wall_ms = wall / static_cast<double>(burst.size());
      rec.event_ms = events[i];
      if (record) calls_.push_back(std::move(rec));
    }
  }
  return true;
}

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

// The verifier failed on `call` (r.message says how, in its words): on a hidden call those words
// may name the workload, so they are withheld.
void JudgeSession::judge_failed_on(const PlannedCall& call, EvalResult& r) const {
  const bool hidden = hidden_workload(call.workload);
  r.phase = call.label;
  const std::string where = note_failed_on(call, r);
  withhold(r, CallFault::judge_failed, hidden ? Withhold::hidden_call : Withhold::none, call.label,
           where);
}

std::string JudgeSession::note_failed_on(const PlannedCall& call, EvalResult& r) const {
  const bool hidden = hidden_workload(call.workload);
  r.failed_on = hidden ? FailedOn::hidden : FailedOn::timed;
  r.failed_kind.reset();
  if (hidden && static_cast<std::size_t>(call.workload) < plan_.kinds.size())
    r.failed_kind = plan_.kinds[static_cast<std::size_t>(call.workload)];
  r.failed_under_load = call.sm_load;
  return hidden_phase(r, family_);
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
  cmd.function_times = time_functions_ && !timing && !p.audit_armed;
  for (const auto& c : burst) cmd.sm_load = cmd.sm_load || c.sm_load;
  heat(p, o);
  for (const auto& c : burst) p.host_ran_hidden = p.host_ran_hidden || hidden_workload(c.workload);
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
  const double wall = ms_since(t0);
  timeline_.add(SpanKind::candidate_call, t0, burst.front().workload, p.brokers);
  const std::vector<double> events = got.reply ? events_of(*got.reply) : std::vector<double>{};
  if (!got.reply || !got.reply->ok) {
    broker_failed(p, got, burst.front(), r);
    return false;
  }
  if (events.size() != burst.size()) {
    r.outcome = Outcome::harness_error;
    r.message = "the broker's reply lacks the burst's event times";
    return false;
  }
  const Json* launches = find_array(got.reply->extra, "launches");
  const Json* host_ms = find_array(got.reply->extra, "host_ms");
  const Json* side = find_array(got.reply->extra, "side_streams");
  const Json* fn_ms = find_array(got.reply->extra, "function_ms");
  const Json* untimed = find_array(got.reply->extra, "untimed_launches");
  if (between) between();
  bool passed = true;
  for (std::size_t i = 0; i < burst.size(); ++i) {
    CallRecord rec;
    rec.index = static_cast<int>(calls_.size());
    rec.plan = burst[i];
    rec.timing = timing;
    // The host's time before its work began is not the call's: the broker measured it (it is
    // trusted) and its events start after it; the wall-clock check sees the rest.
    const double host = host_ms && i < host_ms->size() && (*host_ms)[i].is_number()
                            ? (*host_ms)[i].get<double>()
                            : 0.0;
    rec.wall_ms = std::max(0.0, wall / n - host);
    rec.event_ms = events[i];
    // Work the candidate launched on another stream than the one it was given: the broker ran
    // it on its own stream, inside the call's events, and says so.
    if (side && i < side->size() && (*side)[i].is_array() && !(*side)[i].empty())
      r.add_flag(Flag::side_stream);
    rec.audited = p.audit_armed;
    rec.broker = p.brokers;
    if (launches && i < launches->size() && (*launches)[i].is_array())
      for (const auto& e : (*launches)[i])
        if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_number_integer())
          rec.launches.emplace_back(e[0].get<std::string>(), e[1].get<int>());
    if (fn_ms && i < fn_ms->size()) rec.function_ms = function_times_of((*fn_ms)[i]);
    if (untimed && i < untimed->size() && (*untimed)[i].is_number_integer())
      rec.untimed_launches = (*untimed)[i].get<int>();
    // A load the broker could not start: the call ran on the usual schedule.
    rec.plan.sm_load = cmd.sm_load && got.reply->extra.value("sm_load", false);
    if (cmd.sm_load && !rec.plan.sm_load) r.add_flag(Flag::schedule_not_varied);
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
    passed = passed && rec.check->passed();
    calls_.push_back(std::move(rec));
  }
  return passed;
}

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
  auto round = [&](bool sampled) {
    const std::vector<PlannedCall> burst = draw.next_burst(sampled, kTimingBurst, closing);
    const int count = static_cast<int>(burst.size());
    return candidate_burst(p, burst, sampled, o, r, [&] {
      if (library_ok) library_ok = library_burst(p, count, burst.front().slot, sampled, r);
    });
  };
  if (closing) {
    const KnownSlowEnd end = known_slow_repeats(p, r, before_known, [&] { return round(true); });
    if (end != KnownSlowEnd::timed_as_usual) return;
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
      else if (c.plan.content == Content::transformed)
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
  for (std::size_t i : later)
    calls_[i].checked_sample = calls_[i].plan.content == Content::transformed;
  r.timing->stop_reason =
      fmt::format("speedup: slow, from {} checked calls (95% interval +-{:.2f}%)", cand.size(),
                  100 * speedup_rel_ci95(cand, base));
  return true;
}

// After a plain numeric failure: the library on exactly the same inputs (same base set and
// permutation), checked by the same rule. Needs the verifier still running.
const CallCheck* JudgeSession::library_fails_too(const CallRecord& bad, EvalResult& r) {
  Peers& p = *peers_;
  if (!p.verifier) return nullptr;
  PlannedCall same = bad.plan;
  same.content = Content::transformed;
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
    // A hosted verifier is given back once its session is closed, unless anything in the
    // session failed on the harness's side (a verifier that timed out may still be answering).
    // A session whose broker ran under a tool never had one (hosted()).
    if (hosted(o) && r.outcome != Outcome::harness_error &&
        p.verifier
            ->send(
                Json{{"op", "close"}, {"library_ms", r.timing ? r.timing->baseline.median : 0.0}})
            .ok()) {
      Received closed = p.verifier->receive(milliseconds(seconds(60)));
      if (closed.reply && closed.reply->ok && closed.reply->extra.value("closed", false))
        o.verifier_host->give_back(o.device,
                                   WarmVerifier{std::move(p.verifier), std::move(p.verifier_dir),
                                                p.verifier_started, p.verifier_sessions + 1});
    }
    if (p.verifier) {
      (void)p.verifier->send(Json{{"op", "quit"}});
      p.verifier_end = p.verifier->finish(milliseconds(10000));
    }
    timeline_.add(SpanKind::verifier_stop, t0);
  }
  r.network_isolated = p.host_end.network_isolated && p.broker_end.network_isolated;
  if (p.broker && !r.network_isolated) r.add_flag(Flag::network_not_isolated);
  // What the candidate printed (its host process), and the broker's own output (compute-
  // sanitizer's report under --memcheck, ncu's), kept apart.
  r.worker_stdout_tail = tail(p.host_end.stdout_text);
  r.worker_stderr_tail = tail(p.host_end.stderr_text);
  r.broker_output_tail = tail(p.broker_end.stdout_text + p.broker_end.stderr_text);
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
// session ends, `timeout`. The message names no call, so no hidden workload.
bool JudgeSession::checks_over_budget(const EvalOptions& o, EvalResult& r) const {
  const double budget = kChecksBudgetCalls * o.call_timeout_seconds;
  const double spent = checks_seconds(calls_);
  if (spent <= budget) return false;
  r.outcome = Outcome::timeout;
  r.message = fmt::format(
      "the checked calls took {:.0f} s together, past the session's budget of {:.0f} s ({:g} call "
      "limits): time spent on calls that are not timed is the candidate's too",
      spent, budget, kChecksBudgetCalls);
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
  time_functions_ = true;
  for (const PlannedCall& check : plan_.checks) {
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
    }
    const CallCheck candidate = *bad.check;  // library_fails_too adds to calls_
    const CallCheck* library = c.flags.empty() ? library_fails_too(bad, r) : nullptr;
    if (!library) return;
    // The library misses the rule too: the yardstick decides (session_decision.h). Its figures
    // (counts, errors) could size a hidden workload: on one they are withheld.
    const Yardstick y = compare_with_library(candidate, *library);
    auto detail = [&](const std::string& figures) {
      if (r.failed_on != FailedOn::hidden) return " (" + figures + ")";
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
    r.add_flag(Flag::library_fails_task_rule);  // the judge's task_suite_error
    r.outcome = Outcome::harness_error;
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

}  // namespace ptxbench::eval
