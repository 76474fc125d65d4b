// `ptxbench tasks`: list the task suite, filtered by suite, family and architecture.
#include <fmt/format.h>

#include <ostream>

#include "cli/command.h"
#include "core/text.h"
#include "task/json.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

struct TasksOptions {
  std::string suite, family, arch;
  bool json = false;
};

std::string axes_text(const std::map<std::string, std::int64_t>& axes) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : axes) parts.push_back(k + "=" + std::to_string(v));
  return join(parts, " ");
}

// "M 1..16384" or "B 1..8 H 1..64 S 128..8192/128": each varying axis's promised range (and
// step).
std::string promise_text(const task::TaskSpec& t) {
  std::vector<std::string> parts;
  for (const auto& [axis, c] : t.constraints)
    parts.push_back(fmt::format("{} {}..{}{}", axis, c.min, c.max,
                                c.multiple_of > 1 ? "/" + std::to_string(c.multiple_of) : ""));
  return join(parts, " ");
}

int run_tasks(const TasksOptions& o, Context& ctx) {
  if (!o.arch.empty() && !task::is_known_arch(o.arch)) {
    ctx.err << "ptxbench tasks: unknown architecture '" << o.arch << "' (sm_90a, sm_100a)\n";
    return exit_code::bad_input;
  }
  if (!o.suite.empty() && o.suite != "core" && o.suite != "extended") {
    ctx.err << "ptxbench tasks: unknown suite '" << o.suite << "' (core, extended)\n";
    return exit_code::bad_input;
  }
  if (!o.family.empty() && !task::family_from_string(o.family)) {
    ctx.err << "ptxbench tasks: unknown family '" << o.family
            << "' (gemm, attention_fwd, attention_bwd)\n";
    return exit_code::bad_input;
  }
  auto all = task::load_tasks(ctx.paths.tasks());
  if (!all.ok()) {
    ctx.err << "ptxbench tasks: " << all.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  Json list = Json::array();
  std::string table =
      fmt::format("{:<28} {:<14} {:<15} {:<30} {:>9}  {:<18} {}\n", "TASK", "FAMILY", "SUITES",
                  "TIMED WORKLOAD", "GFLOP", "TARGETS", "PROMISE (HIDDEN SIZES DRAWN FROM IT)");
  int shown = 0;
  for (const auto& t : *all) {
    if (!o.suite.empty() && !t.in_suite(o.suite)) continue;
    if (!o.family.empty() && std::string(task::to_string(t.family)) != o.family) continue;
    if (!o.arch.empty() && !t.supports(o.arch)) continue;
    ++shown;
    list.push_back(task::to_json(t));
    std::vector<std::string> targets;
    for (const auto& a : t.archs)
      if (o.arch.empty() || a.arch == o.arch)
        targets.push_back(a.arch + ":" + join(a.families, a.rule == "all" ? "+" : "|"));
    table += fmt::format("{:<28} {:<14} {:<15} {:<30} {:>9.1f}  {:<18} {}\n", t.name,
                         task::to_string(t.family), join(t.suites, ","), axes_text(t.timed().axes),
                         t.flop_count(t.timed()).ok() ? *t.flop_count(t.timed()) / 1e9 : 0.0,
                         join(targets, " "), promise_text(t));
  }
  if (o.json) {
    ctx.out << to_text(list, 2) << "\n";
  } else {
    ctx.out << table << shown
            << " task(s); each session also checks hidden workloads it draws from the promise "
               "with its own secret seed (docs/task-spec.md, \"Hidden workloads\").\n";
  }
  return exit_code::ok;
}

}  // namespace

void attach_tasks(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<TasksOptions>();
  sub.add_option("--suite", o->suite, "only tasks of this suite (core, extended)");
  sub.add_option("--family", o->family, "only this family (gemm, attention_fwd, attention_bwd)");
  sub.add_option("--arch", o->arch, "only tasks defined for this architecture (sm_90a, sm_100a)");
  sub.add_flag("--json", o->json,
               "print the full specs as JSON (the timed workload and the promise; hidden sizes are "
               "drawn per session)");
  sub.callback([o, &ctx] { ctx.exit_code = run_tasks(*o, ctx); });
}

}  // namespace ptxbench::cli
