// AuditTrace: what the audited calls of one judging session collected (judge_session.h), as
// plain data for the audit stage (audit/auditor.h), which joins it to its own disassembly of
// the candidate and decides the instruction families and the tensor-FLOP coverage.
//
// The audited calls are ordinary calls of the session (prepared, poisoned and verified like
// every other; a wrong output there makes the candidate incorrect), made after the timing
// phase: one on the timed workload and one on the audit workload (the largest hidden one by
// FLOPs, or the one asked for; for a candidate too slow to audit there within
// kAuditWorkloadBudgetSeconds, the largest hidden one where it is not). Every launch of every
// kernel function in them is counted:
//   cupti  the broker's CUPTI subscriber (worker/instrument.h) lists the launches; the SASS
//          metrics record one kernel function per broker process (a CUPTI 13.0 limit), so the
//          session's main broker records the first function and each further function gets
//          a broker of its own in the same session (same verifier, same preparation, one
//          unaudited call, then the same two audited calls).
//          Only the functions that carry the work are audited (audit_selection.h: by their
//          share of the GPU time the broker measured around their launches in the checked
//          calls, at most kMaxAuditedFunctions, within kAuditPhaseBudgetSeconds); `skipped`
//          lists the others with why.
//   ncu    the broker runs under Nsight Compute, which profiles every kernel launched inside
//          the audit's NVTX range; `ncu_output` is its raw CSV page. The functions are chosen
//          as on the cupti route (`functions`, `skipped`), and only the chosen ones' counts count.
// A function's `launches` are those of its own broker's audited calls: one its broker never
// launched there has nothing to record (kNotLaunchedInAuditedCalls) and carries no share.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.h"
#include "eval/audit_selection.h"
#include "eval/session_protocol.h"
#include "eval/timed_counts.h"

namespace ptxbench::eval {

struct PcCounts {
  std::uint64_t warp_executed = 0;   // warp-level executions
  std::uint64_t thread_pred_on = 0;  // thread executions with the predicate true
};

// TracedFunction::note of a function its broker's CUPTI never saw launched after the audit was
// armed (none of the audited calls launched it): nothing to record, no credit.
inline constexpr std::string_view kNotLaunchedInAuditedCalls = "not launched in the audited calls";

struct TracedFunction {
  std::string name;  // mangled
  int launches = 0;  // in the audited calls
  bool recorded = false;
  std::map<std::uint32_t, PcCounts> pcs;  // function-relative PC offset -> counts (cupti)
  std::string note;                       // why it was not recorded
  double share = 0;  // of the candidate's measured kernel time (audit_selection.h)
  // Read back from a stored summary (eval_result_json.h), which keeps the number of PCs recorded,
  // not their counts: that number, `pcs` staying empty.
  std::size_t stored_pcs = 0;
  std::size_t pc_count() const { return pcs.empty() ? stored_pcs : pcs.size(); }
};

// A function the candidate launched that the audit did not instrument, and why.
struct SkippedFunction {
  std::string name;  // mangled
  double ms = 0;     // measured GPU time over the checked calls
  double share = 0;  // of the candidate's measured kernel time
  AuditSkip why = AuditSkip::none;
  Json to_json() const;
};

struct AuditTrace {
  Instrument route = Instrument::none;    // cupti | nvtx (Nsight Compute)
  std::vector<std::string> workloads;     // of the audited calls, in order
  double flops = 0;                       // the task's FLOPs over the audited calls
  std::vector<TracedFunction> functions;  // first-launch order (cupti)
  std::string ncu_output;                 // ncu's raw page (nvtx)
  std::string chip;
  std::string error;       // the instrumentation could not run at all
  std::string error_kind;  // permission | unsupported | cupti | ncu | ""
  int brokers = 0;         // broker processes the audit used
  // The selection (audit_selection.h), made alike on both routes: were the functions' GPU times
  // measured, the share the audited functions carry, and the functions not audited (on the ncu
  // route ncu profiles them too, but their counts are not used).
  bool shares_measured = false;
  // A checked call made more launches than the broker times (kMaxTimedLaunchesPerCall): the
  // shares are unknown, and no function earns instruction credit (a flood of launches must not
  // switch the 95% rule off).
  bool shares_unknown = false;
  double audited_share = 1;
  std::vector<SkippedFunction> skipped;
  std::vector<std::string> messages;
  // What the timed calls themselves ran (timed_counts.h); nullopt when they were not counted by
  // design (another route, a chip without known counters).
  std::optional<TimedCounts> timed;
  Json to_json() const;  // a summary (no per-PC counts)
};

// The audit phase's budget ran out before function k's turn (AuditBudget): functions k.. move to
// `skipped` (AuditSkip::budget) and audited_share loses their shares.
void skip_for_budget(AuditTrace& t, std::size_t k);

}  // namespace ptxbench::eval
