// `ptxbench show RUN.db`: the summary of a stored run again (console or --json), with
// --turns every trajectory's turns, with --price-in/--price-out its cost in dollars; and
// `show A.db B.db` (or `show B.db --compare A.db`): the two runs' turns side by side, and
// per task the shares of their turns by outcome (report/task_shares.h).
#include <fmt/format.h>

#include <optional>
#include <ostream>
#include <sstream>
#include <vector>

#include "cli/command.h"
#include "core/utf8.h"
#include "report/compare.h"
#include "report/console.h"
#include "report/summary.h"
#include "store/store.h"

namespace ptxbench::cli {
namespace {

struct ShowOptions {
  std::vector<std::string> files;  // one run, or two to compare (before, after)
  std::string compare;             // --compare: the run before `files[0]`
  bool json = false;
  bool turns = false;
  std::optional<double> price_in, price_out;  // USD per million tokens
};

void print_turns(std::ostream& out, const report::RunData& d) {
  out << "\ntrajectories:\n";
  for (const auto& t : d.trajectories) {
    out << fmt::format("  {} {} {} #{}: {} ({})\n", t.key.model, t.key.task, t.key.arch,
                       t.key.sample, store::to_string(t.status),
                       t.stop_reason.empty() ? "-" : t.stop_reason);
    for (const auto& p : t.turns)
      out << fmt::format(
          "    turn {}: {}{}; tokens {} + {} ({} reasoning), request {:.1f} s, nvcc {:.1f} CPU-s, "
          "GPU {:.1f} s\n",
          p.turn, judge::to_string(p.category),
          p.speedup ? fmt::format(", speedup {:.3f}x", *p.speedup) : "", p.cost.prompt_tokens,
          p.cost.completion_tokens, p.cost.reasoning_tokens, p.cost.request_s, p.cost.compile_cpu_s,
          p.cost.gpu_s);
  }
}

int show_fail(Context& ctx, const Error& e) {
  ctx.err << "ptxbench show: " << e.to_string() << "\n";
  return exit_code_for(e, exit_code::bad_input);
}

// The two runs to compare, before then after; empty when there is one run to show.
Result<std::vector<std::string>> compared(const ShowOptions& o) {
  if (o.compare.empty()) return o.files.size() == 2 ? o.files : std::vector<std::string>{};
  if (o.files.size() == 2)
    return make_error("--compare with two runs", "give two runs, or one run and --compare");
  return std::vector<std::string>{o.compare, o.files[0]};
}

int compare(const std::vector<std::string>& files, const ShowOptions& o, Context& ctx) {
  if (o.price_in || o.price_out)
    return show_fail(ctx, make_error("--price-in/--price-out go with one run, not a comparison",
                                     "show each run with its prices"));
  auto before = report::load_run_file(files[0]);
  if (!before.ok()) return show_fail(ctx, before.error());
  auto after = report::load_run_file(files[1]);
  if (!after.ok()) return show_fail(ctx, after.error());
  report::Comparison c = report::compare_runs(*before, *after);
  if (o.json)
    ctx.out << to_text(report::to_json(c), 2) << "\n";
  else
    report::print_comparison(ctx.out, c, o.turns);
  return exit_code::ok;
}

int show(const ShowOptions& o, Context& ctx) {
  auto pair = compared(o);
  if (!pair.ok()) return show_fail(ctx, pair.error());
  if (!pair->empty()) return compare(*pair, o, ctx);
  auto data = report::load_run_file(o.files[0]);
  if (!data.ok()) return show_fail(ctx, data.error());
  report::Summary s = report::summarize(*data, report::Prices{o.price_in, o.price_out});
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
  sub.add_option("RUN", o->files,
                 "a run file written by `ptxbench run` (or `rejudge`); two: compare the first "
                 "(before) with the second (after)")
      ->required()
      ->expected(1, 2);
  sub.add_option("--compare", o->compare,
                 "compare RUN with this earlier run (e.g. the run RUN rejudged, or the model "
                 "before fine-tuning): turn by turn, category by category, and per task the "
                 "shares of replies with a code block, compile errors, correct (+arch)");
  sub.add_flag("--json", o->json, "the summary, configuration and provenance as JSON");
  sub.add_flag("--turns", o->turns, "also list every trajectory's turns (compared: every turn)");
  sub.add_option("--price-in", o->price_in, "USD per million prompt tokens: dollars in the cost")
      ->check(finite_range(0, 1e9));
  sub.add_option("--price-out", o->price_out,
                 "USD per million completion tokens (reasoning included): dollars in the cost")
      ->check(finite_range(0, 1e9));
  sub.callback([o, &ctx] { ctx.exit_code = show(*o, ctx); });
}

}  // namespace ptxbench::cli
