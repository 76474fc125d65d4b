// Auditor: did the candidate's target instructions execute? It joins what the audited calls of
// the candidate's judging session collected (eval/audit_trace.h) to ptxbench's own disassembly
// of the shared object, and decides per instruction family and the tensor-FLOP coverage.
//
// Routes (the counts are taken in the judging session; this stage runs no GPU code):
//   cupti  the runner's CUPTI SASS metrics, per PC, for every launch of each kernel function
//          in the audited calls (one runner process per function: a CUPTI 13.0 limit);
//          joined by (function, PC offset) to the listing. No scaling by launch count.
//   ncu    Nsight Compute ran the session's runner and reported per-opcode warp and
//          predicated-on thread counts for every launch in the audited calls, plus unpatched
//          hardware counters (gmma pipe, TMA, ldsm/stsm) as corroboration; only the functions
//          the session chose (eval/audit_selection.h) count.
//   auto   cupti; the judge runs a second session under ncu when CUPTI could not profile or
//          missed a chosen kernel function its broker launched in the audited calls (needs_ncu).
// On every route the target instructions earn credit only when the recorded chosen functions
// carry a measured share of at least eval::kAuditTimeTarget (AuditResult::audited_time_share).
// Without a GPU (or without a trace) the result is the static census only, and says so.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_result.h"
#include "compile/sass_parser.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "eval/audit_trace.h"
#include "task/spec.h"

namespace ptxbench::audit {

enum class RouteChoice { automatic, cupti, ncu };
inline constexpr RouteChoice kRouteChoices[] = {RouteChoice::automatic, RouteChoice::cupti,
                                                RouteChoice::ncu};
std::string_view to_string(RouteChoice r);                                // auto|cupti|ncu
std::optional<RouteChoice> route_choice_from_string(std::string_view s);  // nullopt: no such name
// How the judging session's runner is instrumented for a route (auto starts with CUPTI).
eval::Instrument instrument_for(RouteChoice r);

struct AuditOptions {
  RouteChoice route = RouteChoice::automatic;
  std::string workload;  // "" = the task's largest hidden workload by FLOPs (eval/plan.h)
  // The SASS listing of the shared object that the compile stage already wrote
  // (CompileResult::sass); empty: disassemble the shared object here.
  std::filesystem::path sass_listing;
};

// Nsight Compute's options for a session's runner (before the worker's command line): every
// kernel inside the audit's NVTX range, per-opcode counts and the corroborating counters.
std::vector<std::string> ncu_session_arguments();

class Auditor {
 public:
  Auditor(const Paths& paths, ProcessRunner& runner) : paths_(paths), runner_(runner) {}

  // `trace`: the session's audited calls; nullptr: the static census only, `why_static` saying
  // why. An Error when the audit cannot say anything (unknown arch, no disassembler) or when
  // the instrumentation itself failed (trace->error: CUPTI refused, for instance; the hint
  // says how to allow profiling).
  Result<AuditResult> audit(const std::filesystem::path& shared_object, const task::TaskSpec& task,
                            std::string_view arch, const eval::AuditTrace* trace,
                            const AuditOptions& options, const std::string& why_static = {});

 private:
  Result<std::vector<compile::SassFunction>> listing_of(const std::filesystem::path& binary,
                                                        const std::filesystem::path& listing);
  const Paths& paths_;
  ProcessRunner& runner_;
};

// Why `auto` should try Nsight Compute after this CUPTI result ("" = no need): kernel
// functions launched in the audited calls that CUPTI did not record (one not launched there
// has nothing to record, and gets no credit).
std::string needs_ncu(const AuditResult& r);

// What to tell a user whose CUPTI / ncu profiling was refused for lack of permission.
std::string profiling_permission_hint();

}  // namespace ptxbench::audit
