// `ptxbench audit KERNEL.cu --task NAME [--arch sm_90a] [--route auto|cupti|ncu]
//  [--workload NAME] [--seed N] [--json]`: compiles the kernel (compile cache), then
// audits which target instructions executed (src/audit/auditor.h): the per-family
// table, the tensor-FLOP coverage and the route used. Without a GPU: the static census
// only, and it says the runtime audit was not run.
// Exit code: 0 when the instruction metric passed or was not evaluated; 16 when the
// target families did not execute; the compile outcome's code when it did not build.
#include <ostream>

#include "audit/auditor.h"
#include "audit/format.h"
#include "cli/candidate_input.h"
#include "cli/command.h"
#include "compile/compiler.h"
#include "compile/format.h"
#include "core/fs.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

struct AuditArgs {
  std::string file, task, arch = "sm_90a", route = "auto", workload;
  std::uint64_t seed = 1;
  bool json = false;
};

int run_audit(const AuditArgs& a, Context& ctx) {
  auto fail = [&](int code, const std::string& msg) {
    ctx.err << "ptxbench audit: " << msg << "\n";
    return code;
  };
  auto route = audit::route_choice_from_string(a.route);
  if (!route) return fail(exit_code::bad_input, "--route must be auto, cupti or ncu");
  auto input = load_candidate_input(ctx.paths, a.file, a.task, a.arch);
  if (!input.ok()) return fail(exit_code::bad_input, input.error().to_string());
  const std::string& source = input->source;
  const task::TaskSpec& spec = input->spec;
  SystemProcessRunner runner;
  compile::Compiler compiler(ctx.paths, runner);
  compile::CompileOptions copts;
  copts.arch = a.arch;
  auto built = compiler.compile(spec, source, copts);
  if (!built.ok()) return fail(exit_code::internal, built.error().to_string());
  if (built->outcome != Outcome::passed) {
    ctx.out << compile::format_result(*built);
    return exit_code_for(built->outcome);
  }
  audit::Auditor auditor(ctx.paths, runner);
  audit::AuditOptions opts;
  opts.route = *route;
  opts.workload = a.workload;
  opts.seed = a.seed;
  opts.sass_listing = built->sass;
  auto result = auditor.audit(built->shared_object, spec, a.arch, opts);
  if (!result.ok()) return fail(exit_code::internal, result.error().to_string());
  if (a.json)
    ctx.out << result->to_json().dump(2) << "\n";
  else
    ctx.out << audit::format_audit(*result);
  if (result->instruction_metric_evaluated && !result->instruction_metric_passed)
    return exit_code::missing_instructions;
  return exit_code::ok;
}

}  // namespace

void attach_audit(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<AuditArgs>();
  add_candidate_options(sub, args->file, args->task, args->arch);
  sub.add_option("--route", args->route,
                 "auto (CUPTI, Nsight Compute when CUPTI cannot profile), cupti or ncu")
      ->capture_default_str();
  sub.add_option("--workload", args->workload,
                 "the workload to run (default: the task's first hidden one)");
  sub.add_option("--seed", args->seed, "input seed")->capture_default_str();
  sub.add_flag("--json", args->json, "print the result as JSON");
  sub.callback([args, &ctx] { ctx.exit_code = run_audit(*args, ctx); });
}

}  // namespace ptxbench::cli
