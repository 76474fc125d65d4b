// `ptxbench sft fixit|kernelgen|coverage|mine`: SFT data from run stores (src/sft,
// docs/sft.md).
#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>

#include "cli/command.h"
#include "cli/report_outputs.h"
#include "cli/sft_args.h"
#include "core/file_lock.h"
#include "core/fs.h"
#include "core/interrupt.h"
#include "core/text.h"
#include "llm/endpoint.h"
#include "run/config.h"
#include "sft/export.h"
#include "sft/mine.h"
#include "sft/pipeline.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

void print_dropped(Context& ctx, const sft::Dataset& d) {
  if (d.dropped.empty()) return;
  ctx.out << "dropped:";
  for (const auto& [why, n] : d.dropped) ctx.out << " " << why << "=" << n;
  ctx.out << "\n";
  for (const auto& t : d.heldout_tasks_absent)
    ctx.out << "note: held-out task " << t << " has no rows\n";
}

// --out of an export: a new folder or an empty one (never a file). A folder that holds files
// (an earlier export, or one cut short before its manifest) is written over only with --force;
// a run file it reads, however named, never (issue 38: --force wrote over an input).
Status check_out_folder(const std::string& out, const std::vector<std::string>& inputs,
                        bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(out, ec)) && !fs::exists(out, ec))  // campaign 6, F23
    return make_error("--out " + out + " is a symbolic link to " +
                          fs::read_symlink(out, ec).string() + ", which is not there",
                      "pass a folder, or make the one the link names");
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    return make_error("--out " + out + " is a file; it names the folder to write the rows to",
                      "pass a folder, e.g. --out sft_data");
  PTXB_TRY_STATUS(check_output_place("--out", out, inputs));  // a file on its path (F02)
  for (const auto& name : sft::export_file_names()) {
    const fs::path file = fs::path(out) / name;
    for (const auto& in : inputs)
      if (fs::equivalent(in, file, ec))
        return make_error("--out " + out + ": the export writes " + file.string() +
                              ", which is one of the run files it reads (" + in + ")",
                          "pass another --out folder");
  }
  if (force || !fs::is_directory(out, ec)) return {};
  if (fs::exists(fs::path(out) / "manifest.json", ec))
    return make_error("--out " + out + " already holds an export (manifest.json)",
                      "pass a new folder, or --force to write over it");
  if (fs::directory_iterator it(out, ec); !ec && it != fs::directory_iterator())
    return make_error(
        "--out " + out + " is not empty (it holds " + it->path().filename().string() + ")",
        "pass a new or empty folder, or --force to write the rows into it anyway");
  return {};
}

// --out of `coverage`: a new file (the report as printed, or its JSON with --json), or with
// --force an existing one, but never a run file it reads (issue 38: --force wrote the report
// over its input).
Status check_out_file(const std::string& out, const std::vector<std::string>& inputs, bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(out, ec))
    return make_error("--out " + out + " is a folder; it names the file to write the report to");
  return check_output("--out", out, inputs, force);
}

// Every --heldout-task names a task of the suite (a typo would silently hold out nothing).
Status check_heldout(const std::vector<std::string>& heldout, const Paths& paths) {
  if (heldout.empty()) return {};
  PTXB_TRY(auto tasks, task::load_tasks(paths.tasks()));
  for (const auto& h : heldout)
    if (std::none_of(tasks.begin(), tasks.end(),
                     [&](const task::TaskSpec& t) { return t.name == h; }))
      return make_error("--heldout-task: unknown task '" + h + "'", "`ptxbench tasks` lists them");
  return {};
}

