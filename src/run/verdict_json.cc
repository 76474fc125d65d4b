#include "run/verdict_json.h"

#include <fmt/format.h>

#include "core/json_fields.h"

namespace ptxbench::run {
namespace {

Error not_written(const std::string& what) {
  return Error{"verdict" + what + " (a verdict ptxbench serve did not write)",
               "the service and this ptxbench must be the same version", ErrorCause::damaged_input};
}

}  // namespace

Json to_json(const TurnVerdict& v) {
  return {{"source", v.source ? Json(*v.source) : Json(nullptr)},
          {"report", v.report.to_json()},
          {"compile_timeout_s", v.compile_timeout_s},
          {"call_timeout_s", v.call_timeout_s}};
}

Result<TurnVerdict> turn_verdict_from_json(const Json& j) {
  if (!j.is_object()) return not_written(" is not an object");
  for (const char* key : {"source", "report", "compile_timeout_s", "call_timeout_s"})
    if (!j.contains(key)) return not_written(fmt::format(".{} is missing", key));
  TurnVerdict v;
  const Json& source = j.at("source");
  if (!source.is_null() && !source.is_string()) return not_written(".source has the wrong type");
  if (source.is_string()) v.source = source.get<std::string>();
  for (const char* key : {"compile_timeout_s", "call_timeout_s"})
    if (!j.at(key).is_number()) return not_written(fmt::format(".{} has the wrong type", key));
  v.compile_timeout_s = j.at("compile_timeout_s").get<double>();
  v.call_timeout_s = j.at("call_timeout_s").get<double>();
  auto report = judge::JudgeReport::from_json(j.at("report"));
  if (!report.ok()) return not_written(".report: " + report.error().to_string());
  v.report = std::move(*report);
  return v;
}

}  // namespace ptxbench::run
