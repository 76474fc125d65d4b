// Internal to auditor.cc and ncu_route.cc: the state of one Auditor::audit call.
#pragma once

#include <optional>
#include <vector>

#include "audit/audit_result.h"
#include "compile/sass_parser.h"
#include "core/result.h"
#include "eval/audit_trace.h"
#include "task/spec.h"

namespace ptxbench::audit {

struct AuditContext {
  const task::TaskSpec* task = nullptr;
  std::vector<compile::SassFunction> listing;  // the whole shared object
  AuditResult result;
};

// The Nsight Compute route: per-opcode rows from ncu's raw page in the trace, for the functions
// the session chose (AuditTrace::functions); the others' static rows (AuditTrace::skipped).
Status ncu_kernels(AuditContext& c, const eval::AuditTrace& t);

// A function the session chose not to audit (eval/audit_selection.h): its static rows, its share
// and why.
KernelAudit skipped_kernel(const eval::SkippedFunction& s,
                           const std::vector<compile::SassFunction>& listing);

// The share of the candidate's measured kernel time (eval/audit_selection.h) that the recorded
// chosen functions carry, on either route: 0 when a launch flood left the shares unknown; none
// when nothing was measured (then no credit: audit/verdicts.h).
std::optional<double> covered_share(const eval::AuditTrace& t,
                                    const std::vector<KernelAudit>& kernels);

}  // namespace ptxbench::audit