int run_sft_export(const SftArgs& a, sft::Mode mode, Context& ctx) {
  // Ctrl-C or kill: the export stops between two files, removes what it wrote and its lock.
  InterruptScope interrupts;
  auto o = options_from(a, mode);
  if (!o.ok()) return sft_fail(ctx, o.error(), exit_code::bad_input);
  if (auto st = check_heldout(o->heldout_tasks, ctx.paths); !st.ok())
    return sft_fail(ctx, st.error(), exit_code::bad_input);
  if (auto st = check_out_folder(a.out, a.stores, a.force); !st.ok())
    return sft_fail(ctx, st.error(), exit_code::bad_input);
  // Two exports into one folder at once: each holds OUT.lock (beside the folder) while it
  // writes and checks the folder again once it holds it, so the second is refused instead of
  // writing over the first (second campaign of 2026-12-05, F23). A lock left by a killed export
  // is taken over: the kernel released its flock.
  const std::string lock_path = std::filesystem::path(a.out).lexically_normal().string() + ".lock";
  auto lock = FileLock::create(lock_path);
  if (!lock.ok()) lock = FileLock::lock(lock_path);
  if (!lock.ok()) return sft_fail(ctx, lock.error(), exit_code::bad_input);
  struct Unlink {  // the lock file goes on every path out, while it is still held
    std::string path;
    ~Unlink() {
      std::error_code e;
      std::filesystem::remove(path, e);
    }
  } unlink{lock_path};
  if (auto st = check_out_folder(a.out, a.stores, a.force); !st.ok())
    return sft_fail(ctx, st.error(), exit_code::bad_input);
  auto corpus = corpus_from(a);
  if (!corpus.ok()) return sft_fail(ctx, corpus.error(), exit_code::bad_input);
  auto r = sft::export_dataset(*corpus, *o, a.out, PTXBENCH_VERSION);
  if (!r.ok() && interrupted()) {
    ctx.err << "ptxbench sft " << to_string(mode) << ": " << r.error().message << "\n";
    return interrupted_exit_code(interrupt_signal());
  }
  if (!r.ok()) return sft_fail(ctx, r.error(), exit_code::internal);
  ctx.out << r->dataset.coverage.table();
  print_dropped(ctx, r->dataset);
  ctx.out << "wrote " << r->dataset.train.size() << " train and " << r->dataset.heldout.size()
          << " held-out " << to_string(mode) << " rows to " << a.out
          << " (manifest.json describes them)\n";
  return exit_code::ok;
}

int run_coverage(const SftArgs& a, Context& ctx) {
  auto o = options_from(a, sft::Mode::fixit);
  if (!o.ok()) return sft_fail(ctx, o.error(), exit_code::bad_input);
  if (!a.out.empty())
    if (auto st = check_out_file(a.out, a.stores, a.force); !st.ok())
      return sft_fail(ctx, st.error(), exit_code::bad_input);
  auto corpus = corpus_from(a);
  if (!corpus.ok()) return sft_fail(ctx, corpus.error(), exit_code::bad_input);
  sft::Dataset d = sft::build_dataset(*corpus, *o);
  if (a.json) {
    const std::string text = to_text(Json{{"sources", sft::sources_json(*corpus)},
                                          {"options", o->to_json()},
                                          {"dropped", d.dropped},
                                          {"coverage", d.coverage.to_json()}},
                                     2) +
                             "\n";
    if (a.out.empty()) {
      ctx.out << text;
      return exit_code::ok;
    }
    if (auto st = make_output_folder(a.out); !st.ok())
      return sft_fail(ctx, st.error(), exit_code::internal);
    if (auto st = write_file_atomic(a.out, text, a.force ? Replace::yes : Replace::no); !st.ok())
      return sft_fail(ctx, st.error(), exit_code::internal);
    ctx.out << "wrote the coverage report (JSON) to " << a.out << "\n";
    return exit_code::ok;
  }
  if (!a.out.empty()) {
    if (auto st = make_output_folder(a.out); !st.ok())
      return sft_fail(ctx, st.error(), exit_code::internal);
    if (auto st =
            write_file_atomic(a.out, d.coverage.table(), a.force ? Replace::yes : Replace::no);
        !st.ok())
      return sft_fail(ctx, st.error(), exit_code::internal);
    ctx.out << "wrote the coverage report to " << a.out << "\n";
  } else {
    ctx.out << d.coverage.table();
  }
  print_dropped(ctx, d);
  return exit_code::ok;
}

