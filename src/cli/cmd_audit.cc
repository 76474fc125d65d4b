// `ptxbench audit KERNEL.cu --task NAME [--arch sm_90a] [--route auto|cupti|ncu]
//  [--workload NAME] [--seed N] [--json]`: judges the kernel with the evaluation turned
// off (judge::Judge): compile (compile cache), then audit which target instructions
// executed (src/audit/auditor.h): the per-family table, the tensor-FLOP coverage and the
// route used. Without a GPU: the static census only, and it says the runtime audit was
// not run. Correctness is not checked, so a kernel that compiles is not_evaluated (exit
// 0) whatever the audit found; the audit's own verdict is in the table (JSON:
// audit.instruction_metric_passed). Exit codes: the disposition's (judge::exit_code): a
// compile failure's, 1 when the audit itself failed, 2 bad input.
#include <ostream>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "eval/evaluator.h"

namespace ptxbench::cli {
namespace {

struct AuditArgs {
  std::string file, task, arch = "sm_90a", route = "auto", workload;
  std::uint64_t seed = 1;
  bool json = false;
  std::size_t max_source_bytes = compile::kDefaultMaxSourceBytes;
};

int run_audit(const AuditArgs& a, Context& ctx) {
  auto route = audit::route_choice_from_string(a.route);
  if (!route) {
    ctx.err << "ptxbench audit: --route must be auto, cupti or ncu\n";
    return exit_code::bad_input;
  }
  judge::JudgeOptions o;
  o.compile.arch = a.arch;
  o.compile.max_source_bytes = a.max_source_bytes;
  o.evaluate = false;
  o.audit.route = *route;
  o.audit.workload = a.workload;
  o.audit.seed = a.seed;
  o.gpu = eval::Evaluator::gpu_available();
  return judge_candidate(ctx, "audit", a.file, a.task, o, a.json);
}

}  // namespace

void attach_audit(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<AuditArgs>();
  add_candidate_options(sub, args->file, args->task, args->arch);
  add_source_limit_option(sub, args->max_source_bytes);
  sub.add_option("--route", args->route,
                 "auto (CUPTI, Nsight Compute when CUPTI cannot profile), cupti or ncu")
      ->capture_default_str();
  sub.add_option("--workload", args->workload,
                 "the workload to run (default: the task's first hidden one)");
  sub.add_option("--seed", args->seed, "input seed")->capture_default_str();
  sub.add_flag("--json", args->json, "print the judge's report (audit under \"audit\") as JSON");
  sub.callback([args, &ctx] { ctx.exit_code = run_audit(*args, ctx); });
}

}  // namespace ptxbench::cli
