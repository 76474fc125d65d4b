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

// The most multiply-adds one instruction of each other unit can do for the task's math, to bound
// what math a timed call could have done beside wgmma (the largest shape each unit has on sm_90):
//   a thread instruction: 2 (HFMA2 on a pair of bf16 or fp16; FFMA and DFMA do 1). Integer dot
//     products (IDP4A: 4) compute no bf16 product exactly and are not counted above 2.
//   an mma.sync warp instruction (HMMA): 4096 (m16n8k32 sparse; dense m16n8k16 does 2048)
//   an fp64 mma warp instruction (DMMA): 2048 (m16n8k16)
//   an integer mma warp instruction (IMMA): 16384 (m16n8k128 sparse int4)
inline constexpr double kMacsPerThreadInstruction = 2;
inline constexpr double kMacsPerHmma = 4096;
inline constexpr double kMacsPerDmma = 2048;
inline constexpr double kMacsPerImma = 16384;
// A hidden check is judged on its own (TimedCounts::min_substantial_hidden_share) when its FLOPs
// are at least this share of the timed workload's.
inline constexpr double kSubstantialHiddenFlops = 1.0 / 32;

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
  // Over the timed calls but a loaded one (the broker's SM load spins its own threads there),
  // the most: the multiply-adds every other unit could have done (the k*Macs* bounds above, over
  // all of the call's thread instructions and mma.sync, DMMA and IMMA warp instructions) / the
  // task's multiply-adds (task_flops / 2). Below 1/2, at least half of the task's math was done
  // on wgmma whatever else ran (audit/verdicts.h kMaxOtherMathShare).
  double max_other_math_share = 0;
  // The checked calls on the hidden workloads together: wgmma's bf16 FLOPs / their task FLOPs
  // (nullopt: none was made). A kernel that runs wgmma only at the public timed shape and the
  // math elsewhere on every other shape (red team, leak5/wgmma_public_m_only) is low here;
  // summed, so a fallback for a tiny shape (M = 1) weighs as little as its FLOPs.
  std::optional<double> hidden_tensor_share;
  // The same hidden checks together (but a loaded one, whose load spins threads of its own): the
  // multiply-adds every other unit could have done / their task multiply-adds, as
  // max_other_math_share is for each timed call (a discarded wgmma burn beside a CUDA-core GEMM
  // on the hidden shapes only, red team leak6/hidden_checks_burn); and TMA-loaded bytes / their
  // input bytes (TMA at the public shape only, leak6/tma_public_m_only). nullopt: no hidden check
  // (or, for the bytes, none with known input bytes).
  std::optional<double> hidden_other_math_share;
  std::optional<double> hidden_tma_input_ratio;
  // The least wgmma share of one hidden check among those whose FLOPs are at least
  // kSubstantialHiddenFlops of the timed workload's: summed, the largest shapes hide one shape
  // the target never runs (red team leak6/audit_range_ffma: everything on wgmma but the band the
  // audit draws from), while a fallback for a tiny shape (M = 1) stays allowed. nullopt: none.
  std::optional<double> min_substantial_hidden_share;
  // Over the timed calls, the least: TMA-loaded bytes / every byte the SMs read from L2
  // (worker/call_counters.h l2_read_sectors): TMA must move most of what was read, not touch
  // each operand byte once beside loads that carry the traffic (red team leak6/tma_sliver: 1.6%).
  // nullopt when the broker did not count L2 reads (an older broker).
  std::optional<double> min_tma_load_share;
  Json to_json() const;
};

// The broker's reply to "counters" (worker/call_counters.h: counted_calls_json) joined to the
// session's records: the timed samples (and checked samples of a candidate timed on its checked
// calls) the first broker made, and its checked calls on hidden workloads. `workload_flops` and
// `hidden` by workload (plan.h; workload 0 is the timed one), `input_bytes` of the timed one,
// `workload_input_bytes` by workload (empty: the hidden checks' TMA ratio is not computed).
// nullopt when the broker's chip has no known counters ("unsupported": true in the reply): the
// credit then rests on the audit alone, as before.
std::optional<TimedCounts> summarize_timed_counts(
    const Json& reply, const std::vector<CallRecord>& calls,
    const std::vector<double>& workload_flops, double input_bytes, const std::vector<bool>& hidden,
    const std::vector<double>& workload_input_bytes = {});

}  // namespace ptxbench::eval
