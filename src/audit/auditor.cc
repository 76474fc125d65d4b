#include "audit/auditor.h"

#include <chrono>

#include "audit/auditor_context.h"
#include "audit/join.h"
#include "audit/verdicts.h"
#include "compile/census.h"
#include "core/fs.h"
#include "core/text.h"

namespace ptxbench::audit {

namespace {

const compile::SassFunction* find_function(const std::vector<compile::SassFunction>& fs,
                                           const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name) return &f;
  return nullptr;
}

// One traced function's rows: its counts joined to the listing, or its static rows and why
// it was not recorded.
KernelAudit kernel_from(const eval::TracedFunction& t,
                        const std::vector<compile::SassFunction>& listing) {
  const compile::SassFunction* f = find_function(listing, t.name);
  KernelAudit k;
  if (f && t.recorded) {
    PcTable pcs;
    for (const auto& [pc, c] : t.pcs) pcs[pc] = {c.warp_executed, c.thread_pred_on};
    k = join_pcs(*f, pcs);
  } else {
    k = f ? static_kernel(*f) : KernelAudit{};
    k.function = t.name;
    // Not launched in the audited calls says more than a missing listing (needs_ncu).
    k.note = f || t.note == eval::kNotLaunchedInAuditedCalls
                 ? t.note
                 : "no SASS listing of the shared object holds this function";
  }
  k.launches = t.launches;
  return k;
}

void static_only(AuditContext& c, const std::string& why) {
  c.result.route = Route::static_only;
  c.result.runtime_run = false;
  c.result.kernels.clear();
  for (const auto& f : c.listing) c.result.kernels.push_back(static_kernel(f));
  c.result.messages.push_back("runtime audit not run: " + why);
}

void cupti_kernels(AuditContext& c, const eval::AuditTrace& t) {
  c.result.route = Route::cupti;
  c.result.runtime_run = true;
  for (const auto& fn : t.functions) {
    KernelAudit k = kernel_from(fn, c.listing);
    k.time_share = fn.share;
    if (!k.recorded) c.result.messages.push_back(fn.name + ": " + k.note);
    if (k.unmatched_records > 0)
      c.result.messages.push_back(fn.name + ": " + std::to_string(k.unmatched_records) +
                                  " recorded PCs are not instructions of ptxbench's own listing");
    c.result.kernels.push_back(std::move(k));
  }
  for (const auto& s : t.skipped) c.result.kernels.push_back(skipped_kernel(s, c.listing));
  c.result.audited_time_share = covered_share(t, c.result.kernels);
}

}  // namespace

KernelAudit skipped_kernel(const eval::SkippedFunction& s,
                           const std::vector<compile::SassFunction>& listing) {
  const compile::SassFunction* f = find_function(listing, s.name);
  KernelAudit k = f ? static_kernel(*f) : KernelAudit{};
  k.function = s.name;
  k.time_share = s.share;
  k.skipped = s.why;
  k.note = "not audited: " + std::string(eval::to_string(s.why));
  return k;
}

// Only the functions the audit recorded: one its broker never launched in the audited calls did
// none of their work, whatever share it took in the checked calls (a host can launch other
// functions in a fresh process: leak3/ncu_fallback_token_credit.cu), so its share is lost.
std::optional<double> covered_share(const eval::AuditTrace& t,
                                    const std::vector<KernelAudit>& kernels) {
  if (t.shares_unknown) return 0.0;
  if (!t.shares_measured) return std::nullopt;
  double sum = 0;
  for (const auto& k : kernels)
    if (k.skipped == eval::AuditSkip::none && k.recorded) sum += k.time_share;
  return std::min(1.0, sum);
}

std::string_view to_string(RouteChoice r) {
  switch (r) {  // a route added without its name is a compile error (-Wswitch)
    case RouteChoice::automatic:
      return "auto";
    case RouteChoice::cupti:
      return "cupti";
    case RouteChoice::ncu:
      return "ncu";
  }
  return "auto";
}

