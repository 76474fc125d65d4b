// `ptxbench run`: multi-turn sessions (model x task x arch x sample) into one SQLite
// run file, with a live progress display on stderr and the per-task summary at the end.
// Without --model the embedded scripted agent replays trajectories/<version>/.
#include <fmt/format.h>
#include <unistd.h>

#include <climits>
#include <iostream>
#include <optional>
#include <ostream>
#include <set>
#include <thread>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "cli/judging_options.h"
#include "cli/run_setup.h"
#include "core/fs.h"
#include "core/gpu_select.h"
#include "core/interrupt.h"
#include "core/text.h"
#include "core/utf8.h"
#include "eval/evaluator.h"
#include "judge/judge.h"
#include "llm/extract.h"
#include "prompt/prompt.h"
#include "report/console.h"
#include "report/progress.h"
#include "report/summary.h"
#include "run/loop.h"
#include "run/model_client.h"
#include "run/provenance.h"
#include "run/scripted_agent.h"
#include "run/shard.h"
#include "run/stage_pipeline.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

// The agent's clients, and (scripted agent only) which task/arch pairs it has a trajectory for.
struct Clients {
  std::shared_ptr<run::ClientFactory> factory;
  std::function<bool(const std::string&, const std::string&)> available;  // empty: all
  std::shared_ptr<run::ScriptedClientFactory> scripted;                   // the scripted agent's
};

Result<Clients> make_clients(const run::RunConfig& c, const Paths& paths, run::Notice waiting) {
  if (c.scripted()) {
    auto scripted = std::make_shared<run::ScriptedClientFactory>(paths, c.scripted_version);
    return Clients{
        scripted,
        [scripted](const std::string& t, const std::string& a) { return scripted->has(t, a); },
        scripted};
  }
  PTXB_TRY(std::shared_ptr<llm::ChatClient> client,
           run::make_model_client(c.model, std::move(waiting)));
  return Clients{std::make_shared<run::SharedClientFactory>(std::move(client)), {}};
}

run::PromptFn prompt_fn(const Paths& paths, double speedup_target, Contract contract) {
  return
      [paths, speedup_target, contract](const task::TaskSpec& t, const std::string& arch,
                                        const std::string& level) -> Result<run::PromptMessages> {
        prompt::PromptOptions po;
        po.speedup_target = speedup_target;
        po.contract = contract;
        PTXB_TRY(prompt::PromptBundle b, prompt::build_messages(t, arch, level, paths, po));
        return run::PromptMessages{b.system, b.user};
      };
}

// Every planned (task, arch) pair's first prompt builds: the prompt options (--context,
// --speedup-target) are right before any file is made.
Status check_prompts(const std::vector<store::TrajectoryKey>& plan,
                     const std::vector<task::TaskSpec>& all, const run::PromptFn& prompt,
                     const std::string& context) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& k : plan) {
    if (!seen.insert({k.task, k.arch}).second) continue;
    auto t = std::find_if(all.begin(), all.end(),
                          [&](const task::TaskSpec& s) { return s.name == k.task; });
    if (t == all.end()) continue;
    auto p = prompt(*t, k.arch, context);
    if (!p.ok()) return p.error();
  }
  return {};
}

// One evaluation queue per GPU: more queues than usable GPUs would leave some with none.
Status check_gpus(int gpus, bool gpu_here) {
  const int n = visible_gpu_count(std::getenv("CUDA_VISIBLE_DEVICES"), machine_gpu_count());
  if (!gpu_here || n < 0 || gpus <= n) return {};
  return make_error(fmt::format("--gpus {} but this process may use {} GPU(s)", gpus, n),
                    "give --gpus at most the number of GPUs (CUDA_VISIBLE_DEVICES limits it)");
}

int run_fail(Context& ctx, const Error& e) {
  ctx.err << "ptxbench run: " << e.to_string() << "\n";
  return exit_code_for(e, exit_code::bad_input);
}