// The run stores and the options that choose from them. kernelgen exports correct turns,
// so the failing-turn options (--categories, --pairing) are fixit's, coverage's and mine's.
void add_selection(CLI::App& s, SftArgs& a, sft::Mode mode) {
  s.add_option("stores", a.stores, "run stores (RUN.db) to read; never modified")
      ->required()
      ->check(CLI::ExistingFile);
  if (mode == sft::Mode::fixit)
    s.add_option("--categories", a.categories,
                 "failing categories to use, comma-separated (default: compile_error,runtime_error,"
                 "timeout,incorrect,passed_missing_instructions,policy; no_code may be added)");
  s.add_option("--per-task-cap", a.per_task_cap,
               mode == sft::Mode::fixit
                   ? "failing turns kept per task, balanced by (category, turn); 0: no cap"
                   : "kernels kept per task, balanced by turn; 0: no cap")
      ->check(whole_range(0, kMaxCount))
      ->capture_default_str();
  s.add_option("--seed", a.seed, "balancing order seed")
      ->check(unsigned_number())
      ->capture_default_str();
}

void add_filters(CLI::App& s, SftArgs& a, sft::Mode mode) {
  const bool fixit = mode == sft::Mode::fixit;
  s.add_option("--min-speedup", a.min_speedup,
               fixit ? "drop repairs below this speedup (0: no floor)"
                     : "drop kernels below this speedup (0: no floor)")
      ->check(finite_range(0, 1e6))
      ->capture_default_str();
  s.add_flag("--allow-missing-instructions", a.allow_missing_instructions,
             fixit ? "accept repairs that are correct but do not execute the target instructions"
                   : "accept kernels that are correct but do not execute the target instructions");
  s.add_option("--allow-flag", a.allow_flags,
               "guard flags (e.g. side_stream) that do not disqualify a row")
      ->allow_extra_args(false);
  s.add_option("--max-tokens", a.max_tokens, "estimated tokens per row (0: no limit)")
      ->check(whole_range(0, kMaxRowTokens))
      ->capture_default_str();
  s.add_option("--bytes-per-token", a.bytes_per_token, "the token estimator's bytes per token")
      ->check(finite_above(0, 1000))
      ->capture_default_str();
  if (fixit)
    s.add_option("--pairing", a.pairing,
                 "one: one row per repaired turn; all: one per failing turn")
        ->capture_default_str();
  s.add_option("--heldout-task", a.heldout,
               "tasks whose rows go to heldout*.jsonl (repeat or comma-separate)")
      ->allow_extra_args(false);
  s.add_flag("--no-reasoning", a.no_reasoning,
             "leave the model's reasoning out of the trained message");
}

}  // namespace

