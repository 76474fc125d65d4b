// JudgeReport read back from its stored stage parts and from `ptxbench eval --json` (report.h).
#include <fmt/format.h>

#include "audit/audit_result_json.h"
#include "compile/result_json.h"
#include "core/json_fields.h"
#include "eval/eval_result_json.h"
#include "judge/report.h"

namespace ptxbench::judge {
namespace {

// The part's "error" when it is the stage's failure part ({"outcome": "harness_error", "error"}
// for the compile stage, {"error"} for the audit): a stage result never has that member.
std::optional<std::string> failure_of(const Json& part) {
  if (!part.is_object() || !part.contains("error") || part.contains("cache_key") ||
      part.contains("route"))
    return std::nullopt;
  return json_or(part, "error", std::string());
}

template <class T>
Result<T> part_error(const char* stage, const Error& e) {
  return make_error(fmt::format("the {} part: {}", stage, e.to_string()));
}

}  // namespace

Result<JudgeReport> JudgeReport::from_stages(const Json& compile, const Json& eval,
                                             const Json& audit) {
  JudgeReport r;
  r.has_code = !compile.is_null();
  if (auto error = failure_of(compile)) {
    r.compile = Failed{*error};
  } else if (!compile.is_null()) {
    auto c = compile::compile_result_from_json(compile);
    if (!c.ok()) return part_error<JudgeReport>("compile", c.error());
    r.compile = std::move(*c);
  }
  // A skipped evaluation's reason; whether for want of a GPU only the audit part says.
  std::optional<std::string> skipped;
  if (eval.is_object() && eval.contains("reason")) {  // {"outcome": "not_run", "reason"}
    skipped = json_or(eval, "reason", std::string());
  } else if (auto error = failure_of(eval)) {
    r.eval = Failed{*error};
  } else if (!eval.is_null()) {
    auto e = eval::eval_result_from_json(eval);
    if (!e.ok()) return part_error<JudgeReport>("eval", e.error());
    r.eval = std::move(*e);
    r.gpu_seconds = json_or(eval, "gpu_seconds", 0.0);
  }
  const bool no_gpu = audit.is_object() && audit.contains("census");  // {"route": "static", ..}
  if (skipped) r.eval = Skipped{no_gpu ? SkipCause::no_gpu : SkipCause::turned_off, *skipped};
  if (auto error = failure_of(audit)) {
    r.audit = Failed{*error};
  } else if (no_gpu) {
    r.audit = Skipped{SkipCause::no_gpu, skipped.value_or(std::string())};
  } else if (!audit.is_null()) {
    auto a = audit::audit_result_from_json(audit);
    if (!a.ok()) return part_error<JudgeReport>("audit", a.error());
    r.audit = std::move(*a);
  } else if (const auto* e = r.eval.done();
             (e && e->outcome == Outcome::passed) || r.eval.skipped_for(SkipCause::turned_off)) {
    // The judge audits every passed evaluation unless the audit is off, and skips the
    // evaluation for no other reason than both being off (judge.cc run_stages) when a GPU could
    // run it.
    r.audit = Skipped{SkipCause::turned_off, kAuditTurnedOff};
  }
  return r;
}

Result<JudgeReport> JudgeReport::from_json(const Json& j) {
  if (!j.is_object()) return make_error("a judge report is not a JSON object");
  try {
    PTXB_TRY(JudgeReport r, from_stages(json_or(j, "compile", Json()), json_or(j, "eval", Json()),
                                        json_or(j, "audit", Json())));
    r.task = json_or(j, "task", std::string());
    r.arch = json_or(j, "arch", std::string());
    const auto name = json_or(j, "disposition", std::string());
    auto d = disposition_from_string(name);
    if (!d) return make_error(fmt::format("a judge report's disposition \"{}\" is unknown", name));
    r.disposition = *d;
    r.message = json_or(j, "message", std::string());
    return r;
  } catch (const Json::exception& e) {
    return make_error(fmt::format("malformed judge report: {}", e.what()));
  }
}

}  // namespace ptxbench::judge