// The configuration (and, on resume, the input policy), from the options or (resume) from the
// run file, read without writing to it.
Status settle_config(RunOptions& o, const CLI::App& sub, const std::vector<task::TaskSpec>& all) {
  if (o.resume.empty()) {
    PTXB_TRY_STATUS(check_agent_options(sub, o));
    PTXB_TRY_STATUS(build_config(o, all));
    if (o.out.empty()) o.out = default_out();
    return check_out_path(o.out);
  }
  PTXB_TRY_STATUS(check_resume_options(sub));
  PTXB_TRY(store::RunStore s, store::RunStore::open_read_only(o.resume));
  PTXB_TRY(store::RunRow row, s.run());
  PTXB_TRY(o.config, run::RunConfig::from_json(row.config));
  // The stored input policy (StagePipeline::describe); a run from before it: each its own.
  const Json pipeline =
      row.provenance.is_object() ? row.provenance.value("pipeline", Json::object()) : Json();
  o.shared_inputs = pipeline.is_object() && pipeline.value("inputs", "") == "per_run";
  return {};
}

// The shard this run is: a resumed run's stored one, else --shard, else the scheduler's.
Result<run::Shard> settle_shard(const RunOptions& o, const CLI::App& sub) {
  if (!o.resume.empty()) {
    PTXB_TRY(store::RunStore s, store::RunStore::open_read_only(o.resume));
    PTXB_TRY(store::RunRow row, s.run());
    return run::Shard::from_provenance(row.provenance);
  }
  const std::optional<int> count =
      sub.count("--shard-count") > 0 ? std::optional<int>(o.shard_count) : std::nullopt;
  if (sub.count("--shard") > 0) {
    if (count)
      return make_error(
          "--shard I/N already says the shard count; --shard-count is for "
          "JOB_COMPLETION_INDEX",
          "drop --shard-count");
    return run::parse_shard(o.shard);
  }
  PTXB_TRY(std::optional<run::Shard> env,
           run::shard_from_environment([](const char* n) { return std::getenv(n); }, count));
  return env.value_or(run::Shard{});
}

// The whole plan of a configuration and the agent's clients: the endpoint options are valid,
// some trajectory is planned and every planned prompt builds.
struct Planned {
  Clients clients;
  std::vector<store::TrajectoryKey> plan;
};

Result<Planned> plan_run(const run::RunConfig& c, const Paths& paths,
                         const std::vector<task::TaskSpec>& all, run::Notice waiting) {
  PTXB_TRY(Clients clients, make_clients(c, paths, std::move(waiting)));
  auto plan = run::plan_trajectories(c, all, clients.available);
  if (plan.empty())
    return make_error("nothing to run: no selected task supports the selected architectures" +
                          std::string(c.scripted() ? " with a scripted trajectory (trajectories/" +
                                                         c.scripted_version + "/)"
                                                   : ""),
                      "`ptxbench tasks --arch ARCH` lists the tasks of an architecture");
  PTXB_TRY_STATUS(check_prompts(
      plan, all, prompt_fn(paths, c.speedup_target, c.contract.for_prompt()), c.context));
  return Planned{std::move(clients), std::move(plan)};
}

// Everything a run needs before its file is created or reopened: nothing here writes.
struct Prepared {
  Clients clients;
  std::vector<store::TrajectoryKey> plan;  // this shard's
  run::Shard shard;
  std::size_t planned = 0;  // the whole plan's trajectories
};

Result<Prepared> prepare(RunOptions& o, const CLI::App& sub, Context& ctx,
                         const std::vector<task::TaskSpec>& all, bool gpu_here,
                         run::Notice waiting) {
  PTXB_TRY_STATUS(settle_config(o, sub, all));
  PTXB_TRY(run::Shard shard, settle_shard(o, sub));
  PTXB_TRY_STATUS(check_gpus(o.config.gpus, gpu_here));
  PTXB_TRY(Planned p, plan_run(o.config, ctx.paths, all, std::move(waiting)));
  const std::size_t planned = p.plan.size();
  std::vector<store::TrajectoryKey> mine = run::select_shard(p.plan, shard);
  // The scripted agent's files this shard replays, read whole before the run file exists.
  if (p.clients.scripted) PTXB_TRY_STATUS(p.clients.scripted->load(mine));
  return Prepared{std::move(p.clients), std::move(mine), shard, planned};
}

