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

// TMA earns credit only when the timed calls' TMA loads brought at least this share of the
// task's input bytes (eval/timed_counts.h; a tile loaded n times counts n times, so an honest TMA
// pipeline is far above it: 45x for cuBLASLt's GEMM): one token TMA copy a call is not the
// operands moved by TMA (judging.md, "One token TMA copy").
inline constexpr double kMinTmaInputRatio = 0.5;
// ... and only when, in every timed call, TMA brought at least this share of everything the SMs
// read from L2 (TimedCounts::min_tma_load_share): the operands' traffic moved by TMA, not one
// pass over them beside loads that carry the rest (red team leak6/tma_sliver).
inline constexpr double kMinTmaLoadShare = 0.5;

// wgmma earns credit only when, in every timed call, every other unit together could have done
// at most this share of the task's multiply-adds (TimedCounts::max_other_math_share: the
// call's thread instructions and mma.sync/DMMA/IMMA warp instructions at their most productive).
// The task's outputs are checked, so its math was done somewhere: with at most half possible
// elsewhere, wgmma did at least half of it, whatever discarded wgmma also ran (red team,
// leak4/dummy_wgmma_half_flops, leak5/dfma_math_wgmma_burn).
inline constexpr double kMaxOtherMathShare = 0.5;

// Whether the timed calls' own counters back a target family (AuditResult::timed_counts): wgmma
// with kMinTensorCoverage of the task's FLOPs in every timed call and in the hidden checks
// together, and at most kMaxOtherMathShare possible elsewhere, tma with kMinTmaInputRatio of
// its input bytes; other families, and a result with nothing counted by design, are not gated.
// Counting that was asked for and failed backs nothing.
bool timed_calls_back(const AuditResult& r, const std::string& family);

// One sentence for the model when the timed calls' counters withheld credit ("" otherwise): its
// side of each line, never a figure.
std::string timed_counts_feedback(const AuditResult& r);

// Whether the timed calls' counters (`--count-timed-calls`, eval/timed_counts.h) size what
// `family` did: wgmma's share of the math, TMA's share of the input bytes; no other family's.
bool timed_counts_size(const std::string& family);

// Whether this route measures how much of the task family `name` did: a tensor-math family's
// FLOPs only where the audit counted them (Coverage::available: not for tcgen05, whose MMA shape
// is in a run-time descriptor, not the SASS), any other family's traffic only through the timed
// calls' counters. Under the rule "any" the credit needs a family with a measured share; a
// tensor-math family without one earns no credit under either rule.
bool share_measured(const AuditResult& r, const std::string& name);

// Sets instruction_metric_evaluated/passed from families, target_families and rule, on every
// route alike: evaluated whenever a run-time audit ran for target families; passed only when the
// audited functions carry a measured share of at least eval::kAuditTimeTarget
// (AuditResult::audited_time_share: none, not measured, is no credit), the rule holds, and each
// tensor-core family counted did kMinTensorCoverage of the task's FLOPs.
void apply_instruction_metric(AuditResult& r);

}  // namespace ptxbench::audit
