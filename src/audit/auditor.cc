#include "audit/auditor.h"

#include <chrono>
#include <map>

#include "audit/auditor_context.h"
#include "audit/join.h"
#include "audit/verdicts.h"
#include "audit/worker_client.h"
#include "compile/census.h"
#include "core/fs.h"
#include "core/text.h"
#include "eval/worker_spec.h"

namespace ptxbench::audit {

namespace {

// Function i > 0 of a multi-kernel candidate: CUPTI 13.0 records only the first kernel
// launched after Enable; enabling inside a later kernel's launch callback, or replaying it
// after the call, recorded nothing on the H200 while SetConfig came before the candidate's
// first launch. The working cases had no launch between SetConfig and Enable, so the worker
// can defer SetConfig to right before Enable (--late-config): first in the target's own
// launch callback (true data), then for a replay of the captured launch after the call
// (gpu/launch_capture.h), then the plain replay. Strategies are tried in order until the
// function's records come back (docs/results/audit-acceptance.md).
const std::vector<std::vector<std::string>> kLaterKernelStrategies = {
    {"--enable-at", "launch", "--late-config"},
    {"--enable-at", "replay", "--late-config"},
    {"--enable-at", "replay"}};

const compile::SassFunction* find_function(const std::vector<compile::SassFunction>& fs,
                                           const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name) return &f;
  return nullptr;
}

// The per-PC counts a worker brought back for `fn` (empty: none).
PcTable records_of(const WorkerOutcome& o, const std::string& fn) {
  if (!o.ok()) return {};
  auto records = records_by_function(o.result);
  if (!records.ok()) return {};
  auto it = records->find(fn);
  return it == records->end() ? PcTable{} : it->second;
}

// One function's rows: joined counts, or its static rows and why it was not recorded.
KernelAudit kernel_from(const std::string& fn, const WorkerOutcome& o,
                        const std::vector<compile::SassFunction>& loaded,
                        const std::vector<compile::SassFunction>& listing) {
  const compile::SassFunction* f = find_function(loaded, fn);
  if (!f) f = find_function(listing, fn);
  const PcTable pcs = records_of(o, fn);
  if (f && !pcs.empty()) return join_pcs(*f, pcs);
  KernelAudit k = f ? static_kernel(*f) : KernelAudit{};
  k.function = fn;
  const std::string replay =
      o.result.is_object() ? o.result.value("replay_error", std::string{}) : "";
  k.note = !o.ok()           ? o.describe()
           : !f              ? "no SASS listing holds this function"
           : !replay.empty() ? "not recorded: " + replay
                             : "CUPTI returned no records for this function";
  return k;
}

int unrecorded_kernels(const AuditResult& r) {
  int n = 0;
  for (const auto& k : r.kernels) n += !k.recorded;
  return n;
}

}  // namespace

std::optional<RouteChoice> route_choice_from_string(std::string_view s) {
  if (s == "auto") return RouteChoice::automatic;
  if (s == "cupti") return RouteChoice::cupti;
  if (s == "ncu") return RouteChoice::ncu;
  return std::nullopt;
}