// Creates the run file, or reopens it (resume).
Result<store::RunStore> open_run(RunOptions& o, Context& ctx, const Json& pipeline_info,
                                 const Prepared& prepared, ProcessRunner& runner) {
  if (!o.resume.empty()) {
    PTXB_TRY(store::RunStore s, store::RunStore::open(o.resume));
    PTXB_TRY(store::RunRow row, s.run());
    PTXB_TRY_STATUS(s.reopen_run());
    ctx.err << "resuming " << o.resume << " (created " << row.created_at
            << "; its stored configuration is used)\n";
    return s;
  }
  Json prov = run::collect_provenance(ctx.paths, runner, PTXBENCH_VERSION, ctx.argv);
  prov["pipeline"] = pipeline_info;
  if (prepared.shard.source != run::ShardSource::whole)
    prov["shard"] = prepared.shard.to_json(prepared.planned, prepared.plan.size());
  return store::RunStore::create(o.out, o.config.to_json(), prov);
}

std::string resume_line(const store::RunStore& st) {
  return "resume with: ptxbench run --resume " + st.path().string() + "\n";
}

// What the end of a run prints besides the summary, and its exit code.
int finish(Context& ctx, const store::RunStore& st, const run::RunTotals& totals) {
  if (const int sig = interrupt_signal(); sig != 0) {
    ctx.err << fmt::format(
        "ptxbench run: interrupted ({}): {} trajector{} stopped; every finished turn is in "
        "the run file, an unfinished one is redone on resume\n",
        interrupt_name(sig), totals.interrupted, totals.interrupted == 1 ? "y" : "ies");
    ctx.err << resume_line(st);
    return interrupted_exit_code(sig);
  }
  if (totals.failed == 0) return exit_code::ok;
  for (const auto& e : totals.errors) ctx.err << "failed: " << to_console_text(e) << "\n";
  ctx.err << fmt::format("ptxbench run: {} of {} trajector{} failed (not scored)\n", totals.failed,
                         totals.trajectories, totals.trajectories == 1 ? "y" : "ies");
  ctx.err << resume_line(st);
  return exit_code::internal;
}

int run_command(RunOptions& o, const CLI::App& sub, Context& ctx) {
  if (!path_variables_ok(ctx, "run")) return exit_code::bad_input;
  auto all = task::load_tasks(ctx.paths.tasks());
  if (!all.ok()) return run_fail(ctx, all.error());
  InterruptScope interrupts;  // Ctrl-C stops nvcc and the workers; finish() says how to resume
  SystemProcessRunner runner;
  judge::JudgeOptions so;
  if (Status machine = set_judging_machine(so, ctx.paths, runner); !machine.ok())
    return run_fail(ctx, machine.error());
  so.eval.memcheck = o.memcheck;
  set_run_inputs(so, o.shared_inputs);
  // Drawn with \r and escape sequences on the raw stderr; its notes are escaped by the display.
  report::ProgressDisplay progress(std::cerr, !o.no_progress && isatty(STDERR_FILENO));
  auto prepared =
      prepare(o, sub, ctx, *all, so.gpu, [&progress](const std::string& n) { progress.note(n); });
  if (!prepared.ok()) return run_fail(ctx, prepared.error());
  if (!o.resume.empty()) {
    auto finished = finished_run(o.resume, prepared->plan);
    if (!finished.ok()) return run_fail(ctx, finished.error());
    if (*finished) {
      ctx.err << fmt::format(
          "ptxbench run: {} is finished ({} trajector{} done): nothing to resume (`ptxbench "
          "show {}` prints its summary; the file is left as it is)\n",
          o.resume, **finished, **finished == 1 ? "y" : "ies", o.resume);
      if (o.json) {  // the finished run's summary, as a run that just finished prints it (R10)
        auto data = report::load_run_file(o.resume);
        if (!data.ok()) return run_fail(ctx, data.error());
        report::print_json(ctx.out, report::summarize(*data));
      }
      return exit_code::ok;
    }
  }
  so.compile.contract = o.config.contract;   // as settled (a resumed run's stored one)
  apply_judging(o.config.judging, so.eval);  // likewise
  auto judge = make_judge(o, sub, ctx, runner, so);
  if (!judge.ok()) return run_fail(ctx, judge.error());
  run::CandidatePipeline& pipeline = **judge;
  if (interrupted()) return interrupted_exit_code(interrupt_signal());  // nothing made yet
  auto st = open_run(o, ctx, pipeline.describe(), *prepared, runner);
  if (!st.ok()) return run_fail(ctx, st.error());
  const run::RunConfig& c = o.config;
  ctx.err << fmt::format(
      "ptxbench run -> {}\nagent: {}; tasks: {}; arch: {}; {}\n", st->path().string(),
      c.model_label(), join(c.tasks, ","), join(c.archs, ","),
      (o.judge_url.empty() ? "" : "judge " + o.judge_url + ", ") +
          (pipeline.gpu_available()
               ? "GPU: full evaluation and run-time instruction audit"
               : "no GPU: compile + static SASS census only; GPU stages are marked skipped"));
  ctx.err << (o.shared_inputs ? "inputs: shared by this run's candidates (one secret input seed, "
                                "each candidate its own permutations; --shared-inputs)\n"
                              : "inputs: each candidate its own\n");
  if (prepared->shard.count > 1)
    ctx.err << fmt::format("shard {} (from {}): {} of the plan's {} trajectories\n",
                           prepared->shard.label(), run::to_string(prepared->shard.source),
                           prepared->plan.size(), prepared->planned);

  run::LoopDeps deps{*st,
                     pipeline,
                     *prepared->clients.factory,
                     prompt_fn(ctx.paths, c.speedup_target, c.contract.for_prompt()),
                     [](const std::string& reply) { return llm::extract_code(reply); },
                     &progress};
  auto totals = run::run_all(c, prepared->plan, *all, deps);
  progress.close();
  if (!totals.ok()) {
    ctx.err << "ptxbench run: " << totals.error().to_string() << "\n" << resume_line(*st);
    return exit_code::internal;
  }
  if (interrupted()) return finish(ctx, *st, *totals);  // no summary of a stopped run
  auto data = report::load_run(*st);
  if (!data.ok()) return run_fail(ctx, data.error());
  report::Summary summary = report::summarize(*data);
  if (o.json)
    report::print_json(ctx.out, summary);
  else
    report::print_console(ctx.out, summary);
  return finish(ctx, *st, *totals);
}

