// `ptxbench eval KERNEL.cu --task NAME [--arch sm_90a] [--json] [--seed N] [--trials N]
//  [--memcheck] [--no-timing] [--no-audit]`: compile (or hit the compile cache), check correctness
//  on
// fresh inputs in an isolated GPU worker, time against the vendor baseline, and print one
// verdict. Exit code: the outcome's (command.h): 0 passed (or not run: no GPU), 10
// incorrect, 11 compile error, 12 policy, 13 runtime error, 14 timeout, 16 correct but the
// target instructions did not execute (instruction audit, issue 4); 2 bad input.
#include <ostream>

#include "audit/auditor.h"  // audit stage (issue 4)
#include "audit/format.h"
#include "cli/candidate_input.h"
#include "cli/command.h"
#include "compile/compiler.h"
#include "compile/format.h"
#include "compile/result_json.h"
#include "core/fs.h"
#include "core/json.h"
#include "core/text.h"
#include "eval/evaluator.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

struct EvalArgs {
  std::string file, task, arch = "sm_90a";
  bool json = false, memcheck = false, no_timing = false;
  bool no_audit = false;  // audit stage (issue 4)
  std::optional<std::uint64_t> seed;
  int trials = 3;
  int timeout_s = 240;
  double sample_budget_s = 8;
  double call_timeout_s = 20;
  bool allow_weaker_sandbox = false;
};

int run_eval(const EvalArgs& a, Context& ctx) {
  auto fail = [&](int code, const std::string& msg) {
    ctx.err << "ptxbench eval: " << msg << "\n";
    return code;
  };
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
    if (a.json)
      ctx.out << Json{{"compile", compile::to_json(*built)}, {"eval", nullptr}}.dump(2) << "\n";
    else
      ctx.out << compile::format_result(*built);
    return exit_code_for(built->outcome);
  }

  eval::EvalOptions opts;
  opts.arch = a.arch;
  opts.trials = a.trials;
  opts.seed = a.seed;
  opts.memcheck = a.memcheck;
  opts.timing = !a.no_timing;
  opts.worker_timeout = std::chrono::seconds(a.timeout_s);
  opts.sample_budget_seconds = a.sample_budget_s;
  opts.call_timeout_seconds = a.call_timeout_s;
  opts.allow_weaker_sandbox = a.allow_weaker_sandbox;
  if (auto v = compiler.toolkit_version(); v.ok())  // memoised by compile() above
    opts.nvcc_version = compile::nvcc_release_line(*v);
  eval::Evaluator evaluator(ctx.paths, runner);
  eval::EvalResult result = evaluator.evaluate(spec, built->shared_object, opts);

  // ---- AUDIT STAGE (issue 4): did the target instructions execute? -----------------
  // Runs in its own worker processes, never in the timing process. Without a GPU
  // (outcome not_run) it reports the static census and says the runtime audit did not run.
  std::optional<audit::AuditResult> audited;
  if (!a.no_audit && (result.outcome == Outcome::passed || result.outcome == Outcome::not_run)) {
    audit::Auditor auditor(ctx.paths, runner);
    audit::AuditOptions aopts;
    if (a.seed) aopts.seed = *a.seed;
    aopts.sass_listing = built->sass;
    auto r = auditor.audit(built->shared_object, spec, a.arch, aopts);
    if (r.ok())
      audited = std::move(*r);
    else
      ctx.err << "ptxbench eval: instruction audit failed: " << r.error().to_string() << "\n";
  }
  const bool instructions_missing = audited && result.outcome == Outcome::passed &&
                                    audited->instruction_metric_evaluated &&
                                    !audited->instruction_metric_passed;
  // ---------------------------------------------------------------------------------

  if (a.json) {
    ctx.out << Json{{"compile", compile::to_json(*built)},
                    {"eval", result.to_json()},
                    {"audit", audited ? audited->to_json() : Json(nullptr)}}
                   .dump(2)
            << "\n";
  } else {
    ctx.out << "compile: " << to_string(built->outcome) << (built->cache_hit ? " (cached)" : "")
            << ", " << built->shared_object << "\n";
    ctx.out << result.summary() << "\n";
    if (audited) ctx.out << audit::format_audit(*audited);
  }
  if (instructions_missing) return exit_code::missing_instructions;
  return exit_code_for(result.outcome);
}

}  // namespace

void attach_eval(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<EvalArgs>();
  add_candidate_options(sub, args->file, args->task, args->arch);
  sub.add_flag("--json", args->json, "print the compile and eval results as JSON");
  sub.add_option("--seed", args->seed, "the run's seed (default: random; always recorded)");
  sub.add_option("--trials", args->trials, "correctness trials on fresh inputs (>= 3)")
      ->check(CLI::Range(3, 100))
      ->capture_default_str();
  sub.add_flag("--memcheck", args->memcheck, "also run a trial under compute-sanitizer memcheck");
  sub.add_flag("--no-timing", args->no_timing, "check correctness only");
  sub.add_flag("--no-audit", args->no_audit,
               "skip the instruction audit (which target instructions executed; issue 4)");
  sub.add_option("--timeout", args->timeout_s, "the candidate worker's wall-clock limit in seconds")
      ->check(CLI::Range(10, 3600))
      ->capture_default_str();
  sub.add_option("--sample-budget", args->sample_budget_s,
                 "timing: seconds of sampling before giving up on a 0.5% spread")
      ->check(CLI::Range(0.1, 600.0))
      ->capture_default_str();
  sub.add_option("--call-timeout", args->call_timeout_s,
                 "seconds one kernel call may take before it counts as a hang")
      ->check(CLI::Range(1.0, 600.0))
      ->capture_default_str();
  sub.add_flag("--allow-weaker-sandbox", args->allow_weaker_sandbox,
               "judge even where this machine lacks part of the candidate's sandbox (Landlock, "
               "seccomp, an unprivileged user); the result records what was missing");
  sub.callback([args, &ctx] { ctx.exit_code = run_eval(*args, ctx); });
}

}  // namespace ptxbench::cli
