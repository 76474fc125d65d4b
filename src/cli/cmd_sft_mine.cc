// `ptxbench sft mine`: failing turns of run stores sent to a teacher model through the session
// loop (docs/sft.md); its trajectories go to a mine store that `sft fixit` reads.
#include <filesystem>

#include "cli/judge_candidate.h"
#include "cli/sft_args.h"
#include "core/interrupt.h"
#include "core/subprocess.h"
#include "eval/evaluator.h"
#include "judge/judge.h"
#include "llm/endpoint.h"
#include "llm/extract.h"
#include "run/model_client.h"
#include "run/provenance.h"
#include "run/stage_pipeline.h"
#include "sft/mine.h"
#include "sft/pipeline.h"
#include "sft/session_runner.h"
#include "store/store.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

// An existing --out is resumed only when mine made it: a run file of `ptxbench run` is refused
// (campaign 3b N07: the teacher's trajectories were written into another run's file).
Status check_mine_out(const std::string& out) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(out, ec)) return {};
  auto store = store::RunStore::open_read_only(out);
  if (!store.ok()) return {};  // not a run store: mine's own open says so
  auto run = store->run();
  if (run.ok() && run->config.is_object() && run->config.contains("sft_mine")) return {};
  return make_error("--out " + out + " is a run file of `ptxbench run`, not a mine store",
                    "write the teacher's trajectories to a new file, e.g. --out mine.db");
}

// Runs the selected seeds through the session loop with the teacher endpoint.
int run_teacher(const SftArgs& a, const sft::Options& o, const sft::Corpus& corpus, Context& ctx) {
  if (!path_variables_ok(ctx, "sft mine")) return exit_code::bad_input;
  const run::RunConfig& rc = a.teacher;
  if (rc.model.id.empty() || rc.model.base_url.empty())
    return sft_fail(
        ctx,
        make_error("sft mine needs a teacher", "pass --model ID --base-url URL (or --dry-run)"),
        exit_code::bad_input);
  if (a.out.empty())
    return sft_fail(ctx, make_error("no --out MINE.db given"), exit_code::bad_input);
  for (const auto& s : a.stores)  // the input stores are never modified
    if (std::error_code ec; std::filesystem::equivalent(s, a.out, ec))
      return sft_fail(
          ctx,
          make_error("--out " + a.out + " is one of the run stores mine reads",
                     "write the teacher's trajectories to a new file, e.g. --out mine.db"),
          exit_code::bad_input);
  if (auto st = check_mine_out(a.out); !st.ok())
    return sft_fail(ctx, st.error(), exit_code::bad_input);
  if (std::error_code ec; std::filesystem::is_directory(a.out, ec))
    return sft_fail(ctx,
                    make_error("--out " + a.out + " is a folder; it names the store to write",
                               "e.g. --out " + (std::filesystem::path(a.out) / "mine.db").string()),
                    exit_code::bad_input);
  auto tasks = task::load_tasks(ctx.paths.tasks());
  if (!tasks.ok()) return sft_fail(ctx, tasks.error(), exit_code::bad_input);
  auto client = run::make_model_client(rc.model);
  if (!client.ok()) return sft_fail(ctx, client.error(), exit_code::bad_input);
  run::SharedClientFactory clients(*client);
  SystemProcessRunner runner;
  judge::JudgeOptions so;
  if (Status machine = set_judging_machine(so, ctx.paths, runner); !machine.ok())
    return sft_fail(ctx, machine.error(), exit_code::internal);
  if (!so.gpu)
    ctx.err << "warning: no GPU here: teacher kernels are compiled only, so none can be a repair "
               "(correct and executing); mine on the GPU machine\n";
  run::StagePipeline pipeline(ctx.paths, runner, so);
  InterruptScope interrupts;  // Ctrl-C stops nvcc, the workers and the teacher's requests
  sft::SessionRepairRunner repair(rc, *tasks, pipeline, clients, [](const std::string& reply) {
    return llm::extract_code(reply);
  });
  sft::MineConfig mc;
  mc.teacher_model = rc.model_label();
  mc.limit = a.limit;
  mc.concurrency = rc.concurrency;
  mc.config = rc.to_json();
  mc.config["sft_mine"] = o.to_json();
  mc.config["sft_mine"]["stores"] = a.stores;
  mc.provenance = run::collect_provenance(ctx.paths, runner, PTXBENCH_VERSION, ctx.argv);
  mc.provenance["pipeline"] = pipeline.describe();
  auto r = sft::mine(corpus, o, mc, a.out, repair);
  if (!r.ok()) return sft_fail(ctx, r.error(), exit_code::bad_input);
  if (const int sig = interrupt_signal(); sig != 0) {
    ctx.err << "ptxbench sft mine: interrupted (" << interrupt_name(sig) << "): " << r->interrupted
            << " teacher trajector" << (r->interrupted == 1 ? "y" : "ies")
            << " stopped or not started; finished ones are in " << a.out
            << "; the same command goes on where this one stopped\n";
    return interrupted_exit_code(sig);
  }
  ctx.out << r->coverage.table();
  const int failed = static_cast<int>(r->errors.size());
  ctx.out << r->selected << " seed(s): " << r->ran << " run now, " << failed << " failed, "
          << r->already_done << " done before, " << r->repaired
          << " repaired (correct and executing); teacher trajectories in " << a.out << "\n";
  for (const auto& err : r->errors) ctx.err << "failed: " << err << "\n";
  if (failed == 0) {
    ctx.out << "next: ptxbench sft fixit " << a.out << " --out DIR\n";
    return exit_code::ok;
  }
  ctx.err << "error: " << failed << " of " << r->selected
          << " teacher trajectories failed (see above); the same command tries them again\n";
  return exit_code::internal;
}

}  // namespace