// run's options, into `o`: the command's own, and the parser of check_run_options.
void add_run_options(CLI::App& sub, RunOptions& o) {
  run::RunConfig& c = o.config;
  sub.add_option("--model", c.model.id,
                 "model id on the endpoint (omit: the embedded scripted agent)");
  sub.add_option("--base-url", c.model.base_url,
                 "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1");
  sub.add_option("--api-key-env", c.model.api_key_env, "environment variable holding the API key")
      ->capture_default_str();
  sub.add_option("--temperature", c.model.temperature, "sampling temperature")
      ->capture_default_str();
  sub.add_option("--top-p", c.model.top_p, "nucleus sampling")->capture_default_str();
  sub.add_option("--max-tokens", c.model.max_tokens, "completion token limit")
      ->capture_default_str();
  sub.add_option("--request-timeout", c.model.request_timeout_s,
                 "seconds one request attempt may take (the whole reply)")
      ->capture_default_str();
  sub.add_flag("--stream", c.model.stream,
               "ask for each reply as an event stream (stream: true, with usage): a long reply "
               "arrives piece by piece and one that stops arriving is caught by --stall-timeout");
  sub.add_option("--stall-timeout", c.model.stall_timeout_s,
                 "seconds without a byte, once a reply has started, that end the attempt")
      ->capture_default_str();
  sub.add_option("--attempts", c.model.attempts,
                 "tries per request (on connection errors, timeouts, 408/429/5xx)")
      ->capture_default_str();
  sub.add_option("--retry-max-s", c.model.retry_max_s,
                 "seconds a request may spend on its attempts and the waits between them before "
                 "it fails (a dead endpoint fails this fast)")
      ->capture_default_str();
  sub.add_option("--tasks", o.tasks, "core, extended, all, or comma-separated task names")
      ->capture_default_str();
  sub.add_option("--arch", o.archs, "sm_90a, sm_100a, or both comma-separated")
      ->capture_default_str();
  sub.add_option("--turns", c.turns, "turn budget per trajectory")->capture_default_str();
  sub.add_option("--samples", c.samples, "trajectories per (task, arch)")->capture_default_str();
  sub.add_option("--context", c.context, "prompt context level (see `ptxbench prompt`)")
      ->capture_default_str();
  sub.add_option("--speedup-target", c.speedup_target, "stop once correct, executing and this fast")
      ->capture_default_str();
  add_contract_option(sub, c.contract,
                      "the kernel contract: the prompts present it (auto: native) and every reply "
                      "is built in it (auto: each reply's own, detected from its source)");
  sub.add_option("--concurrency", c.concurrency, "trajectories (model requests) in flight")
      ->capture_default_str();
  c.cpu_jobs = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
  sub.add_option("--cpu-jobs", c.cpu_jobs, "compiles at a time")->capture_default_str();
  sub.add_option("--gpus", c.gpus,
                 "GPU evaluation queues, one per GPU (queue i evaluates on GPU i only)")
      ->capture_default_str();
  sub.add_option("--shard", o.shard,
                 "run shard I of N (I/N, 0 <= I < N) of the plan; default: from "
                 "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with "
                 "--shard-count, else the whole plan");
  sub.add_option("--shard-count", o.shard_count,
                 "the number of shards when the index comes from JOB_COMPLETION_INDEX "
                 "(a Kubernetes Indexed Job's completions)")
      ->check(unsigned_number(INT_MAX));
  sub.add_option("--fast-p", o.fast_p, "fast_p thresholds, e.g. 0.5,0.8,1.0,1.2");
  sub.add_option("--scripted-version", c.scripted_version,
                 "trajectories/<version> for the scripted agent")
      ->capture_default_str();
  sub.add_option("--out", o.out, "run file to create (default runs/<UTC time>.db)");
  sub.add_option("--resume", o.resume,
                 "continue this run file where it stopped (its stored settings apply)");
  sub.add_flag("--memcheck", o.memcheck,
               "also run each candidate under compute-sanitizer memcheck");
  add_shared_inputs_option(sub, o.shared_inputs);
  add_judge_url_options(sub, o);
  add_judging_options(sub, o.config.judging);
  sub.add_flag("--no-progress", o.no_progress, "plain progress lines even on a terminal");
  sub.add_flag("--json", o.json, "print the summary as JSON");
}

}  // namespace

