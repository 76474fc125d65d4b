#include "audit/format.h"

#include <cstdio>

#include "core/text.h"

namespace ptxbench::audit {
namespace {

std::string pad(std::string s, std::size_t n) {
  if (s.size() < n) s += std::string(n - s.size(), ' ');
  return s;
}

std::string fixed(double v, const char* fmt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

std::string format_audit(const AuditResult& r) {
  std::string o = "instruction audit: task " + r.task + ", " + r.arch + ", workload " + r.workload +
                  " (seed " + std::to_string(r.seed) + "), route " +
                  std::string(to_string(r.route)) + ", " + fixed(r.seconds, "%.2f") + " s\n";
  if (!r.runtime_run) o += "runtime audit NOT run: static SASS census only\n";
  o += pad("family", 12) + pad("target", 8) + pad("verdict", 22) + pad("static", 8) +
       pad("warp-executed", 15) + "thread-pred-on\n";
  for (const auto& f : r.families)
    o += pad(f.name, 12) + pad(f.target ? "yes" : "", 8) +
         pad(std::string(to_string(f.verdict)), 22) + pad(std::to_string(f.static_count), 8) +
         pad(std::to_string(f.warp_executed), 15) + std::to_string(f.thread_pred_on) + "\n";
  if (r.runtime_run) {
    if (r.coverage.available)
      o += "tensor-FLOP coverage: " + fixed(100.0 * r.coverage.ratio, "%.3g") + "% (" +
           human_count(r.coverage.target_tensor_flops) + " FLOP on the target MMA path of " +
           human_count(r.coverage.task_flops) + " task FLOP" +
           (r.coverage.other_tensor_flops > 0 ? "; " + human_count(r.coverage.other_tensor_flops) +
                                                    " on other tensor instructions"
                                              : std::string()) +
           ")\n";
    else
      o += "tensor-FLOP coverage: not available (" + r.coverage.note + ")\n";
    if (!r.coverage.note.empty() && r.coverage.available) o += "  note: " + r.coverage.note + "\n";
  }
  o += "instruction metric (" + r.rule + " of " + join(r.target_families, ", ") + "): " +
       (r.instruction_metric_evaluated ? (r.instruction_metric_passed ? "PASS" : "FAIL")
                                       : "not evaluated") +
       "\n";
  for (const auto& [name, v] : r.corroborating)
    o += "  hw counter " + name + " = " + fixed(v, "%.0f") + "\n";
  for (const auto& k : r.kernels) {
    std::uint64_t warps = 0;
    for (const auto& op : k.opcodes) warps += op.warp_executed;
    o += "kernel " + (k.demangled.empty() ? k.function : k.demangled) + ": launches " +
         std::to_string(k.launches) + ", " + (k.recorded ? "recorded" : "not recorded") +
         ", warp instructions " + std::to_string(warps) +
         (k.note.empty() ? "" : " (" + k.note + ")") + "\n";
  }
  for (const auto& m : r.messages) o += "note: " + m + "\n";
  if (auto fb = r.feedback(); !fb.empty()) o += "feedback: " + fb + "\n";
  return o;
}

}  // namespace ptxbench::audit
