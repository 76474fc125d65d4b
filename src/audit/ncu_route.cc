// The Nsight Compute route of Auditor (auditor.h): ncu runs the audit worker in its
// plain "run" mode and reports per-opcode counts for every kernel launch.
#include <map>

#include "audit/auditor.h"
#include "audit/auditor_context.h"
#include "audit/join.h"
#include "audit/ncu_csv.h"
#include "audit/worker_client.h"
#include "core/gpu_select.h"
#include "core/text.h"
#include "eval/worker_spec.h"

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

Status Auditor::ncu_route(Context& c) {
  auto ncu = paths_.tool("ncu");
  if (!ncu.ok()) {
    static_only(c, "Nsight Compute (ncu) is not installed: " + ncu.error().to_string());
    return {};
  }
  // The worker under ncu runs without its in-process sandbox (ncu's injected library talks to
  // ncu over sockets); it keeps the cleared environment and the unprivileged user.
  WorkerCall run{"run",          c.so, c.tmp / "ncu",    c.tensors,
                 c.options.seed, {},   {"--no-sandbox"}, c.options.device};
  std::error_code ec;
  std::filesystem::create_directories(run.out_dir, ec);
  PTXB_TRY(run.so, eval::stage_candidate(c.so, run.out_dir));
  PTXB_TRY_STATUS(eval::give_private_dir(run.out_dir));
  ProcessSpec spec = eval::worker_process_spec({}, run.out_dir, run.device, c.options.ncu_timeout);
  spec.isolate_network = false;  // ncu reaches its injected library over local sockets
  // The worker fills each input with one kernel launch before the candidate runs: skip them.
  spec.argv = {ncu->string(),
               "--clock-control",
               "none",
               "--print-kernel-base",
               "mangled",
               "--launch-skip",
               std::to_string(c.task->inputs.size()),
               "--metrics",
               ncu_metrics(),
               "--print-metric-instances",
               "details",
               "--csv",
               "--page",
               "raw"};
  for (auto& a : worker_argv(c.worker, run)) spec.argv.push_back(a);
  spec.limits.output_cap_bytes = std::size_t{64} << 20;
  PTXB_TRY(ProcessResult pr, runner_.run(spec));
  const std::string all = pr.stdout_text + pr.stderr_text;
  if (all.find("ERR_NVGPUCTRPERM") != std::string::npos)
    return make_error("Nsight Compute may not read the GPU performance counters",
                      profiling_permission_hint());
  if (all.find("No kernels were profiled") != std::string::npos || !pr.succeeded()) {
    const std::string tail =
        std::string(trim(pr.stderr_text + "\n" + pr.stdout_text)).substr(0, 600);
    if (tail.find("cudaErrorNoDevice") != std::string::npos ||
        tail.find("No CUDA") != std::string::npos) {
      static_only(c, "no usable GPU (ncu: " + tail + ")");
      return {};
    }
    if (!pr.succeeded()) {
      static_only(c, "ncu " + pr.describe_end() + ": " + tail);
      return {};
    }
  }
  PTXB_TRY(std::vector<NcuLaunch> launches, parse_ncu_raw(pr.stdout_text));
  // One KernelAudit per function, launches summed (ncu profiles every launch).
  std::map<std::string, std::vector<const NcuLaunch*>> by_kernel;
  std::vector<std::string> order;
  for (const auto& l : launches) {
    if (l.kernel.find("fill_normal") != std::string::npos) continue;  // the worker's own
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
  if (order.empty()) c.result.messages.push_back("ncu profiled no kernel of the candidate");
  return {};
}

}  // namespace ptxbench::audit
