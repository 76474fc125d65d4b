#include "interop/fib_trace.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"
#include "store/stored_turn.h"

namespace ptxbench::interop {
namespace {

// The largest errors and the worst ratios over the trials of one side (hidden or not). A NaN
// figure (a tensor with a non-finite output) loses to every number.
struct Errors {
  double max_abs = 0, max_rel = 0, rel_l2 = 0, mismatch = 0;
  int trials = 0, hidden = 0;
};

Errors errors_of(const eval::EvalResult* eval) {
  Errors e;
  if (!eval) return e;
  for (const eval::TrialReport& t : eval->trials) {
    ++e.trials;
    if (t.hidden) ++e.hidden;
    for (const gpu::CompareStats& o : t.outputs) {
      e.max_abs = std::max(e.max_abs, o.max_abs_err);
      e.max_rel = std::max(e.max_rel, o.max_rel_err);
      e.rel_l2 = std::max(e.rel_l2, o.rel_l2);
      e.mismatch = std::max(e.mismatch, o.mismatch_ratio);
    }
  }
  return e;
}

// The audit's verdicts, short: route, rule, whether the metric passed, each family's verdict.
Json audit_summary(const audit::AuditResult* audit) {
  if (!audit) return nullptr;
  Json fams = Json::object();
  for (const audit::FamilyResult& f : audit->families)
    fams[f.name] = std::string(audit::to_string(f.verdict));
  return Json{{"route", std::string(audit::to_string(audit->route))},
              {"rule", audit->rule},
              {"families", fams},
              {"instruction_metric",
               {{"evaluated", audit->instruction_metric_evaluated},
                {"passed", audit->instruction_metric_passed}}},
              {"tensor_flop_coverage", audit->coverage.ratio}};
}

std::string log_line(const JudgedCandidate& c) {
  std::vector<std::string> flags;
  if (c.flags.is_array())
    for (const Json& f : c.flags)
      if (f.is_string()) flags.push_back(f.get<std::string>());
  const judge::JudgeReport& r = c.report;
  std::string s = "ptxbench: " + std::string(judge::to_string(r.disposition));
  if (!flags.empty()) s += "; flags: " + join(flags, ", ");
  if (!r.message.empty()) s += "\n" + r.message;
  if (const auto* built = r.compile.done(); built && !built->log.empty())
    s += "\ncompile log:\n" + built->log;
  return s;
}

}  // namespace

std::string_view to_string(FibStatus s) {
  switch (s) {
    case FibStatus::passed:
      return "PASSED";
    case FibStatus::incorrect_numerical:
      return "INCORRECT_NUMERICAL";
    case FibStatus::runtime_error:
      return "RUNTIME_ERROR";
    case FibStatus::compile_error:
      return "COMPILE_ERROR";
    case FibStatus::timeout:
      return "TIMEOUT";
  }
  return "?";
}

std::optional<FibStatus> fib_status(judge::Disposition d) {
  switch (d) {
    case judge::Disposition::passed:
    case judge::Disposition::passed_missing_instructions:
      return FibStatus::passed;
    case judge::Disposition::incorrect:
      return FibStatus::incorrect_numerical;
    case judge::Disposition::runtime_error:
      return FibStatus::runtime_error;
    case judge::Disposition::timeout:
      return FibStatus::timeout;
    case judge::Disposition::compile_error:
    case judge::Disposition::policy_violation:
    case judge::Disposition::no_code:
      return FibStatus::compile_error;
    case judge::Disposition::not_evaluated:
    case judge::Disposition::harness_error:
    case judge::Disposition::task_suite_error:
      return std::nullopt;
  }
  return std::nullopt;
}

Json fib_environment(const Json& provenance) {
  Json libs = Json::object();
  std::string hardware = "unknown";
  if (provenance.is_object())
    for (const auto& [k, v] : provenance.items()) {
      std::string text;
      if (v.is_string()) text = v.get<std::string>();
      if (v.is_number_integer()) text = to_text(v);
      if (text.empty()) continue;  // objects (clocks), lists: not a library's version
      if (k == "gpu")
        hardware = text;
      else
        libs[k] = text;
    }
  return Json{{"hardware", hardware}, {"libs", libs}};
}

JudgedCandidate judged_candidate(const judge::JudgeReport& r) {
  return {r, r.flags_json()};
}

Result<JudgedCandidate> judged_candidate(const store::TurnRow& turn) {
  PTXB_TRY(judge::JudgeReport r, store::stored_report(turn));
  if (const auto* e = r.eval.done()) r.message = e->message;
  return JudgedCandidate{std::move(r), turn.flags};
}

Json fib_trace(const JudgedCandidate& c, const TraceLabels& l) {
  const judge::JudgeReport& r = c.report;
  const std::optional<FibStatus> status = fib_status(r.disposition);
  if (!status) return nullptr;
  const eval::EvalResult* evaluated = r.eval.done();
  const Errors e = errors_of(evaluated);
  Json inputs = Json::object();
  Json axes = Json::object();
  for (const auto& name : l.inputs) inputs[name] = {{"type", "random"}};
  for (const auto& [a, v] : l.timed_axes) axes[a] = v;
  Json evaluation{{"status", std::string(to_string(*status))},
                  {"environment", fib_environment(evaluated ? evaluated->provenance : Json())},
                  {"timestamp", l.timestamp},
                  {"log", log_line(c)}};
  if (*status == FibStatus::passed || *status == FibStatus::incorrect_numerical) {
    Json extra{{"disposition", std::string(judge::to_string(r.disposition))},
               {"flags", c.flags.is_array() ? c.flags : Json::array()},
               {"trials", e.trials},
               {"hidden_trials", e.hidden},
               {"max_rel_l2", e.rel_l2},
               {"max_mismatch_ratio", e.mismatch},
               {"audit", audit_summary(r.audit.done())}};
    evaluation["correctness"] = {{"max_relative_error", e.max_rel},
                                 {"max_absolute_error", e.max_abs},
                                 {"extra", {{"ptxbench", extra}}}};
  }
  if (*status == FibStatus::passed) {
    // A session without timing (eval --no-timing) has 0s, as the format's defaults.
    const eval::TimingReport* t = evaluated && evaluated->timing ? &*evaluated->timing : nullptr;
    evaluation["performance"] = {{"latency_ms", t ? t->candidate.median : 0.0},
                                 {"reference_latency_ms", t ? t->baseline.median : 0.0},
                                 {"speedup_factor", t ? t->speedup.value_or(0.0) : 0.0}};
  }
  return Json{{"definition", l.definition},
              {"workload",
               {{"axes", axes},
                {"inputs", inputs},
                {"uuid", l.timed_uuid.empty() ? std::string("ptxbench-timed") : l.timed_uuid}}},
              {"solution", l.solution},
              {"evaluation", evaluation}};
}

}  // namespace ptxbench::interop
