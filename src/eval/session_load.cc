// The SM load's decisions per burst (session_decision.h, "another schedule"): which share a
// loaded burst runs under and how long its load holds, from the candidate's earlier calls.
#include <algorithm>
#include <vector>

#include "eval/session_decision.h"

namespace ptxbench::eval {
namespace {

// How many times its longest unloaded call a share's load holds per call of the burst.
double load_times(LoadShare share) {
  switch (share) {
    case LoadShare::half:
      break;
    case LoadShare::most:
      return kSmLoadTimesUnloaded * kSmLoadMostFactor;
    case LoadShare::all_but_one:
      return kSmLoadAllButOneSlowdown;
  }
  return kSmLoadTimesUnloaded;
}

// The typical unloaded call on `workload`, ms: the median of its calls' work times (wall time or
// events, whichever is longer; the host's time before its work left out). What a share is
// decided by: the longest is the candidate's to set, by one slow call nobody times (a wait after
// a copy or a spin on the first call of each buffer set: red team leak13/wall_pad_dodges_one,
// pad_spin_half_only), where the median needs half of them slow, the timing samples included.
// 0 before any unloaded call.
double typical_unloaded(const std::vector<CallRecord>& calls, int workload) {
  std::vector<double> work;
  for (const auto& c : calls)
    if (!c.baseline && !c.calibration && !c.plan.sm_load && c.plan.workload == workload)
      work.push_back(std::max(c.wall_ms, c.event_ms));
  return work.empty() ? 0 : percentile(std::move(work), 0.5);
}

}  // namespace

double longest_unloaded(const std::vector<CallRecord>& calls, int workload) {
  double longest = 0;
  for (const auto& c : calls)
    if (!c.baseline && !c.calibration && !c.plan.sm_load && c.plan.workload == workload)
      longest = std::max(longest, std::max(c.wall_ms, c.event_ms) + c.host_ms);
  return longest;
}

double sm_load_ms(const std::vector<CallRecord>& calls, int workload, std::size_t burst_calls,
                  LoadShare share) {
  return kSmLoadFloorMs +
         load_times(share) * longest_unloaded(calls, workload) * static_cast<double>(burst_calls);
}

bool fits_all_but_one(const std::vector<CallRecord>& calls, int workload,
                      double call_limit_seconds) {
  // By the work's typical time (as plan_load): the host's time before its work costs nothing,
  // one slow call nobody times costs little.
  const double typical = typical_unloaded(calls, workload);
  return typical > 0 && kSmLoadAllButOneSlowdown * typical <=
                            std::min(kSmLoadAllButOneMaxMs, 500 * call_limit_seconds);
}

std::vector<std::size_t> all_but_one_checks(const std::vector<PlannedCall>& checks,
                                            std::size_t from, const std::vector<CallRecord>& calls,
                                            double call_limit_seconds, std::uint64_t draw) {
  std::vector<std::size_t> out, hidden;
  for (std::size_t i = from; i < checks.size(); ++i) {
    const PlannedCall& c = checks[i];
    if (!c.sm_load || !fits_all_but_one(calls, c.workload, call_limit_seconds)) continue;
    if (c.workload != 0)
      hidden.push_back(i);
    else if (out.empty())
      out.push_back(i);
  }
  if (!hidden.empty()) out.push_back(hidden[draw % hidden.size()]);
  std::sort(out.begin(), out.end());
  return out;
}

void plan_load(CallCommand& cmd, const std::vector<CallRecord>& calls,
               const std::vector<PlannedCall>& burst, double call_limit_seconds) {
  for (const auto& c : burst) {
    cmd.sm_load = cmd.sm_load || c.sm_load;
    if (c.sm_load && c.sm_load_share > cmd.sm_load_share) cmd.sm_load_share = c.sm_load_share;
  }
  if (!cmd.sm_load) return;
  const int w = burst.front().workload;
  // By the work's typical time (typical_unloaded): a host that sleeps before its work (free: no
  // event, no wall time counts it) must not buy a smaller share (a reviewer's reading,
  // 2026-12-07), nor may a few slow calls nobody times (red team leak13). The load's length
  // (sm_load_ms) still follows the longest call: an honest slow call is not blamed.
  if (cmd.sm_load_share == LoadShare::all_but_one &&
      !fits_all_but_one(calls, w, call_limit_seconds))
    cmd.sm_load_share = LoadShare::most;  // too slow (too costly) for all but one SM
  if (cmd.sm_load_share == LoadShare::most &&
      kSmLoadMostSlowdown * typical_unloaded(calls, w) > 500 * call_limit_seconds)
    cmd.sm_load_share = LoadShare::half;  // too slow for the larger share within the limit
  cmd.sm_load_ms = sm_load_ms(calls, w, burst.size(), cmd.sm_load_share);
}

}  // namespace ptxbench::eval