Status check_run_options(const std::vector<std::string>& args, const Paths& paths) {
  for (std::size_t i = 0; i < args.size(); ++i) {  // as main() refuses them for run itself
    const std::string& a = args[i];
    if (a.starts_with("--") && a.size() > 2 && a.back() == '=')
      return make_error(a.substr(0, a.size() - 1) + " was given an empty value");
    if (a.empty())
      return make_error(i > 0 && args[i - 1].starts_with("-")
                            ? args[i - 1] + " was given an empty value"
                            : std::string("an empty argument"));
  }
  CLI::App sub{"ptxbench run"};
  RunOptions o;
  add_run_options(sub, o);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them so
    sub.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return make_error("--help asks for run's help, not a run", "drop --help");
  } catch (const CLI::ParseError& e) {
    return make_error(e.what());
  }
  if (!o.resume.empty()) return make_error("--resume continues one run file, not a new run");
  PTXB_TRY(std::vector<task::TaskSpec> all, task::load_tasks(paths.tasks()));
  PTXB_TRY_STATUS(check_agent_options(sub, o));
  PTXB_TRY_STATUS(build_config(o, all));
  PTXB_TRY_STATUS(plan_run(o.config, paths, all, {}));
  return {};
}

void attach_run(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<RunOptions>();
  add_run_options(sub, *o);
  sub.footer(with_help_footer(
      "Without --model, the embedded scripted agent replays trajectories/<version>/ (compile "
      "error, wrong result, correct without target instructions, then the reference kernel). "
      "Without a GPU, turns are compiled and statically audited only. A killed or interrupted "
      "run continues with --resume FILE (its stored settings apply; no other option goes with "
      "it but --json, --no-progress, --memcheck and the --judge-* options).\n\nShards "
      "(docs/scale-out.md): --shard I/N "
      "runs every N-th trajectory of the sorted plan (task x arch x sample), starting at the "
      "I-th; the N shards are disjoint and together the whole run, and `ptxbench merge` joins "
      "their files. Without --shard the shard comes from the scheduler: in a Slurm job array "
      "from SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT; in a "
      "Kubernetes Indexed Job from JOB_COMPLETION_INDEX with --shard-count N (the job's "
      "completions). --shard 0/1 runs the whole plan even there. The shard is recorded in the "
      "run file; --resume keeps it. --gpus applies within the shard."));
  sub.callback([o, &sub, &ctx] { ctx.exit_code = run_command(*o, sub, ctx); });
}

}  // namespace ptxbench::cli
