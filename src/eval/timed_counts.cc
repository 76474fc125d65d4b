#include "eval/timed_counts.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ptxbench::eval {
namespace {

struct Row {
  double tensor_flops = 0, tma_load_bytes = 0;
  std::optional<double> l2_read_bytes;  // what the SMs read from L2 by any path (32 B sectors)
  double other_macs = 0;                // what every other unit could have done (kMacsPer* bounds)
};

std::optional<double> number(const Json& r, const char* key) {
  const auto it = r.find(key);
  if (it == r.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  return std::isfinite(v) && v >= 0 ? std::optional<double>(v) : std::nullopt;
}

// call number -> counters (worker/call_counters.h counted_calls_json); malformed rows are
// skipped (their call then counts as missed).
std::map<std::uint64_t, Row> rows_of(const Json& reply) {
  std::map<std::uint64_t, Row> out;
  const auto it = reply.find("counted");
  if (it == reply.end() || !it->is_array()) return out;
  for (const Json& r : *it) {
    if (!r.is_object()) continue;
    const auto call = r.find("call");
    if (call == r.end() || !call->is_number_integer() || call->get<std::int64_t>() < 0) continue;
    const auto flops = number(r, "tensor_flops"), bytes = number(r, "tma_load_bytes"),
               threads = number(r, "thread_instructions"), hmma = number(r, "hmma_instructions"),
               dmma = number(r, "dmma_instructions"), imma = number(r, "imma_instructions");
    if (!flops || !bytes || !threads || !hmma || !dmma || !imma) continue;
    const auto sectors = number(r, "l2_read_sectors");
    out[call->get<std::uint64_t>()] =
        Row{*flops, *bytes, sectors ? std::optional<double>(32 * *sectors) : std::nullopt,
            kMacsPerThreadInstruction * *threads + kMacsPerHmma * *hmma + kMacsPerDmma * *dmma +
                kMacsPerImma * *imma};
  }
  return out;
}

bool is_timed_sample(const CallRecord& c) {
  return !c.baseline && !c.calibration && !c.audited && c.broker == 1 &&
         (c.timing || c.checked_sample);
}

bool is_hidden_check(const CallRecord& c, const std::vector<bool>& hidden) {
  const auto w = static_cast<std::size_t>(c.plan.workload);
  return !c.baseline && !c.calibration && !c.audited && !c.timing && c.broker == 1 &&
         c.plan.workload >= 0 && w < hidden.size() && hidden[w];
}

}  // namespace

Json TimedCounts::to_json() const {
  return Json{
      {"counted", counted},
      {"why_not", why_not},
      {"calls", calls},
      {"task_flops", task_flops},
      {"input_bytes", input_bytes},
      {"min_tensor_share", min_tensor_share},
      {"min_tma_input_ratio", min_tma_input_ratio},
      {"max_other_math_share", max_other_math_share},
      {"hidden_tensor_share", hidden_tensor_share ? Json(*hidden_tensor_share) : Json()},
      {"hidden_other_math_share",
       hidden_other_math_share ? Json(*hidden_other_math_share) : Json()},
      {"hidden_tma_input_ratio", hidden_tma_input_ratio ? Json(*hidden_tma_input_ratio) : Json()},
      {"min_tma_load_share", min_tma_load_share ? Json(*min_tma_load_share) : Json()},
      {"min_substantial_hidden_share",
       min_substantial_hidden_share ? Json(*min_substantial_hidden_share) : Json()}};
}

std::optional<TimedCounts> summarize_timed_counts(const Json& reply,
                                                  const std::vector<CallRecord>& calls,
                                                  const std::vector<double>& workload_flops,
                                                  double input_bytes,
                                                  const std::vector<bool>& hidden,
                                                  const std::vector<double>& workload_input_bytes) {
  if (!reply.is_object()) return TimedCounts{false, "the broker did not answer \"counters\""};
  if (reply.value("unsupported", false)) return std::nullopt;
  TimedCounts t;
  t.task_flops = workload_flops.empty() ? 0 : workload_flops.front();
  t.input_bytes = input_bytes;
  const std::string error = reply.value("error", std::string{});
  const auto rows = rows_of(reply);
  auto missed = [&](const CallRecord& c, const char* what) {
    t.why_not = !error.empty()
                    ? error
                    : std::string(what) + " " + std::to_string(c.index) + " was not counted";
  };
  bool first = true;
  double hidden_tensor = 0, hidden_flops = 0, hidden_other = 0, hidden_unloaded_flops = 0;
  double hidden_tma = 0, hidden_bytes = 0;
  for (const CallRecord& c : calls) {
    const auto row = c.broker_call ? rows.find(c.broker_call) : rows.end();
    if (is_hidden_check(c, hidden)) {
      if (row == rows.end()) return missed(c, "hidden check"), t;
      const auto w = static_cast<std::size_t>(c.plan.workload);
      const double flops = w < workload_flops.size() ? workload_flops[w] : 0;
      hidden_tensor += row->second.tensor_flops;
      hidden_flops += flops;
      if (t.task_flops > 0 && flops >= kSubstantialHiddenFlops * t.task_flops)
        t.min_substantial_hidden_share = std::min(t.min_substantial_hidden_share.value_or(1e300),
                                                  row->second.tensor_flops / flops);
      if (!c.plan.sm_load) hidden_other += row->second.other_macs, hidden_unloaded_flops += flops;
      if (w < workload_input_bytes.size() && workload_input_bytes[w] > 0)
        hidden_tma += row->second.tma_load_bytes, hidden_bytes += workload_input_bytes[w];
      continue;
    }
    if (!is_timed_sample(c)) continue;
    if (row == rows.end()) return missed(c, "timed call"), t;
    const double share = t.task_flops > 0 ? row->second.tensor_flops / t.task_flops : 0;
    const double ratio = input_bytes > 0 ? row->second.tma_load_bytes / input_bytes : 0;
    t.min_tensor_share = first ? share : std::min(t.min_tensor_share, share);
    t.min_tma_input_ratio = first ? ratio : std::min(t.min_tma_input_ratio, ratio);
    // No task math: any other math is all of it.
    const double other = t.task_flops > 0 ? row->second.other_macs / (t.task_flops / 2) : 1;
    if (!c.plan.sm_load) t.max_other_math_share = std::max(t.max_other_math_share, other);
    if (const auto& l2 = row->second.l2_read_bytes) {
      const double tma_share = *l2 > 0 ? row->second.tma_load_bytes / *l2 : 0;
      t.min_tma_load_share = std::min(t.min_tma_load_share.value_or(1e300), tma_share);
    }
    first = false;
    ++t.calls;
  }
  if (t.calls == 0) {
    t.why_not = "no timed call to count";
    return t;
  }
  if (hidden_flops > 0) t.hidden_tensor_share = hidden_tensor / hidden_flops;
  if (hidden_unloaded_flops > 0)
    t.hidden_other_math_share = hidden_other / (hidden_unloaded_flops / 2);
  if (hidden_bytes > 0) t.hidden_tma_input_ratio = hidden_tma / hidden_bytes;
  t.counted = true;
  return t;
}

}  // namespace ptxbench::eval
