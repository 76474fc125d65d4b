// `ptxbench prompt TASK --arch A --context LEVEL [--contract C] [--json]`: the exact first-turn
// messages a session sends for a task (system prompt from context/, user prompt from the task
// spec without its hidden workloads, both in the kernel contract C) and their token estimate.
#include <fmt/format.h>

#include <ostream>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "core/json.h"
#include "core/text.h"
#include "core/utf8.h"
#include "prompt/context.h"
#include "prompt/prompt.h"
#include "prompt/tokens.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

struct PromptArgs {
  std::string task;
  std::string arch = "sm_90a";
  std::string level = "full";
  double speedup_target = 1.2;
  bool json = false;
  bool list_levels = false;
  ContractChoice contract;
};

int list_levels(Context& ctx, const std::string& wanted, bool json) {
  auto m = prompt::load_manifest(ctx.paths.context());
  if (!m.ok()) {
    ctx.err << "ptxbench prompt: " << m.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  if (!m->levels.count(wanted)) {  // a --context given with --levels is still checked
    ctx.err << "ptxbench prompt: unknown context level '" << wanted << "' (the levels follow)\n";
    for (const auto& [name, l] : m->levels)
      ctx.err << fmt::format("  {:<10} {}\n", name, l.description);
    return exit_code::bad_input;
  }
  if (json) {  // campaign 7, X05: --json was ignored here
    Json levels = Json::array();
    for (const auto& [name, level] : m->levels)
      levels.push_back({{"name", name}, {"description", level.description}});
    ctx.out << to_text(Json{{"context_version", m->version}, {"levels", levels}}, 2) << "\n";
    return exit_code::ok;
  }
  ctx.out << "context version " << m->version << "\n";
  for (const auto& [name, level] : m->levels)
    ctx.out << fmt::format("  {:<10} {}\n", name, level.description);
  return exit_code::ok;
}

Json to_json(const task::TaskSpec& t, const std::string& arch, Contract contract,
             const prompt::PromptBundle& b) {
  return Json{{"task", t.name},
              {"arch", arch},
              {"contract", to_string(contract)},
              {"level", b.level},
              {"context_version", b.version},
              {"context_sha256", b.context_sha256},
              {"fragments", b.fragments},
              {"token_estimate",
               {{"system", b.system_tokens}, {"user", b.user_tokens}, {"total", b.token_estimate}}},
              {"chars", {{"system", b.system.size()}, {"user", b.user.size()}}},
              {"messages", Json::array({{{"role", "system"}, {"content", b.system}},
                                        {{"role", "user"}, {"content", b.user}}})}};
}

int run_prompt(const PromptArgs& a, Context& ctx) {
  if (a.list_levels && !a.task.empty()) {  // campaign 7, X05: the task was silently ignored
    ctx.err << "ptxbench prompt: --levels lists the context levels and takes no task ('"
            << to_console_text(a.task) << "'): drop one of them\n";
    return exit_code::bad_input;
  }
  if (a.list_levels) return list_levels(ctx, a.level, a.json);
  if (a.task.empty()) {
    ctx.err << "ptxbench prompt: name a task (ptxbench tasks lists them), or pass --levels\n";
    return exit_code::bad_input;
  }
  auto t = task::load_task_by_name(ctx.paths, a.task);
  if (!t.ok()) {
    ctx.err << "ptxbench prompt: " << t.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  prompt::PromptOptions opts;
  opts.speedup_target = a.speedup_target;
  opts.contract = a.contract.for_prompt();
  auto b = prompt::build_messages(*t, a.arch, a.level, ctx.paths, opts);
  if (!b.ok()) {
    ctx.err << "ptxbench prompt: " << b.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  if (a.json) {
    ctx.out << to_text(to_json(*t, a.arch, opts.contract, *b), 2) << "\n";
    return exit_code::ok;
  }
  ctx.out << "=== system (" << b->system_tokens << " tokens est.) ===\n" << b->system;
  ctx.out << "=== user (" << b->user_tokens << " tokens est.) ===\n" << b->user;
  ctx.out << fmt::format(
      "=== end: task {}, arch {}, contract {}, context level '{}' (version {}, sha256 {}), {} "
      "fragments; ~{} tokens (word/punctuation estimate; {} by chars/4) ===\n",
      t->name, a.arch, to_string(opts.contract), b->level, b->version,
      b->context_sha256.substr(0, 12), b->fragments.size(), b->token_estimate,
      prompt::chars_per_4_estimate(b->system) + prompt::chars_per_4_estimate(b->user));
  return exit_code::ok;
}

}  // namespace

void attach_prompt(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<PromptArgs>();
  sub.add_option("task", a->task, "the task (ptxbench tasks lists them)");
  sub.add_option("--arch", a->arch, "sm_90a (Hopper) or sm_100a (Blackwell)")
      ->capture_default_str();
  sub.add_option("--context", a->level,
                 "context level: none, reference, full (--levels lists them)")
      ->capture_default_str();
  sub.add_option("--speedup-target", a->speedup_target, "the speedup the prompt names as the goal")
      ->capture_default_str();
  add_contract_option(sub, a->contract,
                      "the kernel contract the prompt presents: native, tvm-ffi, or auto (native)");
  sub.add_flag("--levels", a->list_levels,
               "list the context levels and exit (with --json: as JSON; takes no task)");
  sub.add_flag("--json", a->json, "print the messages and estimates as JSON");
  sub.callback([a, &ctx] { ctx.exit_code = run_prompt(*a, ctx); });
}

}  // namespace ptxbench::cli
