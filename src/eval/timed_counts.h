// TimedCounts: what the timed calls themselves ran, read from the hardware counters the broker
// keeps around every call of the judging session (worker/call_counters.h). The instruction audit
// instruments its own calls after the timing phase, and a host or kernel that can tell them apart
// (they are slower: redteam/audit_sync_probe, audit_shape_oracle) could run the target
// instructions only there. The counters run on every call alike, unpatched, so the timed calls
// carry their own evidence: the tensor-core FLOPs of wgmma and the bytes TMA loaded, each timed
// call against the task's FLOPs and input bytes at the timed workload (audit/verdicts.h says what
// credit needs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "eval/session_decision.h"

namespace ptxbench::eval {

struct TimedCounts {
  bool counted = false;    // every timed call of the first broker had its counters read
  std::string why_not;     // when not counted: the broker's error, or the call that was missed
  int calls = 0;           // timed calls counted
  double task_flops = 0;   // the task's FLOPs of one call at the timed workload
  double input_bytes = 0;  // the bytes of the task's inputs at the timed workload
  // Over the timed calls, the least: wgmma's bf16 FLOPs / task_flops, TMA-loaded bytes /
  // input_bytes (a tile loaded n times counts n times).
  double min_tensor_share = 0;
  double min_tma_input_ratio = 0;
  Json to_json() const;
};

// The broker's reply to "counters" (worker/call_counters.h: counted_calls_json) joined to the
// session's records: the timed samples (and checked samples of a candidate timed on its checked
// calls) the first broker made. nullopt when the broker's chip has no known counters
// ("unsupported": true in the reply): the credit then rests on the audit alone, as before.
std::optional<TimedCounts> summarize_timed_counts(const Json& reply,
                                                  const std::vector<CallRecord>& calls,
                                                  double task_flops, double input_bytes);

}  // namespace ptxbench::eval
