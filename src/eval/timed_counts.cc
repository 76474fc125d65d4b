#include "eval/timed_counts.h"

#include <algorithm>
#include <map>

namespace ptxbench::eval {
namespace {

struct Row {
  double tensor_flops = 0, tma_load_bytes = 0;
};

// call number -> counters; malformed rows are skipped (their call then counts as missed).
std::map<std::uint64_t, Row> rows_of(const Json& reply) {
  std::map<std::uint64_t, Row> out;
  const auto it = reply.find("counted");
  if (it == reply.end() || !it->is_array()) return out;
  for (const Json& r : *it) {
    if (!r.is_array() || r.size() != 5 || !r[0].is_number_integer() || r[0].get<std::int64_t>() < 0)
      continue;
    bool numbers = true;
    for (std::size_t k = 1; k < 5; ++k) numbers = numbers && r[k].is_number();
    if (!numbers) continue;
    out[r[0].get<std::uint64_t>()] = Row{r[1].get<double>(), r[4].get<double>()};
  }
  return out;
}

bool is_timed_sample(const CallRecord& c) {
  return !c.baseline && !c.calibration && !c.audited && c.broker == 1 &&
         (c.timing || c.checked_sample);
}

}  // namespace

Json TimedCounts::to_json() const {
  return Json{{"counted", counted},
              {"why_not", why_not},
              {"calls", calls},
              {"task_flops", task_flops},
              {"input_bytes", input_bytes},
              {"min_tensor_share", min_tensor_share},
              {"min_tma_input_ratio", min_tma_input_ratio}};
}

std::optional<TimedCounts> summarize_timed_counts(const Json& reply,
                                                  const std::vector<CallRecord>& calls,
                                                  double task_flops, double input_bytes) {
  if (!reply.is_object()) return TimedCounts{false, "the broker did not answer \"counters\""};
  if (reply.value("unsupported", false)) return std::nullopt;
  TimedCounts t;
  t.task_flops = task_flops;
  t.input_bytes = input_bytes;
  const std::string error = reply.value("error", std::string{});
  const auto rows = rows_of(reply);
  bool first = true;
  for (const CallRecord& c : calls) {
    if (!is_timed_sample(c)) continue;
    const auto row = c.broker_call ? rows.find(c.broker_call) : rows.end();
    if (row == rows.end()) {
      t.why_not =
          !error.empty() ? error : "timed call " + std::to_string(c.index) + " was not counted";
      return t;
    }
    const double share = task_flops > 0 ? row->second.tensor_flops / task_flops : 0;
    const double ratio = input_bytes > 0 ? row->second.tma_load_bytes / input_bytes : 0;
    t.min_tensor_share = first ? share : std::min(t.min_tensor_share, share);
    t.min_tma_input_ratio = first ? ratio : std::min(t.min_tma_input_ratio, ratio);
    first = false;
    ++t.calls;
  }
  if (t.calls == 0) {
    t.why_not = "no timed call to count";
    return t;
  }
  t.counted = true;
  return t;
}

}  // namespace ptxbench::eval
