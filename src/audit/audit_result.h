// The result of auditing one candidate: which instructions executed, per kernel
// function and per instruction family, and how much of the task's math ran on the
// target tensor-core path. Plain data with to_json() (stored, printed, fed back).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "eval/audit_trace.h"

namespace ptxbench::audit {

enum class Route { cupti, ncu, static_only };
std::string_view to_string(Route r);

enum class Verdict {
  executed,              // predicated-on thread count > 0 somewhere
  present_not_executed,  // in the SASS, predicated-on count 0 everywhere
  absent,                // not in the SASS
  present_not_audited,   // in the SASS; no runtime audit ran (no GPU, or it failed)
};
std::string_view to_string(Verdict v);

// One opcode (with modifiers) of one kernel function.
struct OpcodeCounts {
  std::string opcode;                // "HGMMA.64x256x16.F32.BF16"
  std::int64_t static_count = 0;     // instructions in the SASS
  std::uint64_t warp_executed = 0;   // warp-level executions (predicated-off issue counts too)
  std::uint64_t thread_pred_on = 0;  // thread executions with the predicate true (the proof)
};

struct KernelAudit {
  std::string function;  // mangled
  std::string demangled;
  int launches = 0;                    // launches per candidate call (discovery); 0 if unknown
  bool recorded = false;               // runtime counts were collected for it
  std::vector<OpcodeCounts> opcodes;   // sorted by opcode
  std::int64_t unmatched_records = 0;  // runtime PCs with no instruction in the listing
  std::string note;
  // Its share of the candidate's kernel time in the checked calls (eval/audit_selection.h;
  // 0 when unknown), and why it was not audited (AuditSkip::none: it was).
  double time_share = 0;
  eval::AuditSkip skipped = eval::AuditSkip::none;
  // No audited call launched it (its runner's CUPTI saw no launch after arming): it had nothing
  // to record. An audited call that timed out leaves launches 0 but not this note.
  bool never_launched() const {
    return !recorded && launches == 0 && note == eval::kNotLaunchedInAuditedCalls;
  }
};

struct FamilyResult {
  std::string name;
  bool target = false;  // one of the task's target families for the arch
  Verdict verdict = Verdict::absent;
  std::int64_t static_count = 0;
  std::uint64_t warp_executed = 0;
  std::uint64_t thread_pred_on = 0;
};

struct Coverage {
  bool available = false;
  double target_tensor_flops = 0;       // executed on the target MMA path (predicated-on)
  double target_tensor_flops_warp = 0;  // the same from warp-level counts (cross-check)
  double other_tensor_flops = 0;        // executed on non-target MMA (e.g. mma.sync HMMA)
  double task_flops = 0;                // the task's FLOPs at the audited workload
  double ratio = 0;                     // target_tensor_flops / task_flops
  std::string note;
};

struct AuditResult {
  Route route = Route::static_only;
  bool runtime_run = false;  // false: static census only
  std::string task, arch, workload;
  std::uint64_t seed = 0;
  std::vector<KernelAudit> kernels;
  std::vector<FamilyResult> families;  // every family of the arch, targets first
  Coverage coverage;
  // Unpatched hardware counters (ncu), name -> value summed over launches.
  std::map<std::string, double> corroborating;
  std::vector<std::string> target_families;
  std::string rule = "any";
  // The share of the candidate's kernel time (the timed workload's checked calls, measured by the
  // broker) carried by the chosen kernel functions the audit recorded, on either route (one its
  // broker never launched in the audited calls carries nothing): below eval::kAuditTimeTarget the
  // target instructions earn no credit (apply_instruction_metric). None when the times were not
  // measured: no credit either.
  std::optional<double> audited_time_share;
  // What the timed calls themselves ran, from the hardware counters around every call
  // (eval/timed_counts.h); nullopt when not counted by design (the ncu route, a chip without
  // known counters): then the audit alone decides, as before.
  std::optional<eval::TimedCounts> timed_counts;
  bool instruction_metric_evaluated = false;
  bool instruction_metric_passed = false;
  double seconds = 0;
  std::vector<std::string> messages;

  const FamilyResult* family(std::string_view name) const;
  Json to_json() const;
  // One or two sentences for the model: the families missing or present but not
  // executed, and a low tensor-FLOP coverage. Empty when there is nothing to say.
  std::string feedback() const;
};

}  // namespace ptxbench::audit
