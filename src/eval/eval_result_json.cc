#include "eval/eval_result_json.h"

#include <fmt/format.h>

#include <stdexcept>

#include "core/enum_name.h"
#include "core/json_fields.h"

namespace ptxbench::eval {
namespace {

// What makes a member unreadable besides a wrong type (Json::exception).
struct Unreadable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A name read back into its enum; an unknown name is an Error naming the member.
template <class E>
E named(const Json& j, const char* key, E last, E fallback) {
  const auto name = json_optional<std::string>(j, key);
  if (!name) return fallback;
  if (auto e = enum_from_name(*name, last)) return *e;
  throw Unreadable(fmt::format("\"{}\" has the unknown value \"{}\"", key, *name));
}

std::vector<gpu::CompareStats> stats_of(const Json& j, const char* key) {
  std::vector<gpu::CompareStats> out;
  for (const Json& s : json_or(j, key, Json::array()))
    out.push_back(gpu::compare_stats_from_json(s));
  return out;
}

TrialReport trial_of(const Json& j) {
  TrialReport t;
  t.index = json_or(j, "index", 0);
  t.label = json_or(j, "label", std::string());
  t.workload = json_or(j, "workload", std::string());
  t.hidden = json_or(j, "hidden", false);
  t.seed = json_or(j, "seed", std::uint64_t{0});
  t.passed = json_or(j, "passed", false);
  t.after_hidden = json_or(j, "after_hidden", false);
  t.outputs = stats_of(j, "outputs");
  return t;
}

TimingReport timing_of(const Json& j) {
  TimingReport t;
  t.workload = json_or(j, "workload", std::string());
  t.candidate = SampleSummary::from_json(json_or(j, "candidate", Json::object()));
  t.baseline = SampleSummary::from_json(json_or(j, "baseline", Json::object()));
  t.stop_reason = json_or(j, "stop_reason", std::string());
  t.baseline_name = json_or(j, "baseline_name", std::string());
  t.baseline_description = json_or(j, "baseline_description", std::string());
  t.baseline_error = json_or(j, "baseline_error", std::string());
  t.flops = json_or(j, "flops", 0.0);
  t.speedup = json_optional<double>(j, "speedup");
  t.speedup_rel_ci95 = json_optional<double>(j, "speedup_rel_ci95");
  t.tflops = json_optional<double>(j, "tflops");
  t.baseline_tflops = json_optional<double>(j, "baseline_tflops");
  t.peak_tflops = json_optional<double>(j, "peak_tflops");
  t.percent_of_peak = json_optional<double>(j, "percent_of_peak");
  t.candidate_wall = SampleSummary::from_json(json_or(j, "candidate_wall", Json::object()));
  t.baseline_wall = SampleSummary::from_json(json_or(j, "baseline_wall", Json::object()));
  if (const auto name = json_or(j, "speedup_basis", std::string()); !name.empty()) {
    t.speedup_basis = speedup_basis_from_string(name);
    if (!t.speedup_basis)
      throw Unreadable(fmt::format("\"speedup_basis\" has the unknown value \"{}\"", name));
  }
  t.calibrated_overhead_ms = json_or(j, "calibrated_overhead_ms", 0.0);
  t.sustained_load_ms = json_or(j, "sustained_load_ms", 0.0);
  t.verified_calls = json_or(j, "verified_calls", 0);
  t.setup_ms = json_or(j, "setup_ms", Json::object());
  t.clocks_before = json_or(j, "clocks_before", Json());
  t.clocks_after = json_or(j, "clocks_after", Json());
  return t;
}

TimedCounts timed_of(const Json& j) {
  TimedCounts t;
  t.counted = json_or(j, "counted", false);
  t.why_not = json_or(j, "why_not", std::string());
  t.calls = json_or(j, "calls", 0);
  t.task_flops = json_or(j, "task_flops", 0.0);
  t.input_bytes = json_or(j, "input_bytes", 0.0);
  t.min_tensor_share = json_or(j, "min_tensor_share", 0.0);
  t.min_tma_input_ratio = json_or(j, "min_tma_input_ratio", 0.0);
  t.max_other_math_share = json_or(j, "max_other_math_share", 0.0);
  t.hidden_tensor_share = json_optional<double>(j, "hidden_tensor_share");
  t.hidden_other_math_share = json_optional<double>(j, "hidden_other_math_share");
  t.hidden_tma_input_ratio = json_optional<double>(j, "hidden_tma_input_ratio");
  t.min_substantial_hidden_share = json_optional<double>(j, "min_substantial_hidden_share");
  t.min_tma_load_share = json_optional<double>(j, "min_tma_load_share");
  return t;
}

AuditTrace trace_of(const Json& j) {
  AuditTrace t;
  t.route = named(j, "route", Instrument::nvtx, Instrument::none);
  t.workloads = json_or(j, "workloads", std::vector<std::string>{});
  for (const Json& f : json_or(j, "functions", Json::array())) {
    TracedFunction fn;
    fn.name = json_or(f, "function", std::string());
    fn.launches = json_or(f, "launches", 0);
    fn.recorded = json_or(f, "recorded", false);
    fn.stored_pcs = json_or(f, "pcs", std::size_t{0});
    fn.share = json_or(f, "share", 0.0);
    fn.note = json_or(f, "note", std::string());
    t.functions.push_back(std::move(fn));
  }
  t.chip = json_or(j, "chip", std::string());
  t.error = json_or(j, "error", std::string());
  t.error_kind = json_or(j, "error_kind", std::string());
  t.brokers = json_or(j, "brokers", 0);
  t.shares_measured = json_or(j, "shares_measured", false);
  t.shares_unknown = json_or(j, "shares_unknown", false);
  t.audited_share = json_or(j, "audited_share", 1.0);
  for (const Json& s : json_or(j, "skipped", Json::array()))
    t.skipped.push_back({json_or(s, "function", std::string()), json_or(s, "ms", 0.0),
                         json_or(s, "share", 0.0),
                         named(s, "why", AuditSkip::budget, AuditSkip::none)});
  t.messages = json_or(j, "messages", std::vector<std::string>{});
  if (const Json* c = json_member(j, "timed_counts"); c && !c->is_null()) t.timed = timed_of(*c);
  return t;
}

EvalResult::PhaseSeconds phases_of(const Json& j) {
  EvalResult::PhaseSeconds p;
  p.start = json_or(j, "start", 0.0);
  p.checks = json_or(j, "checks", 0.0);
  p.timing = json_or(j, "timing", 0.0);
  p.audit = json_or(j, "audit", 0.0);
  p.verifier = json_or(j, "verifier", 0.0);
  p.library_setup = json_or(j, "library_setup", 0.0);
  p.warmup = json_or(j, "warmup", 0.0);
  p.warmup_rounds = json_or(j, "warmup_rounds", 0);
  p.sampled_rounds = json_or(j, "sampled_rounds", 0);
  return p;
}

TimelineSpan span_of(const Json& j) {
  if (!j.is_array() || j.size() != 6)
    throw Unreadable("a timeline span is not [phase, kind, at_ms, ms, workload, broker]");
  TimelineSpan s;
  const Json names{{"phase", j[0]}, {"kind", j[1]}};
  s.phase = named(names, "phase", SessionPhase::end, SessionPhase::start);
  s.kind = named(names, "kind", SpanKind::verifier_stop, SpanKind::prepare);
  s.at_ms = j[2].get<double>();
  s.ms = j[3].get<double>();
  s.workload = j[4].get<int>();
  s.broker = j[5].get<int>();
  return s;
}

// The evaluation's members, by its to_json (eval_result.cc).
EvalResult result_of(const Json& j) {
  EvalResult r;
  const auto outcome = outcome_from_string(json_or(j, "outcome", std::string()));
  if (!outcome) throw Unreadable("no known \"outcome\"");
  r.outcome = *outcome;
  r.task = json_or(j, "task", std::string());
  r.arch = json_or(j, "arch", std::string());
  r.seed = json_or(j, "seed", std::uint64_t{0});
  r.input_seed = json_optional<std::uint64_t>(j, "input_seed");
  r.phase_seconds = phases_of(json_or(j, "phase_seconds", Json::object()));
  r.message = json_or(j, "message", std::string());
  r.phase = json_or(j, "phase", std::string());
  r.failed_on = named(j, "failed_on", FailedOn::hidden, FailedOn::none);
  if (auto kind = json_optional<std::string>(j, "failed_kind")) {
    r.failed_kind = task::hidden_kind_from_string(*kind);
    if (!r.failed_kind) throw Unreadable("\"failed_kind\" has an unknown value");
  }
  r.failed_under_load = json_or(j, "failed_under_load", false);
  r.withheld = json_or(j, "withheld", std::string());
  r.faulting_kernel = json_or(j, "faulting_kernel", std::string());
  // A flag of no name known here (a newer ptxbench's) is not this build's to type: it is left out.
  for (const auto& name : json_or(j, "flags", std::vector<std::string>{}))
    if (auto f = flag_from_string(name)) r.add_flag(*f);
  for (const Json& t : json_or(j, "trials", Json::array())) r.trials.push_back(trial_of(t));
  if (const Json* t = json_member(j, "timing"); t && !t->is_null()) r.timing = timing_of(*t);
  r.baseline_check = stats_of(j, "baseline_check");
  r.baseline_check_error = json_or(j, "baseline_check_error", std::string());
  const Json memcheck = json_or(j, "memcheck", Json::object());
  r.memcheck_ran = json_or(memcheck, "ran", false);
  r.memcheck_ran_hidden = json_or(memcheck, "ran_hidden", false);
  r.memcheck_report = json_or(memcheck, "report", std::string());
  r.sandbox = json_or(j, "sandbox", Json::object());
  if (const Json* a = json_member(j, "audit_trace"); a && !a->is_null())
    r.audit_trace = trace_of(*a);
  r.provenance = json_or(j, "provenance", Json::object());
  r.network_isolated = json_or(j, "network_isolated", false);
  r.worker_stdout_tail = json_or(j, "worker_stdout_tail", std::string());
  r.worker_stderr_tail = json_or(j, "worker_stderr_tail", std::string());
  r.broker_output_tail = json_or(j, "broker_output_tail", std::string());
  r.memcheck_output_tail = json_or(j, "memcheck_output_tail", std::string());
  r.seconds = json_or(j, "seconds", 0.0);
  r.verifier_session = json_or(j, "verifier_session", 0);
  for (const Json& s : json_or(j, "timeline", Json::array())) r.timeline.push_back(span_of(s));
  // The session made a hidden call when its output tails were withheld (to_json keeps no flag).
  r.ran_hidden = r.worker_stdout_tail == kOutputWithheld;
  return r;
}

template <class T, class F>
Result<T> guarded(const Json& j, const char* what, F read) {
  if (!j.is_object()) return make_error(fmt::format("{} is not a JSON object", what));
  try {
    return read(j);
  } catch (const Json::exception& e) {
    return make_error(fmt::format("malformed {}: {}", what, e.what()));
  } catch (const Unreadable& e) {
    return make_error(fmt::format("malformed {}: {}", what, e.what()));
  }
}

}  // namespace

Result<EvalResult> eval_result_from_json(const Json& j) {
  return guarded<EvalResult>(j, "evaluation", result_of);
}

Result<TimingReport> timing_report_from_json(const Json& j) {
  return guarded<TimingReport>(j, "timing report", timing_of);
}

Result<AuditTrace> audit_trace_from_json(const Json& j) {
  return guarded<AuditTrace>(j, "audit trace", trace_of);
}

Result<TimedCounts> timed_counts_from_json(const Json& j) {
  return guarded<TimedCounts>(j, "timed counts", timed_of);
}

}  // namespace ptxbench::eval
