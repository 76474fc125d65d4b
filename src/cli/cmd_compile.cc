// `ptxbench compile KERNEL.cu --task NAME --arch sm_90a [--json] [--no-cache] [--timeout S]`:
// the policy check, nvcc, the symbol allow-list and the SASS census for one kernel file.
// Exit code: the outcome's (command.h); bad input 2; ptxbench's own failure 1.
#include <ostream>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "compile/compiler.h"
#include "compile/format.h"
#include "compile/result_json.h"
#include "core/fs.h"
#include "core/json.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

struct CompileArgs {
  std::string file, task, arch = "sm_90a";
  bool json = false, no_cache = false;
  int timeout_s = 180;
};

int run_compile(const CompileArgs& a, Context& ctx) {
  auto fail = [&](int code, const std::string& msg) {
    ctx.err << "ptxbench compile: " << msg << "\n";
    return code;
  };
  auto input = load_candidate_input(ctx.paths, a.file, a.task, a.arch);
  if (!input.ok()) return fail(exit_code::bad_input, input.error().to_string());
  const std::string& source = input->source;
  const task::TaskSpec& spec = input->spec;
  SystemProcessRunner runner;
  compile::Compiler compiler(ctx.paths, runner);
  compile::CompileOptions options;
  options.arch = a.arch;
  options.timeout = std::chrono::seconds(a.timeout_s);
  options.use_cache = !a.no_cache;
  auto result = compiler.compile(spec, source, options);
  if (!result.ok()) return fail(exit_code::internal, result.error().to_string());
  if (a.json)
    ctx.out << compile::to_json(*result).dump(2) << "\n";
  else
    ctx.out << compile::format_result(*result);
  return exit_code_for(result->outcome);
}

}  // namespace

void attach_compile(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<CompileArgs>();
  add_candidate_options(sub, args->file, args->task, args->arch);
  sub.add_flag("--json", args->json, "print the result as JSON");
  sub.add_flag("--no-cache", args->no_cache, "rebuild even when the compile cache has this kernel");
  sub.add_option("--timeout", args->timeout_s, "nvcc wall-clock limit in seconds")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  sub.callback([args, &ctx] { ctx.exit_code = run_compile(*args, ctx); });
}

}  // namespace ptxbench::cli