Result<const task::Workload*> pick_audit_workload(const task::TaskSpec& t,
                                                  const std::string& name) {
  if (!name.empty()) {
    for (const auto& w : t.workloads)
      if (w.name == name) return &w;
    return make_error("task " + t.name + " has no workload named '" + name + "'",
                      "see `ptxbench tasks` for its workloads");
  }
  // The largest hidden workload: small enough to run fast under instrumentation, large enough
  // that tile padding does not distort the coverage (M = 1 or 70 would count 128-row tiles).
  const task::Workload* best = nullptr;
  double best_flops = -1;
  for (const auto& w : t.workloads) {
    if (w.role != "hidden") continue;
    auto f = t.flop_count(w);
    const double flops = f.ok() ? *f : 0;
    if (flops > best_flops) best = &w, best_flops = flops;
  }
  if (!best) return &t.timed();
  return best;
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

void Auditor::static_only(Context& c, const std::string& why) {
  c.result.route = Route::static_only;
  c.result.runtime_run = false;
  c.result.kernels.clear();
  for (const auto& f : c.listing) c.result.kernels.push_back(static_kernel(f));
  c.result.messages.push_back("runtime audit not run: " + why);
}

Result<AuditResult> Auditor::audit(const std::filesystem::path& shared_object,
                                   const task::TaskSpec& task, std::string_view arch,
                                   const AuditOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const task::ArchTargets* targets = task.targets_for(arch);
  if (!targets)
    return make_error("task " + task.name + " has no targets for " + std::string(arch),
                      "use one of the task's architectures");
  Context c;
  c.so = shared_object;
  c.task = &task;
  c.arch = std::string(arch);
  c.options = options;
  PTXB_TRY(c.workload, pick_audit_workload(task, options.workload));
  c.tensors = tensor_args(task, *c.workload);
  PTXB_TRY(c.listing, listing_of(shared_object, options.sass_listing));
  c.worker = audit_worker_path(paths_);
  PTXB_TRY(TempDir tmp, TempDir::create("ptxbench-audit-"));
  c.tmp = tmp.path();
  PTXB_TRY_STATUS(eval::give_private_dir(c.tmp));  // the workers' folders live below it
  c.result.task = task.name;
  c.result.arch = c.arch;
  c.result.workload = c.workload->name;
  c.result.seed = options.seed;
  c.result.target_families = targets->families;
  c.result.rule = targets->rule;

  if (!std::filesystem::exists(c.worker)) {
    static_only(c, "the audit worker " + c.worker.string() +
                       " is not built (build the ptxbench-audit-worker target, or set "
                       "PTXBENCH_AUDIT_WORKER)");
  } else if (options.route == RouteChoice::ncu) {
    PTXB_TRY_STATUS(ncu_route(c));
  } else {
    Status s = cupti_route(c);
    if (!s.ok()) {
      if (options.route == RouteChoice::cupti) return s.error();
      c.result.messages.push_back("CUPTI could not profile (" + s.error().to_string() +
                                  "); falling back to Nsight Compute");
      PTXB_TRY_STATUS(ncu_route(c));
    } else if (options.route == RouteChoice::automatic && c.result.runtime_run &&
               unrecorded_kernels(c.result) > 0) {
      // ncu profiles every launch: use it when CUPTI missed a kernel function.
      const std::string why = std::to_string(unrecorded_kernels(c.result)) + " of " +
                              std::to_string(c.result.kernels.size()) +
                              " kernel functions were not recorded by CUPTI";
      AuditResult cupti_result = c.result;
      c.result.kernels.clear();
      c.result.messages.push_back(why + "; auditing with Nsight Compute instead");
      PTXB_TRY_STATUS(ncu_route(c));
      if (!c.result.runtime_run) {  // ncu could not run either: keep what CUPTI saw
        auto messages = c.result.messages;
        c.result = cupti_result;
        c.result.messages = messages;
      }
    }
  }
  c.result.families =
      evaluate_families(c.listing, c.result.kernels, c.arch, targets, c.result.runtime_run);
  auto flops = task.flop_count(*c.workload);
  if (c.result.runtime_run)
    c.result.coverage = compute_coverage(c.result.kernels, targets, flops.ok() ? *flops : 0);
  apply_instruction_metric(c.result);
  c.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::move(c.result);
}

Result<WorkerOutcome> Auditor::record_function(Context& c, std::size_t index,
                                               const std::string& fn) {
  const std::vector<std::vector<std::string>> strategies =
      index == 0 ? std::vector<std::vector<std::string>>{{}} : kLaterKernelStrategies;
  WorkerOutcome o;
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    WorkerCall sass{"sass",
                    c.so,
                    c.tmp / ("sass_" + std::to_string(index) + "_" + std::to_string(s)),
                    c.tensors,
                    c.options.seed,
                    fn,
                    strategies[s],
                    c.options.device};
    PTXB_TRY(o, run_worker(runner_, c.worker, sass, c.options.worker_timeout));
    const bool permission = o.cupti_error_kind() == "permission";
    if (!o.cupti_error().empty() && (index == 0 || permission))
      return make_error(o.cupti_error(), permission ? profiling_permission_hint() : "");
    if (!o.cupti_error().empty()) {  // a later function's strategy CUPTI refused: try the next
      c.result.messages.push_back(fn + ": worker flags '" + join(strategies[s], " ") +
                                  "' failed: " + o.cupti_error());
      continue;
    }
    if (!records_of(o, fn).empty()) {
      if (index > 0)
        c.result.messages.push_back(fn + ": recorded with worker flags '" +
                                    join(strategies[s], " ") + "'");
      break;
    }
  }
  return o;
}

Status Auditor::cupti_route(Context& c) {
  WorkerCall discover{"discover", c.so, c.tmp / "discover", c.tensors, c.options.seed,
                      {},         {},   c.options.device};
  PTXB_TRY(WorkerOutcome d, run_worker(runner_, c.worker, discover, c.options.worker_timeout));
  if (d.no_gpu()) {
    static_only(c, "no usable GPU (" + d.describe() + ")");
    return {};
  }
  if (!d.cupti_error().empty())
    return make_error(d.cupti_error(),
                      d.cupti_error_kind() == "permission" ? profiling_permission_hint() : "");
  if (!d.ok()) {
    static_only(c, "the candidate did not run under the audit worker: " + d.describe());
    return {};
  }
  // The loaded cubins, disassembled: the functions as the GPU ran them.
  std::vector<compile::SassFunction> loaded;
  for (const auto& cubin : d.cubins(discover.out_dir)) {
    auto l = listing_of(cubin);
    if (l.ok()) loaded.insert(loaded.end(), l->begin(), l->end());
  }
  c.result.route = Route::cupti;
  c.result.runtime_run = true;
  const auto functions = d.launched_functions();
  if (functions.empty()) c.result.messages.push_back("the candidate launched no kernel");
  for (std::size_t i = 0; i < functions.size(); ++i) {
    PTXB_TRY(WorkerOutcome o, record_function(c, i, functions[i]));
    KernelAudit k = kernel_from(functions[i], o, loaded, c.listing);
    if (!k.recorded) c.result.messages.push_back(functions[i] + ": " + k.note);
    k.launches = d.launch_count(functions[i]);
    c.result.kernels.push_back(std::move(k));
  }
  return {};
}

}  // namespace ptxbench::audit
