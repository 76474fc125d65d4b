// Auditor: did the candidate's target instructions execute? (issue 4)
//
// Routes (never in the process that times; patched kernels are slow):
//   cupti: ptxbench-audit-worker runs the candidate once to list its kernel launches
//          and capture its cubins, then once per launched kernel function with the CUPTI
//          SASS Metrics API (CUPTI 13.0 records only the first kernel launched after
//          Enable in a process); per-PC counts are joined to the disassembled cubin.
//   ncu:   Nsight Compute runs the worker (--clock-control none) and reports per-opcode
//          warp and predicated-on thread counts for every launch, plus unpatched
//          hardware counters (gmma pipe, TMA, ldsm/stsm) as corroboration.
//   auto:  cupti; ncu when CUPTI cannot profile (permissions, unsupported device).
// With no GPU (or no worker) the result is the static census only, and says so.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "audit/audit_result.h"
#include "compile/sass_parser.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "task/spec.h"

namespace ptxbench::audit {

struct WorkerOutcome;  // worker_client.h

enum class RouteChoice { automatic, cupti, ncu };
std::optional<RouteChoice> route_choice_from_string(std::string_view s);  // auto|cupti|ncu

struct AuditOptions {
  RouteChoice route = RouteChoice::automatic;
  std::string workload;  // "" = the task's first hidden workload (pick_audit_workload)
  std::uint64_t seed = 1;
  std::chrono::seconds worker_timeout{120};
  std::chrono::seconds ncu_timeout{300};
  // The SASS listing of the shared object that the compile stage already wrote
  // (CompileResult::sass); empty: disassemble the shared object here.
  std::filesystem::path sass_listing;
  int device = -1;  // GPU every audit process sees alone (core/gpu_select.h); -1: as is
};

class Auditor {
 public:
  Auditor(const Paths& paths, ProcessRunner& runner) : paths_(paths), runner_(runner) {}

  // An Error only when the audit cannot say anything (unknown workload or arch, no
  // disassembler); a candidate that fails under the worker gives a static-only result
  // with the reason in messages.
  Result<AuditResult> audit(const std::filesystem::path& shared_object, const task::TaskSpec& task,
                            std::string_view arch, const AuditOptions& options);

 private:
  struct Context;
  Status cupti_route(Context& c);
  // The SASS-metrics worker run(s) for launched function `index` (its records, if any).
  Result<WorkerOutcome> record_function(Context& c, std::size_t index, const std::string& fn);
  Status ncu_route(Context& c);
  void static_only(Context& c, const std::string& why);
  // `listing`: an existing disassembly of `binary` to read instead of running the tool.
  Result<std::vector<compile::SassFunction>> listing_of(const std::filesystem::path& binary,
                                                        const std::filesystem::path& listing = {});

  const Paths& paths_;
  ProcessRunner& runner_;
};

// The workload to audit: by name, or the task's first hidden workload, a mid-sized one that
// fills whole tiles by convention (tools/gen_tasks.py lists M = 1000 and B2 H8 S1024 first;
// the edge cases M = 1, 70, ... after them): small enough to be fast under patching, and
// without the padding of a tiny M, which would make the tensor-FLOP coverage meaningless.
Result<const task::Workload*> pick_audit_workload(const task::TaskSpec& t, const std::string& name);

}  // namespace ptxbench::audit
