#include "interop/fib_trace.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"

namespace ptxbench::interop {
namespace {

double number_at(const Json& j, const char* key) {
  if (!j.is_object()) return 0;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}

// The largest errors and the worst ratios over the trials of one side (hidden or not).
struct Errors {
  double max_abs = 0, max_rel = 0, rel_l2 = 0, mismatch = 0;
  int trials = 0, hidden = 0;
};

Errors errors_of(const Json& eval) {
  Errors e;
  if (!eval.is_object() || !eval.contains("trials") || !eval["trials"].is_array()) return e;
  for (const Json& t : eval["trials"]) {
    if (!t.is_object()) continue;
    ++e.trials;
    if (t.value("hidden", false)) ++e.hidden;
    if (!t.contains("outputs") || !t["outputs"].is_array()) continue;
    for (const Json& o : t["outputs"]) {
      e.max_abs = std::max(e.max_abs, number_at(o, "max_abs_err"));
      e.max_rel = std::max(e.max_rel, number_at(o, "max_rel_err"));
      e.rel_l2 = std::max(e.rel_l2, number_at(o, "rel_l2"));
      e.mismatch = std::max(e.mismatch, number_at(o, "mismatch_ratio"));
    }
  }
  return e;
}

// The audit's verdicts, short: route, rule, whether the metric passed, each family's verdict.
Json audit_summary(const Json& audit) {
  if (!audit.is_object() || !audit.contains("families")) return nullptr;
  Json fams = Json::object();
  if (audit["families"].is_array())
    for (const Json& f : audit["families"])
      if (f.is_object() && f.contains("name") && f["name"].is_string())
        fams[f["name"].get<std::string>()] = f.value("verdict", std::string());
  Json j{{"route", audit.value("route", std::string())},
         {"rule", audit.value("rule", std::string())},
         {"families", fams}};
  if (audit.contains("instruction_metric")) j["instruction_metric"] = audit["instruction_metric"];
  if (audit.contains("coverage") && audit["coverage"].is_object())
    j["tensor_flop_coverage"] = audit["coverage"].value("ratio", Json(nullptr));
  return j;
}

std::string log_line(const JudgedCandidate& c) {
  std::vector<std::string> flags;
  if (c.flags.is_array())
    for (const Json& f : c.flags)
      if (f.is_string()) flags.push_back(f.get<std::string>());
  std::string s = "ptxbench: " + std::string(judge::to_string(c.disposition));
  if (!flags.empty()) s += "; flags: " + join(flags, ", ");
  if (!c.message.empty()) s += "\n" + c.message;
  if (c.compile.is_object() && c.compile.contains("log") && c.compile["log"].is_string() &&
      !c.compile["log"].get<std::string>().empty())
    s += "\ncompile log:\n" + c.compile["log"].get<std::string>();
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

Json fib_environment(const Json& eval) {
  Json libs = Json::object();
  std::string hardware = "unknown";
  if (eval.is_object() && eval.contains("provenance") && eval["provenance"].is_object())
    for (const auto& [k, v] : eval["provenance"].items()) {
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
  return {r.disposition, r.message,      r.compile_json(),
          r.eval_json(), r.audit_json(), r.flags_json()};
}

JudgedCandidate judged_candidate(const store::TurnRow& turn) {
  JudgedCandidate c{turn.category, "", turn.compile, turn.eval, turn.audit, turn.flags};
  if (turn.eval.is_object() && turn.eval.contains("message") && turn.eval["message"].is_string())
    c.message = turn.eval["message"].get<std::string>();
  return c;
}

Json fib_trace(const JudgedCandidate& c, const TraceLabels& l) {
  const std::optional<FibStatus> status = fib_status(c.disposition);
  if (!status) return nullptr;
  const Json timing =
      c.eval.is_object() && c.eval.contains("timing") ? c.eval["timing"] : Json(nullptr);
  const Errors e = errors_of(c.eval);
  Json inputs = Json::object();
  Json axes = Json::object();
  for (const auto& name : l.inputs) inputs[name] = {{"type", "random"}};
  for (const auto& [a, v] : l.timed_axes) axes[a] = v;
  Json evaluation{{"status", std::string(to_string(*status))},
                  {"environment", fib_environment(c.eval)},
                  {"timestamp", l.timestamp},
                  {"log", log_line(c)}};
  if (*status == FibStatus::passed || *status == FibStatus::incorrect_numerical) {
    Json extra{{"disposition", std::string(judge::to_string(c.disposition))},
               {"flags", c.flags.is_array() ? c.flags : Json::array()},
               {"trials", e.trials},
               {"hidden_trials", e.hidden},
               {"max_rel_l2", e.rel_l2},
               {"max_mismatch_ratio", e.mismatch},
               {"audit", audit_summary(c.audit)}};
    evaluation["correctness"] = {{"max_relative_error", e.max_rel},
                                 {"max_absolute_error", e.max_abs},
                                 {"extra", {{"ptxbench", extra}}}};
  }
  if (*status == FibStatus::passed) {
    // A session without timing (eval --no-timing) has 0s, as the format's defaults.
    const bool timed = timing.is_object();
    evaluation["performance"] = {
        {"latency_ms", timed ? number_at(timing.value("candidate", Json()), "median_ms") : 0.0},
        {"reference_latency_ms",
         timed ? number_at(timing.value("baseline", Json()), "median_ms") : 0.0},
        {"speedup_factor", timed ? number_at(timing, "speedup") : 0.0}};
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
