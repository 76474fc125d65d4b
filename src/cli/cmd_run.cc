// `ptxbench run`: multi-turn sessions (model x task x arch x sample) into one SQLite
// run file, with a live progress display on stderr and the per-task summary at the end.
// Without --model the embedded scripted agent replays trajectories/<version>/.
#include <fmt/format.h>
#include <unistd.h>

#include <ctime>
#include <ostream>
#include <thread>

#include "cli/command.h"
#include "core/fs.h"
#include "core/gpu_select.h"
#include "core/text.h"
#include "eval/evaluator.h"
#include "judge/judge.h"
#include "llm/extract.h"
#include "prompt/prompt.h"
#include "report/console.h"
#include "report/progress.h"
#include "report/summary.h"
#include "session/loop.h"
#include "session/model_client.h"
#include "session/provenance.h"
#include "session/scripted_agent.h"
#include "session/stage_pipeline.h"
#include "task/loader.h"

#ifndef PTXBENCH_VERSION
#define PTXBENCH_VERSION "0.0.0"
#endif

namespace ptxbench::cli {
namespace {

struct RunOptions {
  session::RunConfig config;
  std::string tasks = "core";
  std::string archs = "sm_90a";
  std::string fast_p;
  std::string out;
  std::string resume;
  bool json = false;
  bool no_progress = false;
  bool memcheck = false;
};

Result<std::vector<std::string>> resolve_tasks(const std::string& selector,
                                               const std::vector<task::TaskSpec>& all) {
  std::vector<std::string> out;
  if (selector == "core" || selector == "extended" || selector == "all") {
    for (const auto& t : all)
      if (selector == "all" || t.in_suite(selector)) out.push_back(t.name);
    return out;
  }
  for (const auto& name : split(selector, ',')) {
    std::string n(trim(name));
    if (n.empty()) continue;
    bool known =
        std::any_of(all.begin(), all.end(), [&](const task::TaskSpec& t) { return t.name == n; });
    if (!known)
      return make_error("unknown task '" + n + "'",
                        "`ptxbench tasks` lists them; or pass core, extended, all");
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Status build_config(RunOptions& o, const std::vector<task::TaskSpec>& all) {
  session::RunConfig& c = o.config;
  c.task_selector = o.tasks;
  PTXB_TRY(c.tasks, resolve_tasks(o.tasks, all));
  c.archs.clear();
  for (const auto& a : split(o.archs, ',')) {
    std::string arch(trim(a));
    if (!task::is_known_arch(arch))
      return make_error("unknown architecture '" + arch + "'", "use sm_90a or sm_100a");
    c.archs.push_back(arch);
  }
  if (!o.fast_p.empty()) {
    c.fast_p.clear();
    for (const auto& p : split(o.fast_p, ',')) {
      try {
        c.fast_p.push_back(std::stod(std::string(trim(p))));
      } catch (const std::exception&) {
        return make_error("--fast-p: '" + p + "' is not a number", "e.g. --fast-p 0.5,0.8,1.0,1.2");
      }
    }
  }
  c.turn_budgets.clear();
  for (int t : {1, 4, 8})
    if (t < c.turns) c.turn_budgets.push_back(t);
  c.turn_budgets.push_back(c.turns);
  return c.validate();
}

std::string default_out() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "runs/%Y%m%d-%H%M%S.db", &tm);
  return buf;
}

// The agent's clients, and (scripted agent only) which task/arch pairs it has a trajectory for.
struct Clients {
  std::shared_ptr<session::ClientFactory> factory;
  std::function<bool(const std::string&, const std::string&)> available;  // empty: all
};

Result<Clients> make_clients(const session::RunConfig& c, const Paths& paths) {
  if (c.scripted()) {
    auto scripted = std::make_shared<session::ScriptedClientFactory>(paths, c.scripted_version);
    return Clients{scripted, [scripted](const std::string& t, const std::string& a) {
                     return scripted->has(t, a);
                   }};
  }
  PTXB_TRY(std::shared_ptr<llm::ChatClient> client, session::make_model_client(c.model));
  return Clients{std::make_shared<session::SharedClientFactory>(std::move(client)), {}};
}

session::PromptFn prompt_fn(const Paths& paths, double speedup_target) {
  return [paths, speedup_target](const task::TaskSpec& t, const std::string& arch,
                                 const std::string& level) -> Result<session::PromptMessages> {
    prompt::PromptOptions po;
    po.speedup_target = speedup_target;
    PTXB_TRY(prompt::PromptBundle b, prompt::build_messages(t, arch, level, paths, po));
    return session::PromptMessages{b.system, b.user};
  };
}

// One evaluation queue per GPU: more queues than usable GPUs would leave some with none.
Status check_gpus(int gpus, bool gpu_here) {
  const int n = visible_gpu_count(std::getenv("CUDA_VISIBLE_DEVICES"), machine_gpu_count());
  if (!gpu_here || n < 0 || gpus <= n) return {};
  return make_error(fmt::format("--gpus {} but this process may use {} GPU(s)", gpus, n),
                    "give --gpus at most the number of GPUs (CUDA_VISIBLE_DEVICES limits it)");
}

int fail(Context& ctx, const Error& e) {
  ctx.err << "ptxbench run: " << e.to_string() << "\n";
  return exit_code::bad_input;
}

// Opens (resume) or creates the run file and settles the configuration; the settled
// configuration's --gpus is checked before the file is created or reopened.
Result<store::RunStore> open_run(RunOptions& o, Context& ctx,
                                 const std::vector<task::TaskSpec>& all, const Json& pipeline_info,
                                 ProcessRunner& runner, bool gpu_here) {
  if (!o.resume.empty()) {
    PTXB_TRY(store::RunStore s, store::RunStore::open(o.resume));
    PTXB_TRY(store::RunRow row, s.run());
    PTXB_TRY(o.config, session::RunConfig::from_json(row.config));
    PTXB_TRY_STATUS(check_gpus(o.config.gpus, gpu_here));
    PTXB_TRY_STATUS(s.reopen_run());
    ctx.err << "resuming " << o.resume << " (created " << row.created_at
            << "; its stored configuration is used)\n";
    return s;
  }
  PTXB_TRY_STATUS(build_config(o, all));
  PTXB_TRY_STATUS(check_gpus(o.config.gpus, gpu_here));
  if (o.out.empty()) o.out = default_out();
  Json prov = session::collect_provenance(ctx.paths, runner, PTXBENCH_VERSION, ctx.argv);
  prov["pipeline"] = pipeline_info;
  return store::RunStore::create(o.out, o.config.to_json(), prov);
}

int run_command(RunOptions& o, Context& ctx) {
  auto all = task::load_tasks(ctx.paths.tasks());
  if (!all.ok()) return fail(ctx, all.error());
  SystemProcessRunner runner;
  judge::JudgeOptions so;
  so.gpu = eval::Evaluator::gpu_available();
  so.eval.memcheck = o.memcheck;
  session::StagePipeline pipeline(ctx.paths, runner, so);
  auto st = open_run(o, ctx, *all, pipeline.describe(), runner, so.gpu);
  if (!st.ok()) return fail(ctx, st.error());
  const session::RunConfig& c = o.config;
  auto clients = make_clients(c, ctx.paths);
  if (!clients.ok()) return fail(ctx, clients.error());

  auto plan = session::plan_trajectories(c, *all, clients->available);
  if (plan.empty())
    return fail(ctx,
                make_error("nothing to run: no selected task supports the selected architectures" +
                           std::string(c.scripted() ? " with a scripted trajectory" : "")));
  ctx.err << fmt::format(
      "ptxbench run -> {}\nagent: {}; tasks: {}; arch: {}; {}\n", st->path().string(),
      c.model_label(), join(c.tasks, ","), join(c.archs, ","),
      so.gpu ? "GPU: full evaluation and run-time instruction audit"
             : "no GPU: compile + static SASS census only; GPU stages are marked skipped");

  report::ProgressDisplay progress(ctx.err, !o.no_progress && isatty(STDERR_FILENO));
  session::LoopDeps deps{*st,
                         pipeline,
                         *clients->factory,
                         prompt_fn(ctx.paths, c.speedup_target),
                         [](const std::string& reply) { return llm::extract_code(reply); },
                         &progress};
  auto totals = session::run_all(c, plan, *all, deps);
  progress.close();
  if (!totals.ok()) {
    ctx.err << "ptxbench run: " << totals.error().to_string()
            << "\nresume with: ptxbench run --resume " << st->path().string() << "\n";
    return exit_code::internal;
  }
  auto data = report::load_run(*st);
  if (!data.ok()) return fail(ctx, data.error());
  report::Summary summary = report::summarize(*data);
  if (o.json)
    report::print_json(ctx.out, summary);
  else
    report::print_console(ctx.out, summary);
  if (totals->failed > 0) {
    for (const auto& e : totals->errors) ctx.err << "failed: " << e << "\n";
    ctx.err << "resume with: ptxbench run --resume " << st->path().string() << "\n";
    return exit_code::internal;
  }
  return exit_code::ok;
}

}  // namespace

void attach_run(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<RunOptions>();
  session::RunConfig& c = o->config;
  sub.footer(
      "Without --model, the embedded scripted agent replays trajectories/<version>/ (compile "
      "error, wrong "
      "result, correct without target instructions, then the reference kernel). Without a GPU, "
      "turns are "
      "compiled and statically audited only. A killed run continues with --resume FILE.");
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
  sub.add_option("--request-timeout", c.model.request_timeout_s, "seconds per request attempt")
      ->capture_default_str();
  sub.add_option("--tasks", o->tasks, "core, extended, all, or comma-separated task names")
      ->capture_default_str();
  sub.add_option("--arch", o->archs, "sm_90a, sm_100a, or both comma-separated")
      ->capture_default_str();
  sub.add_option("--turns", c.turns, "turn budget per trajectory")->capture_default_str();
  sub.add_option("--samples", c.samples, "trajectories per (task, arch)")->capture_default_str();
  sub.add_option("--context", c.context, "prompt context level (see `ptxbench prompt`)")
      ->capture_default_str();
  sub.add_option("--speedup-target", c.speedup_target, "stop once correct, executing and this fast")
      ->capture_default_str();
  sub.add_option("--concurrency", c.concurrency, "trajectories (model requests) in flight")
      ->capture_default_str();
  c.cpu_jobs = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
  sub.add_option("--cpu-jobs", c.cpu_jobs, "compiles at a time")->capture_default_str();
  sub.add_option("--gpus", c.gpus,
                 "GPU evaluation queues, one per GPU (queue i evaluates on GPU i only)")
      ->capture_default_str();
  sub.add_option("--fast-p", o->fast_p, "fast_p thresholds, e.g. 0.5,0.8,1.0,1.2");
  sub.add_option("--scripted-version", c.scripted_version,
                 "trajectories/<version> for the scripted agent")
      ->capture_default_str();
  sub.add_option("--out", o->out, "run file to create (default runs/<UTC time>.db)");
  sub.add_option("--resume", o->resume,
                 "continue this run file where it stopped (its stored settings apply)");
  sub.add_flag("--memcheck", o->memcheck,
               "also run each candidate under compute-sanitizer memcheck");
  sub.add_flag("--no-progress", o->no_progress, "plain progress lines even on a terminal");
  sub.add_flag("--json", o->json, "print the summary as JSON");
  sub.callback([o, &ctx] { ctx.exit_code = run_command(*o, ctx); });
}

}  // namespace ptxbench::cli
