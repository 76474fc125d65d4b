// The Nsight Compute route of Auditor (auditor.h): ncu ran the judging session's runner and
// printed per-opcode counts for every kernel launched in the audited calls (its NVTX range).
#include <map>

#include "audit/auditor.h"
#include "audit/auditor_context.h"
#include "audit/join.h"
#include "audit/ncu_csv.h"
#include "core/text.h"

namespace ptxbench::audit {

namespace {

std::string ncu_metrics() {
  std::string m = std::string(kNcuWarpPerOpcode) + "," + std::string(kNcuThreadPerOpcode);
  for (std::string_view c : kNcuCorroborating) m += "," + std::string(c) + ".sum";
  return m;
}

// "ns::name(args)" -> "name"
std::string base_name(const std::string& s) {
  std::string head = s.substr(0, s.find('('));
  auto colon = head.rfind("::");
  return colon == std::string::npos ? head : head.substr(colon + 2);
}

// The listing's function for an ncu kernel name: the mangled name (with
// --print-kernel-base mangled), else the only function with the same base name.
const compile::SassFunction* match_function(const std::vector<compile::SassFunction>& listing,
                                            const std::string& ncu_name) {
  const compile::SassFunction* by_base = nullptr;
  int n = 0;
  for (const auto& f : listing) {
    if (f.name == ncu_name) return &f;
    if (!f.demangled.empty() && base_name(f.demangled) == base_name(ncu_name)) by_base = &f, ++n;
  }
  return n == 1 ? by_base : nullptr;
}

}  // namespace

std::vector<std::string> ncu_session_arguments() {
  return {"--clock-control",
          "none",
          "--print-kernel-base",
          "mangled",
          "--nvtx",
          "--nvtx-include",
          "ptxbench_audit/",
          "--metrics",
          ncu_metrics(),
          "--print-metric-instances",
          "details",
          "--csv",
          "--page",
          "raw"};
}

namespace {

// Whether ncu said, in a line of its own ("==ERROR== ERR_NVGPUCTRPERM ..."), that it may not
// read the counters. Never a search of its whole output: the CSV rows carry kernel names, which
// the candidate chooses (red team of 2026-12-06, words/ncu_perm_word_kernel_name.cu: a kernel
// named gemm_tile_ERR_NVGPUCTRPERM was judged a harness error with an administrator's hint).
// ncu's own line is "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission ...": the
// code right after the prefix, never anywhere in an error line, which can quote a kernel's name
// (second red team of 2026-12-06, words2/ncu_error_line_kernel_name.cu).
bool ncu_lacks_counter_permission(const std::string& out) {
  for (const auto& line : split_lines(out))
    if (starts_with(line, "==ERROR== ERR_NVGPUCTRPERM - ")) return true;
  return false;
}

}  // namespace

Status ncu_kernels(AuditContext& c, const eval::AuditTrace& t) {
  const std::string& out = t.ncu_output;
  if (ncu_lacks_counter_permission(out))
    return make_error("Nsight Compute may not read the GPU performance counters",
                      profiling_permission_hint());
  auto parsed = parse_ncu_raw(out);
  // No CSV header at all: ncu profiled nothing (said below); a header it cannot read is an error.
  if (!parsed.ok() && out.find("\"Kernel Name\"") != std::string::npos) return parsed.error();
  const std::vector<NcuLaunch> launches = parsed.ok() ? *parsed : std::vector<NcuLaunch>{};
  // One KernelAudit per function, launches summed (ncu profiles every launch in the range).
  std::map<std::string, std::vector<const NcuLaunch*>> by_kernel;
  std::vector<std::string> order;
  for (const auto& l : launches) {
    if (by_kernel[l.kernel].empty()) order.push_back(l.kernel);
    by_kernel[l.kernel].push_back(&l);
  }
  c.result.route = Route::ncu;
  c.result.runtime_run = true;
  for (const auto& name : order) {
    std::map<std::string, std::uint64_t> warp, thread;
    for (const NcuLaunch* l : by_kernel[name]) {
      for (const auto& [op, n] : l->warp_by_opcode) warp[op] += n;
      for (const auto& [op, n] : l->thread_pred_on_by_opcode) thread[op] += n;
      for (const auto& [k, v] : l->counters) c.result.corroborating[k] += v;
    }
    const compile::SassFunction* f = match_function(c.listing, name);
    KernelAudit k = join_opcodes(f ? f->name : name, f, warp, thread);
    k.launches = static_cast<int>(by_kernel[name].size());
    if (!f) k.note = "no SASS listing holds this function (static counts unknown)";
    c.result.kernels.push_back(std::move(k));
  }
  if (order.empty()) {
    const std::string tail = std::string(trim(out)).substr(0, 600);
    c.result.messages.push_back("ncu profiled no kernel of the candidate in the audited calls" +
                                (tail.empty() ? std::string() : ": " + tail));
  }
  return {};
}

}  // namespace ptxbench::audit