int run_mine(const SftArgs& a, Context& ctx) {
  auto o = options_from(a, sft::Mode::fixit);
  if (!o.ok()) return sft_fail(ctx, o.error(), exit_code::bad_input);
  // A --base-url given with --dry-run is checked as run checks it (campaign 7, X45: ftp:// passed).
  if (!a.teacher.model.base_url.empty())
    if (auto st = llm::check_base_url(a.teacher.model.base_url); !st.ok())
      return sft_fail(ctx, st.error(), exit_code::bad_input);
  if (a.json && !a.dry_run)  // it was ignored, and the model called (campaign 6, N16)
    return sft_fail(ctx,
                    make_error("--json needs --dry-run (it prints the selected seeds as JSON)",
                               "add --dry-run, or drop --json to call the model"),
                    exit_code::bad_input);
  auto corpus = corpus_from(a);
  if (!corpus.ok()) return sft_fail(ctx, corpus.error(), exit_code::bad_input);
  if (a.dry_run) {
    sft::Coverage cov;
    auto jobs = sft::select_seeds(*corpus, *o, a.limit, cov);
    if (a.json) {
      for (const auto& j : jobs)
        ctx.out << to_text(Json{{"sample", j.sample},
                                {"seed", j.seed.to_json()},
                                {"request", j.opening.at(1).content}})
                << "\n";
      return exit_code::ok;
    }
    ctx.out << cov.table();
    for (const auto& j : jobs)
      ctx.out << "seed " << j.sample << ": " << j.seed.task << " " << j.seed.arch << " "
              << j.seed.category << " turn " << j.seed.turn << " (" << j.seed.model
              << ", trajectory " << j.seed.origin_trajectory << " of " << j.seed.origin_path
              << ")\n";
    ctx.out << jobs.size() << " failing turn(s) would be sent to the teacher\n";
    return exit_code::ok;
  }
  return run_teacher(a, *o, *corpus, ctx);
}

}  // namespace ptxbench::cli
