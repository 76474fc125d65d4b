// From per-kernel opcode rows to the audit's answers: a verdict per instruction
// family, the tensor-FLOP coverage and the task's instruction metric (issue 4, items 2-3).
#pragma once

#include <string_view>
#include <vector>

#include "audit/audit_result.h"
#include "compile/sass_parser.h"
#include "task/spec.h"

namespace ptxbench::audit {

// Every family that exists on `arch` (task targets first). Presence comes from the
// static listing of the whole candidate (functions never launched included) and from
// the kernels' rows; execution from predicated-on thread counts > 0.
std::vector<FamilyResult> evaluate_families(const std::vector<compile::SassFunction>& listing,
                                            const std::vector<KernelAudit>& kernels,
                                            std::string_view arch, const task::ArchTargets* targets,
                                            bool runtime_run);

// FLOPs of executed MMA opcodes of the target tensor-math families over `task_flops`.
// A kernel launched n times per call but recorded once (CUPTI) is counted n times.
Coverage compute_coverage(const std::vector<KernelAudit>& kernels, const task::ArchTargets* targets,
                          double task_flops);

// A tensor-math target family (task/families.h tensor_math: wgmma, tcgen05) earns credit only
// when it did at least this share of the task's FLOPs at the audited workload (Coverage::ratio):
// one token MMA per call on zero tiles, the math done elsewhere, is not the task done on the
// tensor cores (red team, token_wgmma; judging.md). Its verdict stays `executed` (a fact); where
// the coverage cannot be counted (tcgen05 keeps its shape in a descriptor, a task without a FLOP
// formula) it counts as before, and the coverage's note says why.
inline constexpr double kMinTensorCoverage = 0.5;

// Sets instruction_metric_evaluated/passed from families, target_families and rule, on every
// route alike: evaluated whenever a run-time audit ran for target families; passed only when the
// audited functions carry a measured share of at least eval::kAuditTimeTarget
// (AuditResult::audited_time_share: none, not measured, is no credit), the rule holds, and each
// tensor-core family counted did kMinTensorCoverage of the task's FLOPs.
void apply_instruction_metric(AuditResult& r);

}  // namespace ptxbench::audit
