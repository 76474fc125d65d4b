#include "audit/audit_result.h"

#include <cstdio>

#include "audit/verdicts.h"
#include "core/text.h"
#include "task/families.h"

namespace ptxbench::audit {

std::string_view to_string(Route r) {
  switch (r) {
    case Route::cupti:
      return "cupti";
    case Route::ncu:
      return "ncu";
    case Route::static_only:
      return "static";
  }
  return "static";
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::executed:
      return "executed";
    case Verdict::present_not_executed:
      return "present_not_executed";
    case Verdict::absent:
      return "absent";
    case Verdict::present_not_audited:
      return "present_not_audited";
  }
  return "absent";
}

const FamilyResult* AuditResult::family(std::string_view name) const {
  for (const auto& f : families)
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

bool tensor_math_family(const std::string& name) {
  const task::InstructionFamily* f = task::find_family(name);
  return f && f->tensor_math;
}

Json kernel_json(const KernelAudit& k) {
  Json ops = Json::array();
  for (const auto& o : k.opcodes)
    ops.push_back({{"opcode", o.opcode},
                   {"static", o.static_count},
                   {"warp_executed", o.warp_executed},
                   {"thread_pred_on", o.thread_pred_on}});
  return {{"function", k.function},
          {"demangled", k.demangled},
          {"launches", k.launches},
          {"recorded", k.recorded},
          {"unmatched_records", k.unmatched_records},
          {"note", k.note},
          {"time_share", k.time_share},
          {"audited", k.skipped == eval::AuditSkip::none},
          {"skipped_because", k.skipped == eval::AuditSkip::none
                                  ? Json(nullptr)
                                  : Json(std::string(eval::to_string(k.skipped)))},
          {"opcodes", ops}};
}

// Whole percents, as docs/judging.md promises the model: a finer share is a channel for what
// the candidate learned on hidden calls (kernels/controls/withheld/audit_share_decimals.cu).
std::string percent(double r) {
  if (r > 0 && r < 0.005) return "under 1%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * r);
  return buf;
}

}  // namespace

Json AuditResult::to_json() const {
  Json j;
  j["route"] = std::string(to_string(route));
  j["runtime_run"] = runtime_run;
  j["task"] = task;
  j["arch"] = arch;
  j["workload"] = workload;
  j["seed"] = seed;
  j["target_families"] = target_families;
  j["rule"] = rule;
  j["instruction_metric"] = {{"evaluated", instruction_metric_evaluated},
                             {"passed", instruction_metric_passed}};
  j["audited_time_share"] = audited_time_share ? Json(*audited_time_share) : Json(nullptr);
  j["timed_counts"] = timed_counts ? timed_counts->to_json() : Json(nullptr);
  Json fams = Json::array();
  for (const auto& f : families)
    fams.push_back({{"name", f.name},
                    {"target", f.target},
                    {"verdict", std::string(to_string(f.verdict))},
                    {"static", f.static_count},
                    {"warp_executed", f.warp_executed},
                    {"thread_pred_on", f.thread_pred_on}});
  j["families"] = fams;
  j["coverage"] = {{"available", coverage.available},
                   {"ratio", coverage.ratio},
                   {"target_tensor_flops", coverage.target_tensor_flops},
                   {"target_tensor_flops_warp_level", coverage.target_tensor_flops_warp},
                   {"other_tensor_flops", coverage.other_tensor_flops},
                   {"task_flops", coverage.task_flops},
                   {"note", coverage.note}};
  j["corroborating"] = corroborating;
  Json ks = Json::array();
  for (const auto& k : kernels) ks.push_back(kernel_json(k));
  j["kernels"] = ks;
  j["seconds"] = seconds;
  j["messages"] = messages;
  j["feedback"] = feedback();
  return j;
}

std::string AuditResult::feedback() const {
  std::vector<std::string> absent, not_executed, executed;
  for (const auto& f : families) {
    if (!f.target) continue;
    if (f.verdict == Verdict::absent) absent.push_back(f.name);
    if (f.verdict == Verdict::present_not_executed) not_executed.push_back(f.name);
    if (f.verdict == Verdict::executed) executed.push_back(f.name);
  }
  std::string out;
  if (!runtime_run) {
    if (!absent.empty())
      out = "Instruction check (static SASS only, not run on a GPU): the target families " +
            join(absent, ", ") + " are absent from the compiled SASS.";
    return out;
  }
  if (!absent.empty())
    out += "Target instruction families absent from the SASS: " + join(absent, ", ") + ". ";
  if (!not_executed.empty())
    out += "In the SASS but never executed at run time (predicated-on thread count 0): " +
           join(not_executed, ", ") + ". ";
  if (!audited_time_share) {
    if (!target_families.empty() && !instruction_metric_passed)
      out +=
          "The audited kernel functions' share of the candidate's kernel time was not "
          "measured: the target instructions earn no credit for work the audit cannot size. ";
  } else if (*audited_time_share < eval::kAuditTimeTarget) {
    out += "The audited kernel functions carry only " + percent(*audited_time_share) +
           " of the candidate's kernel time (the audit needs " + percent(eval::kAuditTimeTarget) +
           ", in at most " + std::to_string(eval::kMaxAuditedFunctions) +
           " functions): the target instructions earn no credit for work it did not see. ";
  }
  out += timed_counts_feedback(*this);
  if (instruction_metric_evaluated && !instruction_metric_passed && rule != "all")
    for (const auto& name : executed) {
      if (share_measured(*this, name)) continue;
      if (tensor_math_family(name))
        out += name + " ran, but its FLOPs cannot be counted (" +
               (coverage.note.empty() ? std::string("no coverage") : coverage.note) +
               "): a tensor-core family earns credit only for FLOPs the audit counts. ";
      else
        out += name +
               " ran, but this route does not measure how much of the operands it moved "
               "(ptxbench eval --count-timed-calls does): it earns the credit only beside "
               "a tensor-core family doing the math, or with those counters. ";
    }
  if (instruction_metric_evaluated && !instruction_metric_passed)
    out += "The task needs " + std::string(rule == "all" ? "all" : "at least one") + " of " +
           join(target_families, ", ") + " to execute. ";
  if (!executed.empty() && coverage.available && coverage.ratio < kMinTensorCoverage)
    // Its side of the line, no figure: the audited workloads' FLOPs include a hidden one's, so a
    // figure could carry its size (leak3/coverage_denominator_hidden_m.cu).
    out += "Less than " + percent(kMinTensorCoverage) +
           " of the task's FLOPs ran on the target tensor-core instructions (" +
           join(executed, ", ") + "); the rest of the math ran elsewhere, and a tensor-core " +
           "family earns credit only when it does at least that much. ";
  return std::string(trim(out));
}

}  // namespace ptxbench::audit