void attach_sft(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<SftArgs>();
  sub.require_subcommand(1);

  auto* fixit = sub.add_subcommand("fixit", "export repair pairs (5 messages) to --out DIR");
  add_selection(*fixit, *a, sft::Mode::fixit);
  add_filters(*fixit, *a, sft::Mode::fixit);
  fixit->add_option("--out", a->out, "output folder (new or empty)")->required();
  fixit->add_flag("--force", a->force, "write into --out even when it holds an earlier export");
  fixit->callback([a, &ctx] { ctx.exit_code = run_sft_export(*a, sft::Mode::fixit, ctx); });

  auto* kernelgen = sub.add_subcommand(
      "kernelgen", "export correct, executing kernels (3 messages) to --out DIR");
  add_selection(*kernelgen, *a, sft::Mode::kernelgen);
  add_filters(*kernelgen, *a, sft::Mode::kernelgen);
  kernelgen->add_option("--out", a->out, "output folder (new or empty)")->required();
  kernelgen->add_flag("--force", a->force, "write into --out even when it holds an earlier export");
  kernelgen->callback([a, &ctx] { ctx.exit_code = run_sft_export(*a, sft::Mode::kernelgen, ctx); });

  auto* coverage =
      sub.add_subcommand("coverage", "print the fixit coverage report (task x category x turn)");
  add_selection(*coverage, *a, sft::Mode::fixit);
  add_filters(*coverage, *a, sft::Mode::fixit);
  coverage->add_flag("--json", a->json, "print JSON");
  coverage->add_option("--out", a->out, "write the report (or its JSON) to this new file");
  coverage->add_flag("--force", a->force, "write over --out when it exists");
  coverage->callback([a, &ctx] { ctx.exit_code = run_coverage(*a, ctx); });

  auto* mine = sub.add_subcommand(
      "mine", "repair selected failing turns with a teacher model into --out MINE.db");
  add_selection(*mine, *a, sft::Mode::fixit);
  run::RunConfig& t = a->teacher;
  t.turns = 1;
  t.speedup_target = 0;
  mine->add_option("--model", t.model.id, "the teacher's model id on the endpoint");
  mine->add_option("--base-url", t.model.base_url,
                   "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1");
  mine->add_option("--api-key-env", t.model.api_key_env,
                   "environment variable holding the API key");
  mine->add_option("--temperature", t.model.temperature, "sampling temperature")
      ->check(finite_range(0, llm::kMaxTemperature))
      ->capture_default_str();
  mine->add_option("--max-tokens", t.model.max_tokens, "completion token limit")
      ->check(whole_range(1, run::kMaxCompletionTokens))
      ->capture_default_str();
  mine->add_option("--turns", t.turns, "turn budget of a teacher trajectory")
      ->check(whole_range(1, run::kMaxTurns))
      ->capture_default_str();
  mine->add_option("--speedup-target", t.speedup_target,
                   "a teacher trajectory stops at its first correct, executing turn this fast "
                   "(0: at its first correct, executing turn)")
      ->check(finite_range(0, 1000))
      ->capture_default_str();
  mine->add_option("--request-timeout", t.model.request_timeout_s,
                   "seconds one request attempt may take (the whole reply)")
      ->check(finite_above(0, run::kMaxSeconds))
      ->capture_default_str();
  mine->add_flag("--stream", t.model.stream,
                 "ask for each reply as an event stream (stream: true, with usage): a long reply "
                 "arrives piece by piece and one that stops arriving is caught by --stall-timeout");
  mine->add_option("--stall-timeout", t.model.stall_timeout_s,
                   "seconds without a byte, once a reply has started, that end the attempt")
      ->check(finite_above(0, run::kMaxSeconds))
      ->capture_default_str();
  mine->add_option("--attempts", t.model.attempts, "tries per request")
      ->check(whole_range(1, run::kMaxAttempts))
      ->capture_default_str();
  mine->add_option("--retry-max-s", t.model.retry_max_s,
                   "seconds a request may spend on attempts and waits before it fails")
      ->check(finite_range(0, run::kMaxSeconds))
      ->capture_default_str();
  mine->add_option("--concurrency", t.concurrency, "teacher trajectories in flight")
      ->check(whole_range(1, run::kMaxConcurrency))
      ->capture_default_str();
  mine->add_option("--cpu-jobs", t.cpu_jobs, "compiles at a time")
      ->check(whole_range(1, run::kMaxConcurrency))
      ->capture_default_str();
  mine->add_option("--out", a->out,
                   "the store the teacher trajectories go to (resumed when it exists)");
  mine->add_option("--limit", a->limit, "at most this many seeds (0: all selected)")
      ->check(whole_range(0, kMaxCount))
      ->capture_default_str();
  mine->add_flag("--dry-run", a->dry_run, "list the selected seeds; call no model");
  mine->add_flag("--json", a->json,
                 "with --dry-run: one JSON line per seed, with the request text");
  mine->callback([a, &ctx] { ctx.exit_code = run_mine(*a, ctx); });
}

}  // namespace ptxbench::cli
