#include "audit/audit_result_json.h"

#include <fmt/format.h>

#include <stdexcept>

#include "core/enum_name.h"
#include "core/json_fields.h"
#include "eval/eval_result_json.h"

namespace ptxbench::audit {
namespace {

struct Unreadable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
T known(std::optional<T> value, std::string_view what, std::string_view name) {
  if (!value) throw Unreadable(fmt::format("{} \"{}\" is unknown", what, name));
  return *value;
}

OpcodeCounts opcode_of(const Json& j) {
  return {json_or(j, "opcode", std::string()), json_or(j, "static", std::int64_t{0}),
          json_or(j, "warp_executed", std::uint64_t{0}),
          json_or(j, "thread_pred_on", std::uint64_t{0})};
}

KernelAudit kernel_of(const Json& j) {
  KernelAudit k;
  k.function = json_or(j, "function", std::string());
  k.demangled = json_or(j, "demangled", std::string());
  k.launches = json_or(j, "launches", 0);
  k.recorded = json_or(j, "recorded", false);
  k.unmatched_records = json_or(j, "unmatched_records", std::int64_t{0});
  k.note = json_or(j, "note", std::string());
  k.time_share = json_or(j, "time_share", 0.0);
  if (auto why = json_optional<std::string>(j, "skipped_because"))
    k.skipped = known(enum_from_name(*why, eval::AuditSkip::budget), "skip", *why);
  for (const Json& o : json_or(j, "opcodes", Json::array())) k.opcodes.push_back(opcode_of(o));
  return k;
}

FamilyResult family_of(const Json& j) {
  FamilyResult f;
  f.name = json_or(j, "name", std::string());
  f.target = json_or(j, "target", false);
  const auto verdict = json_or(j, "verdict", std::string("absent"));
  f.verdict = known(verdict_from_string(verdict), "verdict", verdict);
  f.static_count = json_or(j, "static", std::int64_t{0});
  f.warp_executed = json_or(j, "warp_executed", std::uint64_t{0});
  f.thread_pred_on = json_or(j, "thread_pred_on", std::uint64_t{0});
  return f;
}

Coverage coverage_of(const Json& j) {
  Coverage c;
  c.available = json_or(j, "available", false);
  c.ratio = json_or(j, "ratio", 0.0);
  c.target_tensor_flops = json_or(j, "target_tensor_flops", 0.0);
  c.target_tensor_flops_warp = json_or(j, "target_tensor_flops_warp_level", 0.0);
  c.other_tensor_flops = json_or(j, "other_tensor_flops", 0.0);
  c.task_flops = json_or(j, "task_flops", 0.0);
  c.note = json_or(j, "note", std::string());
  return c;
}

AuditResult result_of(const Json& j) {
  AuditResult r;
  const auto route = json_or(j, "route", std::string("static"));
  r.route = known(route_from_string(route), "route", route);
  r.runtime_run = json_or(j, "runtime_run", false);
  r.task = json_or(j, "task", std::string());
  r.arch = json_or(j, "arch", std::string());
  r.workload = json_or(j, "workload", std::string());
  r.seed = json_or(j, "seed", std::uint64_t{0});
  r.target_families = json_or(j, "target_families", std::vector<std::string>{});
  r.rule = json_or(j, "rule", std::string("any"));
  const Json metric = json_or(j, "instruction_metric", Json::object());
  r.instruction_metric_evaluated = json_or(metric, "evaluated", false);
  r.instruction_metric_passed = json_or(metric, "passed", false);
  r.audited_time_share = json_optional<double>(j, "audited_time_share");
  if (const Json* c = json_member(j, "timed_counts"); c && !c->is_null()) {
    auto counts = eval::timed_counts_from_json(*c);
    if (!counts.ok()) throw Unreadable(counts.error().to_string());
    r.timed_counts = std::move(*counts);
  }
  for (const Json& f : json_or(j, "families", Json::array())) r.families.push_back(family_of(f));
  r.coverage = coverage_of(json_or(j, "coverage", Json::object()));
  r.corroborating = json_or(j, "corroborating", std::map<std::string, double>{});
  for (const Json& k : json_or(j, "kernels", Json::array())) r.kernels.push_back(kernel_of(k));
  r.seconds = json_or(j, "seconds", 0.0);
  r.messages = json_or(j, "messages", std::vector<std::string>{});
  return r;
}

}  // namespace

std::optional<Route> route_from_string(std::string_view name) {
  return enum_from_name(name, Route::static_only);
}

std::optional<Verdict> verdict_from_string(std::string_view name) {
  return enum_from_name(name, Verdict::present_not_audited);
}

Result<AuditResult> audit_result_from_json(const Json& j) {
  if (!j.is_object()) return make_error("an audit is not a JSON object");
  try {
    return result_of(j);
  } catch (const Json::exception& e) {
    return make_error(fmt::format("malformed audit: {}", e.what()));
  } catch (const Unreadable& e) {
    return make_error(fmt::format("malformed audit: {}", e.what()));
  }
}

}  // namespace ptxbench::audit
