// Internal to auditor.cc and ncu_route.cc: the state of one Auditor::audit call.
#pragma once

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

// The Nsight Compute route: per-opcode rows from ncu's raw page in the trace.
Status ncu_kernels(AuditContext& c, const eval::AuditTrace& t);

}  // namespace ptxbench::audit
