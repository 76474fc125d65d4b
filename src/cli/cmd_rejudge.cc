// `ptxbench rejudge RUN.db --out NEW.db`: every stored candidate of a run judged again on
// this machine (another GPU, a newer judge) through the one judging driver, into a new run
// file with the same messages (run/rejudge.h); its provenance is this machine's, with
// the source run's under "rejudge_of". The new file is written in a temporary folder beside
// --out and renamed into place only when complete: a failure or Ctrl-C leaves nothing.
// Without a GPU the judge's no-GPU path applies: the candidates are compiled and statically
// audited only (not_evaluated), and the command says so.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <ostream>

#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "cli/judging_options.h"
#include "cli/report_outputs.h"
#include "cli/run_setup.h"
#include "core/fs.h"
#include "core/interrupt.h"
#include "core/text.h"
#include "core/utf8.h"
#include "eval/evaluator.h"
#include "report/compare.h"
#include "report/summary.h"
#include "run/config.h"
#include "run/provenance.h"
#include "run/rejudge.h"
#include "run/stage_pipeline.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

namespace fs = std::filesystem;

struct RejudgeOptions {
  std::string file;
  std::string out;
  bool memcheck = false;
  bool shared_inputs = false;
  bool json = false;
  bool allow_partial = false;  // rejudge a run that is not done, and say so in the new one
};

int rejudge_fail(Context& ctx, const Error& e, int code = exit_code::bad_input) {
  ctx.err << "ptxbench rejudge: " << to_console_text(e.to_string()) << "\n";
  return exit_code_for(e, code);
}

// --out names a new file, not the run itself.
Status check_rejudge_out(const RejudgeOptions& o) {
  std::error_code ec;
  if (fs::exists(o.out, ec) && fs::equivalent(o.file, o.out, ec))
    return make_error("--out " + o.out + " is the run being rejudged",
                      "rejudge writes a new run file: choose another --out");
  if (fs::exists(o.out, ec) && !fs::is_directory(o.out, ec))
    return make_error(o.out + " already exists",
                      "choose another --out; ptxbench does not overwrite files");
  // Refused before anything is judged (the second campaign of 2026-12-05: both were found only
  // when the finished run was published, its work lost).
  if (o.out.ends_with('/') && !fs::exists(o.out, ec))  // an existing one: check_out_path
    return make_error("--out " + o.out + " names a folder",
                      "give the new run file's name, e.g. --out " +
                          (fs::path(o.out) / "rejudged.db").lexically_normal().string());
  if (fs::is_symlink(fs::symlink_status(o.out, ec)))
    return make_error(
        "--out " + o.out + " is a symbolic link (to " + fs::read_symlink(o.out, ec).string() + ")",
        "name a new file; ptxbench does not write through links");
  PTXB_TRY_STATUS(check_output_place("--out", o.out, {o.file}));
  return check_out_path(o.out);
}

// This machine's provenance, with the source run's under "rejudge_of".
Json provenance(Context& ctx, ProcessRunner& runner, const store::RunRow& run,
                const store::RunStore& source, const run::CandidatePipeline& pipeline) {
  Json p = run::collect_provenance(ctx.paths, runner, PTXBENCH_VERSION, ctx.argv);
  p["pipeline"] = pipeline.describe();
  p["rejudge_of"] = {{"run", fs::absolute(source.path()).string()},
                     {"created_at", run.created_at},
                     {"status", store::to_string(run.status)},
                     {"partial", run.status != store::RunStatus::done},
                     {"provenance", run.provenance}};
  return p;
}

// Moves the finished file to `out` unless something is there by now (link: never replaces).
Status publish(const fs::path& made, const fs::path& out) {
  std::error_code ec;
  for (const char* side : {"-wal", "-journal"})
    if (fs::exists(made.string() + side, ec))
      return make_error("the rejudged run was not closed cleanly (" + made.string() + side +
                        " is left)");
  if (::link(made.c_str(), out.c_str()) != 0)
    return make_error(
        fmt::format("cannot create {}: {}", out.string(), std::strerror(errno)),
        errno == EEXIST ? "another process made it meanwhile; choose another --out" : "");
  return {};
}

