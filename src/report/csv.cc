#include "report/csv.h"

#include <fmt/format.h>

#include "core/utf8.h"

namespace ptxbench::report {
namespace {

template <typename T>
std::string csv_opt(const std::optional<T>& v) {
  return v ? fmt::format("{}", *v) : std::string();
}

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ";") + i;
  return s;
}

std::string executed_families(const store::StoredTurn& d) {
  std::vector<std::string> names;
  for (const auto& f : d.families)
    if (f.verdict == audit::Verdict::executed) names.push_back(f.name);
  return joined(names);
}

std::string row(const RunDetail& r, const TrajectoryData& t, const store::StoredTurn& d) {
  const std::vector<std::string> fields = {r.label,
                                           t.key.model,
                                           t.key.task,
                                           t.key.arch,
                                           std::to_string(t.key.sample),
                                           std::string(store::to_string(t.status)),
                                           t.stop_reason,
                                           std::to_string(d.turn),
                                           std::string(judge::to_string(d.category)),
                                           d.correct ? "1" : "0",
                                           d.arch_executed ? (*d.arch_executed ? "1" : "0") : "",
                                           csv_opt(d.speedup),
                                           d.gpu_skipped ? "1" : "0",
                                           joined(d.flags),
                                           executed_families(d),
                                           csv_opt(d.coverage),
                                           csv_opt(d.candidate_ms),
                                           csv_opt(d.library_ms),
                                           d.library,
                                           csv_opt(d.tflops),
                                           csv_opt(d.library_tflops),
                                           csv_opt(d.sm_mhz_before),
                                           csv_opt(d.sm_mhz_after),
                                           csv_opt(d.sm_mhz_max),
                                           d.throttle,
                                           csv_opt(d.compile_s),
                                           csv_opt(d.eval_s),
                                           csv_opt(d.audit_s),
                                           csv_opt(d.prompt_tokens),
                                           csv_opt(d.completion_tokens)};
  std::string s;
  for (std::size_t i = 0; i < fields.size(); ++i) s += (i ? "," : "") + csv_field(fields[i]);
  return s + "\n";
}

}  // namespace

std::string csv_field(const std::string& s) {
  std::string v = to_valid_utf8(s);
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string to_csv(const std::vector<RunDetail>& runs) {
  std::string s = std::string(kCsvColumns) + "\n";
  for (const auto& r : runs)
    for (const auto& t : r.data.trajectories)
      for (const auto& d : t.turns) s += row(r, t, d);
  return s;
}

}  // namespace ptxbench::report
