// `ptxbench compile KERNEL.cu --task NAME --arch sm_90a [--json] [--no-cache] [--timeout S]`:
// the policy check, nvcc, the symbol allow-list and the SASS census for one kernel file.
// The compile stage of judge::Judge alone. Exit code: the disposition's (judge::exit_code:
// 0 built, 11 compile error, 12 policy, 14 compiler timeout, 1 ptxbench's own failure);
// bad input 2.
#include <ostream>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "compile/compiler.h"
#include "compile/format.h"
#include "compile/result_json.h"
#include "core/fs.h"
#include "core/interrupt.h"
#include "core/json.h"
#include "core/utf8.h"
#include "judge/judge.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

struct CompileArgs {
  std::string file, task, arch = "sm_90a";
  bool json = false, no_cache = false;
  int timeout_s = 180;
  std::size_t max_source_bytes = compile::kDefaultMaxSourceBytes;
  ContractChoice contract;
};

int run_compile(const CompileArgs& a, Context& ctx) {
  if (!path_variables_ok(ctx, "compile")) return exit_code::bad_input;
  auto input = load_candidate_input(ctx.paths, a.file, a.task, a.arch, a.max_source_bytes);
  if (!input.ok()) {
    ctx.err << "ptxbench compile: " << input.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  judge::JudgeOptions o;  // compile only: no GPU stage
  o.compile.arch = a.arch;
  o.compile.timeout = std::chrono::seconds(a.timeout_s);
  o.compile.use_cache = !a.no_cache;
  o.compile.max_source_bytes = a.max_source_bytes;
  o.compile.contract = a.contract;
  o.compile.source_bytes = input->source_bytes;
  o.evaluate = false;
  o.run_audit = false;
  SystemProcessRunner runner;
  judge::ToolStages stages(ctx.paths, runner);
  InterruptScope interrupts;  // Ctrl-C stops nvcc and removes its build folder
  judge::JudgeReport r = judge::Judge(stages).judge(input->spec, input->source, o);
  if (auto code = report_interrupt(ctx, "compile")) return *code;
  const compile::CompileResult* c = r.compile.done();
  if (!c)
    ctx.err << "ptxbench compile: " << to_console_text(r.message) << "\n";
  else if (a.json)
    ctx.out << to_text(compile::to_json(*c), 2) << "\n";
  else
    ctx.out << to_console_text(compile::format_result(*c));
  return judge::exit_code(r.disposition);
}

}  // namespace

void attach_compile(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<CompileArgs>();
  add_candidate_options(sub, args->file, args->task, args->arch);
  sub.add_flag("--json", args->json, "print the result as JSON");
  sub.add_flag("--no-cache", args->no_cache, "rebuild even when the compile cache has this kernel");
  add_source_limit_option(sub, args->max_source_bytes);
  add_contract_option(sub, args->contract, kCandidateContractHelp);
  sub.add_option("--timeout", args->timeout_s,
                 "the compile stage's wall-clock limit in seconds (source checks, then nvcc)")
      ->check(whole_range(1, 3600))
      ->capture_default_str();
  sub.callback([args, &ctx] { ctx.exit_code = run_compile(*args, ctx); });
}

}  // namespace ptxbench::cli
