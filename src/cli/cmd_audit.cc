// `ptxbench audit KERNEL.cu --task NAME [--arch sm_90a] [--route auto|cupti|ncu]
//  [--workload NAME] [--seed N] [--json]`: judges the kernel without timing (judge::Judge):
// compile (compile cache), then one judging session whose checked and audited calls are all
// verified, and which target instructions executed in the audited calls (src/audit/auditor.h):
// the per-family table, the tensor-FLOP coverage and the route used. Without a GPU: the static
// census only, and it says the runtime audit was not run. Exit codes: the disposition's
// (judge::exit_code): 0 passed, 10 incorrect, 16 target instructions not executed, a compile
// failure's, 1 when the audit itself failed, 2 bad input.
#include <algorithm>
#include <ostream>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "core/text.h"
#include "eval/evaluator.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

struct AuditArgs {
  std::string file, task, arch = "sm_90a", route = "auto", workload;
  std::optional<std::uint64_t>
      seed;  // default: random, as eval (a fixed one makes the hidden sizes public)
  bool json = false, reply = false;
  bool allow_weaker_sandbox = false;
  std::size_t max_source_bytes = compile::kDefaultMaxSourceBytes;
  ContractChoice contract;
};

int run_audit(const AuditArgs& a, Context& ctx) {
  auto route = audit::route_choice_from_string(a.route);
  if (!route) {
    ctx.err << "ptxbench audit: --route must be auto, cupti or ncu\n";
    return exit_code::bad_input;
  }
  if (!a.workload.empty()) {
    auto spec = task::load_task_by_name(ctx.paths, a.task);
    if (spec.ok() && !std::any_of(spec->workloads.begin(), spec->workloads.end(),
                                  [&](const task::Workload& w) { return w.name == a.workload; })) {
      std::vector<std::string> names;
      for (const auto& w : spec->workloads) names.push_back(w.name);
      ctx.err << "ptxbench audit: task " << a.task << " has no workload '" << a.workload
              << "' (hint: one of " << join(names, ", ") << ")\n";
      return exit_code::bad_input;
    }
  }
  judge::JudgeOptions o;
  o.compile.arch = a.arch;
  o.compile.max_source_bytes = a.max_source_bytes;
  o.compile.contract = a.contract;
  o.evaluate = false;
  o.audit.route = *route;
  o.audit.workload = a.workload;
  o.eval.seed = a.seed;
  o.eval.allow_weaker_sandbox = a.allow_weaker_sandbox;
  return judge_candidate(ctx, "audit", a.file, a.task, o, a.json, a.reply);
}

}  // namespace

void attach_audit(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<AuditArgs>();
  add_candidate_options(sub, args->file, args->task, args->arch);
  add_source_limit_option(sub, args->max_source_bytes);
  add_contract_option(sub, args->contract, kCandidateContractHelp);
  add_reply_option(sub, args->reply);
  sub.add_option("--route", args->route,
                 "auto (CUPTI, Nsight Compute when CUPTI cannot profile), cupti or ncu")
      ->capture_default_str();
  sub.add_option("--workload", args->workload,
                 "the second audited workload (default: the session's hidden_audit workload, drawn "
                 "from the task's promise with the seed; the timed workload is always audited)");
  sub.add_option("--seed", args->seed,
                 "the session's seed (default: random, as eval's; always recorded)")
      ->check(unsigned_number());
  sub.add_flag("--allow-weaker-sandbox", args->allow_weaker_sandbox,
               "judge even where this machine cannot give the candidate the full sandbox (the "
               "result records what was missing)");
  sub.add_flag("--json", args->json, "print the judge's report (audit under \"audit\") as JSON");
  sub.callback([args, &ctx] { ctx.exit_code = run_audit(*args, ctx); });
}

}  // namespace ptxbench::cli
