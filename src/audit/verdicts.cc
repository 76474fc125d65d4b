#include "audit/verdicts.h"

#include <algorithm>

#include "audit/mma_shape.h"
#include "task/families.h"

namespace ptxbench::audit {
namespace {

bool is_target(const task::ArchTargets* t, const std::string& name) {
  return t && std::find(t->families.begin(), t->families.end(), name) != t->families.end();
}

bool exists_on(const task::InstructionFamily& f, std::string_view arch) {
  return std::find(f.arches.begin(), f.arches.end(), arch) != f.arches.end();
}

bool tensor_math(const std::string& name) {
  for (const auto& fam : task::instruction_families())
    if (fam.name == name) return fam.tensor_math;
  return false;
}

// An executed tensor-math family whose counted FLOPs fall short of kMinTensorCoverage.
bool below_coverage(const AuditResult& r, const std::string& name) {
  if (!r.coverage.available || r.coverage.ratio >= kMinTensorCoverage) return false;
  return tensor_math(name);
}

}  // namespace

bool timed_counts_size(const std::string& family) {
  return family == "wgmma" || family == "tma";
}

bool share_measured(const AuditResult& r, const std::string& name) {
  if (tensor_math(name)) return r.coverage.available;  // its FLOPs counted by the audit
  return r.timed_counts.has_value() && timed_counts_size(name);
}

std::vector<FamilyResult> evaluate_families(const std::vector<compile::SassFunction>& listing,
                                            const std::vector<KernelAudit>& kernels,
                                            std::string_view arch, const task::ArchTargets* targets,
                                            bool runtime_run) {
  std::vector<FamilyResult> out;
  for (const auto& fam : task::instruction_families()) {
    if (!exists_on(fam, arch)) continue;
    FamilyResult r;
    r.name = fam.name;
    r.target = is_target(targets, fam.name);
    for (const auto& fn : listing)
      for (const auto& in : fn.instrs)
        if (task::family_matches(fam, in.opcode)) r.static_count++;
    std::int64_t static_in_kernels = 0;
    bool in_unrecorded_kernel = false;  // present where no runtime counts came back
    for (const auto& k : kernels)
      for (const auto& o : k.opcodes)
        if (task::family_matches(fam, o.opcode)) {
          static_in_kernels += o.static_count;
          // Not a function the audited calls never launched (launches 0, and its own runner's
          // CUPTI saw no launch of it: judge_session_audit.cc): it had nothing to record, and
          // ncu, which lists launched functions only, would say present_not_executed
          // (review-7). An audited call that timed out leaves launches 0 and no such note.
          const bool never_launched = runtime_run && k.never_launched();
          in_unrecorded_kernel =
              in_unrecorded_kernel || (!k.recorded && o.static_count > 0 && !never_launched);
          r.warp_executed += o.warp_executed;
          r.thread_pred_on += o.thread_pred_on;
        }
    if (r.static_count == 0) r.static_count = static_in_kernels;
    const bool present = r.static_count > 0 || r.warp_executed > 0 || r.thread_pred_on > 0;
    if (!present)
      r.verdict = Verdict::absent;
    else if (r.thread_pred_on > 0)
      r.verdict = Verdict::executed;
    else if (!runtime_run || in_unrecorded_kernel)
      r.verdict = Verdict::present_not_audited;
    else
      r.verdict = Verdict::present_not_executed;
    out.push_back(r);
  }
  std::stable_partition(out.begin(), out.end(), [](const FamilyResult& f) { return f.target; });
  return out;
}

Coverage compute_coverage(const std::vector<KernelAudit>& kernels, const task::ArchTargets* targets,
                          double task_flops) {
  Coverage c;
  c.task_flops = task_flops;
  bool unshaped_target = false;
  for (const auto& k : kernels) {
    for (const auto& o : k.opcodes) {
      for (const auto& fam : task::instruction_families()) {
        if (!fam.tensor_math || !task::family_matches(fam, o.opcode)) continue;
        auto shape = mma_shape(o.opcode);
        const bool target = is_target(targets, fam.name);
        if (!shape) {
          // Only tcgen05 keeps its shape where SASS cannot show it (the instruction descriptor):
          // there the coverage is not available. Another target MMA whose shape is not read
          // counts no FLOPs: an unread spelling must not switch the rule off (leak4/
          // sparse_wgmma_unshaped.cu).
          if (target && o.thread_pred_on > 0 && fam.name == "tcgen05") unshaped_target = true;
          continue;
        }
        // The counts cover every launch of the function in the audited call (both routes;
        // measured for CUPTI on the H200, docs/results/2026-11-30-h200-judge.md): no scaling.
        if (target) {
          c.target_tensor_flops += mma_flops_from_threads(*shape, o.thread_pred_on);
          c.target_tensor_flops_warp += mma_flops_from_warps(*shape, o.warp_executed);
        } else {
          c.other_tensor_flops += mma_flops_from_threads(*shape, o.thread_pred_on);
        }
      }
    }
  }
  if (unshaped_target) {
    c.note =
        "the target MMA opcodes carry no shape in SASS (tcgen05 keeps it in the instruction "
        "descriptor), so their FLOPs cannot be counted";
    return c;
  }
  if (task_flops <= 0) {
    c.note = "the task's FLOP count is unknown";
    return c;
  }
  c.available = true;
  c.ratio = c.target_tensor_flops / task_flops;
  return c;
}

namespace {
// What the hidden checks' counters say of a family (eval/timed_counts.h): wgmma did at least half
// of their math together and of every substantial one alone, with at most half possible
// elsewhere; TMA loaded at least half of their input bytes. Nothing said backs.
bool hidden_checks_back(const eval::TimedCounts& t, const std::string& family) {
  if (family == "tma") return t.hidden_tma_input_ratio.value_or(1) >= kMinTmaInputRatio;
  return t.hidden_tensor_share.value_or(1) >= kMinTensorCoverage &&
         t.min_substantial_hidden_share.value_or(1) >= kMinTensorCoverage &&
         t.hidden_other_math_share.value_or(0) <= kMaxOtherMathShare;
}
}  // namespace

bool timed_calls_back(const AuditResult& r, const std::string& family) {
  if (!r.timed_counts || !timed_counts_size(family)) return true;
  const eval::TimedCounts& t = *r.timed_counts;
  if (!t.counted || !hidden_checks_back(t, family)) return false;
  return family == "wgmma" ? t.min_tensor_share >= kMinTensorCoverage &&
                                 t.max_other_math_share <= kMaxOtherMathShare
                           : t.min_tma_input_ratio >= kMinTmaInputRatio &&
                                 t.min_tma_load_share.value_or(1) >= kMinTmaLoadShare;
}

std::string timed_counts_feedback(const AuditResult& r) {
  if (!r.timed_counts || !r.runtime_run) return {};
  std::string out;
  for (const auto& name : r.target_families) {
    const FamilyResult* f = r.family(name);
    if (!f || f->verdict != Verdict::executed || timed_calls_back(r, name)) continue;
    if (!r.timed_counts->counted)
      out +=
          "The timed calls' hardware counters could not be read, so " + name + " earns no credit. ";
    else if (!hidden_checks_back(*r.timed_counts, name))
      out += name == "wgmma"
                 ? "On the other shapes the task is checked at, wgmma did less than half of the "
                   "task's math: the tensor-core instructions must do the task at every shape. "
                 : "On the other shapes the task is checked at, TMA loaded less than half of the "
                   "task's input bytes: the operands must move by TMA at every shape. ";
    else if (name == "wgmma" && r.timed_counts->min_tensor_share < kMinTensorCoverage)
      out +=
          "In the timed calls, less than half of the task's FLOPs ran on wgmma: the "
          "tensor-core instructions must do the timed work to earn credit. ";
    else if (name == "wgmma")
      out +=
          "In the timed calls, other units ran enough instructions to do half of the task's "
          "math or more: wgmma earns credit only when it does the math, not beside it. ";
    else if (r.timed_counts->min_tma_input_ratio < kMinTmaInputRatio)
      out +=
          "In the timed calls, TMA loaded less than half of the task's input bytes: the "
          "operands must move by TMA in the timed work for it to earn credit. ";
    else
      out +=
          "In the timed calls, TMA brought less than half of what the SMs read from memory: the "
          "operands' traffic must move by TMA, not beside other loads, for it to earn credit. ";
  }
  return out;
}

void apply_instruction_metric(AuditResult& r) {
  r.instruction_metric_evaluated = r.runtime_run && !r.target_families.empty();
  if (!r.instruction_metric_evaluated) {
    r.instruction_metric_passed = false;
    return;
  }
  // The audited functions must carry the work (eval/audit_selection.h), on every route: whatever
  // they ran, the target instructions earn no credit for kernel time nobody audited, nor without
  // a measured share (red team of 2026-12-06, leak3/ncu_route_no_share_rule.cu).
  if (!r.audited_time_share || *r.audited_time_share + 1e-9 < eval::kAuditTimeTarget) {
    r.instruction_metric_passed = false;
    return;
  }
  int executed = 0, measured = 0;
  for (const auto& name : r.target_families) {
    const FamilyResult* f = r.family(name);
    if (!f || f->verdict != Verdict::executed || below_coverage(r, name) ||
        !timed_calls_back(r, name))
      continue;
    const bool sized = share_measured(r, name);
    // A tensor-core family whose FLOPs nobody counted earns nothing under either rule: one
    // tcgen05.mma beside a CUDA-core GEMM would carry "any" on sm_100a, where SASS keeps the MMA
    // shape in a run-time descriptor (red team leak9/tcgen05_sliver_credit.cu).
    if (tensor_math(name) && !sized) continue;
    ++executed;
    if (sized) ++measured;
  }
  // The audited functions carry the work (a measured share at the target): what the others hold,
  // counted or not, does not decide it. Under "any" the family that earns it must have had its
  // share measured: TMA's count says it ran, not that it moved the operands (a sliver of TMA
  // beside ordinary loads or atomics got the credit on the default route on an H100,
  // leak7/tma_atomic_reads_credit.cu), and only the timed calls' counters size its traffic.
  r.instruction_metric_passed =
      r.rule == "all" ? executed == static_cast<int>(r.target_families.size()) : measured > 0;
}

}  // namespace ptxbench::audit