struct Work {
  RejudgeOptions& o;
  Context& ctx;
  std::vector<task::TaskSpec> tasks;
  SystemProcessRunner runner;
};

// The rejudged run, in `dir`; then published as --out.
int rejudge_into(Work& w, const store::RunStore& source, const store::RunRow& run,
                 const run::RunConfig& config, const TempDir& dir) {
  Context& ctx = w.ctx;
  judge::JudgeOptions so;
  if (Status machine = set_judging_machine(so, ctx.paths, w.runner); !machine.ok()) {
    ctx.err << "ptxbench rejudge: " << to_console_text(machine.error().to_string()) << "\n";
    return exit_code::internal;
  }
  so.eval.memcheck = w.o.memcheck;
  set_run_inputs(so, w.o.shared_inputs);
  so.compile.contract = config.contract;
  apply_judging(config.judging, so.eval);  // the run's own judging settings
  run::StagePipeline pipeline(ctx.paths, w.runner, so);
  ctx.err << fmt::format(
      "ptxbench rejudge {} -> {}\n{}\n", w.o.file, w.o.out,
      so.gpu ? "GPU: every candidate is checked, timed and audited again"
             : "no GPU here: the candidates are compiled and statically audited only (not "
               "evaluated); to judge them, run `ptxbench rejudge " +
                   w.o.file + " --out NEW.db` on a GPU machine");
  const fs::path made = dir.path() / "run.db";
  {
    auto target =
        store::RunStore::create(made, run.config, provenance(ctx, w.runner, run, source, pipeline),
                                w.o.out);  // its errors name --out, not the temporary file
    if (!target.ok()) return rejudge_fail(ctx, target.error(), exit_code::internal);
    run::StageSlots slots(1, 1);
    auto totals = run::rejudge(
        source, *target, w.tasks, pipeline, slots,
        [&](const std::string& line) { ctx.err << "  " << to_console_text(line) << "\n"; });
    if (!totals.ok()) return rejudge_fail(ctx, totals.error(), exit_code::internal);
    if (totals->interrupted || interrupted()) {
      const int sig = interrupt_signal();
      ctx.err << fmt::format(
          "ptxbench rejudge: interrupted ({}): nothing was written ({} not "
          "created)\n",
          interrupt_name(sig), w.o.out);
      return interrupted_exit_code(sig);
    }
    if (auto st = target->finish_run(); !st.ok())
      return rejudge_fail(ctx, st.error(), exit_code::internal);
    if (run.status != store::RunStatus::done)
      ctx.err << fmt::format(
          "note: {} was not finished (status '{}'): {} holds only the turns it had, and its "
          "provenance says so (rejudge_of.partial)\n",
          w.o.file, store::to_string(run.status), w.o.out);
    ctx.err << fmt::format(
        "{} trajectories, {} turns, {} candidates judged again, {} changed "
        "category\n",
        totals->trajectories, totals->turns, totals->judged, totals->changed);
  }  // closed: the file is whole
  if (auto st = publish(made, w.o.out); !st.ok())
    return rejudge_fail(ctx, st.error(), exit_code::internal);
  auto before = report::load_run(source);
  auto after_store = store::RunStore::open_read_only(w.o.out);
  if (!before.ok() || !after_store.ok()) return exit_code::ok;
  auto after = report::load_run(*after_store);
  if (!after.ok()) return exit_code::ok;
  report::Comparison c = report::compare_runs(*before, *after);
  if (w.o.json) {
    ctx.out << to_text(report::to_json(c), 2) << "\n";
  } else {
    report::print_comparison(ctx.out, c, /*all_turns=*/false);
    ctx.out << "\nagain: ptxbench show " << w.o.out << " --compare " << w.o.file << "\n";
  }
  return exit_code::ok;
}