std::optional<RouteChoice> route_choice_from_string(std::string_view s) {
  for (RouteChoice r : kRouteChoices)
    if (to_string(r) == s) return r;
  return std::nullopt;
}

eval::Instrument instrument_for(RouteChoice r) {
  return r == RouteChoice::ncu ? eval::Instrument::nvtx : eval::Instrument::cupti;
}

std::string profiling_permission_hint() {
  return "GPU performance counters are restricted to administrators on this machine: run as root, "
         "or load the driver with NVreg_RestrictProfilingToAdminUsers=0 (e.g. `options nvidia "
         "NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d/, then reload the driver or "
         "reboot); in a container, add --cap-add=SYS_ADMIN";
}

namespace {
std::size_t skipped_count(const AuditResult& r) {
  std::size_t n = 0;
  for (const auto& k : r.kernels) n += k.skipped != eval::AuditSkip::none;
  return n;
}
}  // namespace

std::string needs_ncu(const AuditResult& r) {
  if (r.route != Route::cupti || !r.runtime_run) return {};
  // A function not launched in the audited calls has nothing to record: Nsight Compute would
  // see the same calls (an honest kernel's first-calls-only helper cost a second session).
  int missed = 0;
  for (const auto& k : r.kernels)
    missed += !k.recorded && !k.never_launched() && k.skipped == eval::AuditSkip::none;
  if (missed == 0) return {};
  return std::to_string(missed) + " of " + std::to_string(r.kernels.size() - skipped_count(r)) +
         " kernel functions launched in the audited calls were not recorded by CUPTI";
}

Result<std::vector<compile::SassFunction>> Auditor::listing_of(
    const std::filesystem::path& binary, const std::filesystem::path& listing) {
  if (!listing.empty()) {
    PTXB_TRY(std::string text, read_file(listing));
    return compile::parse_sass(text);
  }
  std::string tool;
  PTXB_TRY(std::string text, compile::disassemble(paths_, runner_, binary, binary, &tool));
  return compile::parse_sass(text);
}

Result<AuditResult> Auditor::audit(const std::filesystem::path& shared_object,
                                   const task::TaskSpec& task, std::string_view arch,
                                   const eval::AuditTrace* trace, const AuditOptions& options,
                                   const std::string& why_static) {
  const auto t0 = std::chrono::steady_clock::now();
  const task::ArchTargets* targets = task.targets_for(arch);
  if (!targets)
    return make_error("task " + task.name + " has no targets for " + std::string(arch),
                      "use one of the task's architectures");
  if (trace && !trace->error.empty())
    return make_error("the instruction audit could not run: " + trace->error,
                      trace->error_kind == "permission" ? profiling_permission_hint() : "");
  AuditContext c;
  c.task = &task;
  PTXB_TRY(c.listing, listing_of(shared_object, options.sass_listing));
  c.result.task = task.name;
  c.result.arch = std::string(arch);
  c.result.target_families = targets->families;
  c.result.rule = targets->rule;
  if (!trace) {
    static_only(c, why_static.empty() ? std::string("no judging session ran") : why_static);
  } else if (trace->workloads.empty()) {  // every audited call would have been too slow
    static_only(c, trace->messages.empty() ? std::string("no audited call was made")
                                           : join(trace->messages, "; "));
  } else {
    c.result.workload = join(trace->workloads, " + ");
    for (const auto& m : trace->messages) c.result.messages.push_back(m);
    if (trace->route == eval::Instrument::nvtx) {
      PTXB_TRY_STATUS(ncu_kernels(c, *trace));
    } else {
      cupti_kernels(c, *trace);
    }
    if (c.result.kernels.empty())
      c.result.messages.push_back("the candidate launched no kernel in the audited calls");
  }
  c.result.families =
      evaluate_families(c.listing, c.result.kernels, c.result.arch, targets, c.result.runtime_run);
  if (c.result.runtime_run)
    c.result.coverage = compute_coverage(c.result.kernels, targets, trace->flops);
  if (trace) c.result.timed_counts = trace->timed;
  apply_instruction_metric(c.result);
  c.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::move(c.result);
}

}  // namespace ptxbench::audit
