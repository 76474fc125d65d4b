// `ptxbench show RUN.db`: the summary of a stored run again (console or --json), and
// with --turns every trajectory's turns.
#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "cli/command.h"
#include "core/utf8.h"
#include "report/console.h"
#include "report/summary.h"
#include "store/store.h"

namespace ptxbench::cli {
namespace {

struct ShowOptions {
  std::string file;
  bool json = false;
  bool turns = false;
};

void print_turns(std::ostream& out, const report::RunData& d) {
  out << "\ntrajectories:\n";
  for (const auto& t : d.trajectories) {
    out << fmt::format("  {} {} {} #{}: {} ({})\n", t.key.model, t.key.task, t.key.arch,
                       t.key.sample, t.status, t.stop_reason.empty() ? "-" : t.stop_reason);
    for (const auto& p : t.turns)
      out << fmt::format("    turn {}: {}{}\n", p.turn, p.category,
                         p.speedup ? fmt::format(", speedup {:.3f}x", *p.speedup) : "");
  }
}

int show(const ShowOptions& o, Context& ctx) {
  auto st = store::RunStore::open_read_only(o.file);
  if (!st.ok()) {
    ctx.err << "ptxbench show: " << st.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  auto data = report::load_run(*st);
  if (!data.ok()) {
    ctx.err << "ptxbench show: " << data.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  report::Summary s = report::summarize(*data);
  if (o.json) {
    Json j = report::to_json(s);
    j["config"] = data->config;
    j["provenance"] = data->provenance;
    ctx.out << to_text(j, 2) << "\n";
    return exit_code::ok;
  }
  report::print_console(ctx.out, s);
  if (o.turns) {
    std::ostringstream turns;  // stop reasons hold an endpoint's text: escape control bytes
    print_turns(turns, *data);
    ctx.out << to_console_text(turns.str());
  }
  return exit_code::ok;
}

}  // namespace

void attach_show(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<ShowOptions>();
  sub.add_option("RUN", o->file, "a run file written by `ptxbench run`")->required();
  sub.add_flag("--json", o->json, "the summary, configuration and provenance as JSON");
  sub.add_flag("--turns", o->turns, "also list every trajectory's turns");
  sub.callback([o, &ctx] { ctx.exit_code = show(*o, ctx); });
}

}  // namespace ptxbench::cli
