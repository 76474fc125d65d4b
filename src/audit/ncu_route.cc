// The Nsight Compute route of Auditor (auditor.h): ncu ran the judging session's runner and
// printed per-opcode counts for every kernel launched in the audited calls (its NVTX range).
#include <algorithm>
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

// "ns::name(args)" -> "name"; c++filt's "(anonymous namespace)::" is ncu's "<unnamed>::".
std::string base_name(std::string s) {
  constexpr std::string_view kAnonymous = "(anonymous namespace)";
  for (auto at = s.find(kAnonymous); at != std::string::npos; at = s.find(kAnonymous, at))
    s.replace(at, kAnonymous.size(), "<unnamed>");
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
  // ncu's launches by the listing's (mangled) name of their function, in first-launch order.
  std::map<std::string, std::vector<const NcuLaunch*>> by_function;
  std::vector<std::string> order;
  for (const auto& l : launches) {
    const compile::SassFunction* f = match_function(c.listing, l.kernel);
    const std::string name = f ? f->name : l.kernel;
    if (by_function[name].empty()) order.push_back(name);
    by_function[name].push_back(&l);
  }
  c.result.route = Route::ncu;
  c.result.runtime_run = true;
  // ncu profiles every launch in the audited calls, but only the functions the session chose
  // (eval/audit_selection.h, from its own measured times, as on the CUPTI route) decide: a
  // token function of no share earns nothing on any route (red team of 2026-12-06,
  // leak3/ncu_route_no_share_rule.cu).
  for (const auto& fn : t.functions) {
    const compile::SassFunction* f = match_function(c.listing, fn.name);
    KernelAudit k;
    auto it = by_function.find(fn.name);
    if (it != by_function.end()) {
      std::map<std::string, std::uint64_t> warp, thread;
      for (const NcuLaunch* l : it->second) {
        for (const auto& [op, n] : l->warp_by_opcode) warp[op] += n;
        for (const auto& [op, n] : l->thread_pred_on_by_opcode) thread[op] += n;
        for (const auto& [key, v] : l->counters) c.result.corroborating[key] += v;
      }
      k = join_opcodes(fn.name, f, warp, thread);
      k.launches = static_cast<int>(it->second.size());
    } else {
      k = f ? static_kernel(*f) : KernelAudit{};
      k.function = fn.name;
      k.launches = fn.launches;
      k.note = fn.launches == 0 ? std::string(eval::kNotLaunchedInAuditedCalls)
                                : "launched in the audited calls, but Nsight Compute profiled none "
                                  "of its launches";
      c.result.messages.push_back(fn.name + ": " + k.note);
    }
    if (!f && !k.never_launched())
      k.note = "no SASS listing holds this function (static counts unknown)";
    k.time_share = fn.share;
    c.result.kernels.push_back(std::move(k));
  }
  for (const auto& s : t.skipped) c.result.kernels.push_back(skipped_kernel(s, c.listing));
  for (const auto& name : order) {
    const bool listed = std::any_of(c.result.kernels.begin(), c.result.kernels.end(),
                                    [&](const KernelAudit& k) { return k.function == name; });
    if (!listed)
      c.result.messages.push_back(name +
                                  ": profiled by Nsight Compute, but the broker listed no launch "
                                  "of it: its counts are not used");
  }
  if (order.empty()) {
    const std::string tail = std::string(trim(out)).substr(0, 600);
    c.result.messages.push_back("ncu profiled no kernel of the candidate in the audited calls" +
                                (tail.empty() ? std::string() : ": " + tail));
  }
  c.result.audited_time_share = covered_share(t, c.result.kernels);
  return {};
}

}  // namespace ptxbench::audit