int rejudge_command(RejudgeOptions& o, Context& ctx) {
  if (!path_variables_ok(ctx, "rejudge")) return exit_code::bad_input;
  auto source = store::RunStore::open_read_only(o.file);
  if (!source.ok()) return rejudge_fail(ctx, source.error());
  if (auto st = check_rejudge_out(o); !st.ok()) return rejudge_fail(ctx, st.error());
  auto run = source->run();
  if (!run.ok()) return rejudge_fail(ctx, run.error());
  // A run that is not done (killed, interrupted, or still being written) has only some of its
  // turns: its rejudged copy would look like a whole run (issue 38).
  if (run->status != store::RunStatus::done && !o.allow_partial)
    return rejudge_fail(ctx,
                        make_error(o.file + " is not a finished run (its status is '" +
                                       std::string(store::to_string(run->status)) +
                                       "': killed, interrupted or still being written)",
                                   "finish it with `ptxbench run --resume " + o.file +
                                       "`, or pass --allow-partial to rejudge the turns it has "
                                       "(the new run then says it is partial)"));
  auto config = run::RunConfig::from_json(run->config);
  if (!config.ok())
    return rejudge_fail(ctx, make_error(o.file + ": its stored configuration cannot be read (" +
                                        config.error().message + ")"));
  auto tasks = task::load_tasks(ctx.paths.tasks());
  if (!tasks.ok()) return rejudge_fail(ctx, tasks.error());
  auto unknown = run::unknown_tasks(*source, *tasks);
  if (!unknown.ok()) return rejudge_fail(ctx, unknown.error());
  if (!unknown->empty())
    return rejudge_fail(ctx, make_error("the run's tasks " + join(*unknown, ", ") +
                                            " are not in this ptxbench's tasks (" +
                                            ctx.paths.tasks().string() + ")",
                                        "set PTXBENCH_ROOT to a folder with their specs"));
  InterruptScope interrupts;  // Ctrl-C stops nvcc and the workers; nothing is written
  const fs::path out(o.out);
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  auto dir = TempDir::create("." + out.filename().string() + ".rejudge-", parent);
  if (!dir.ok() && dir.error().cause == ErrorCause::unwritable_place) {  // campaign 4, J01
    Error e = make_error("cannot write --out " + o.out + " (" + dir.error().message + ")",
                         "write it in a folder you may write");
    e.cause = ErrorCause::unwritable_place;
    return rejudge_fail(ctx, e, exit_code::internal);
  }
  if (!dir.ok()) return rejudge_fail(ctx, dir.error(), exit_code::internal);
  Work w{o, ctx, std::move(*tasks), {}};
  return rejudge_into(w, *source, *run, *config, *dir);
}

}  // namespace

void attach_rejudge(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<RejudgeOptions>();
  sub.footer(with_help_footer(
      "Judges every stored candidate of RUN again on this machine (another GPU, a newer "
      "ptxbench) and writes a new run file with the same messages and token usage; compare "
      "them with `ptxbench show NEW --compare RUN`. Without a GPU the candidates are compiled "
      "and statically audited only: run it on a GPU machine to check, time and audit them."));
  sub.add_option("RUN", o->file, "a run file written by `ptxbench run`")->required();
  sub.add_option("--out", o->out, "the new run file to create")->required();
  sub.add_flag("--memcheck", o->memcheck,
               "also run each candidate under compute-sanitizer memcheck");
  add_shared_inputs_option(sub, o->shared_inputs);
  sub.add_flag("--allow-partial", o->allow_partial,
               "rejudge a run that is not finished (killed, interrupted, still written): the new "
               "run holds the turns it had and its provenance marks it partial");
  sub.add_flag("--json", o->json, "print the comparison as JSON");
  sub.callback([o, &ctx] { ctx.exit_code = rejudge_command(*o, ctx); });
}

}  // namespace ptxbench::cli
