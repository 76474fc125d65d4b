#include "cli/run_setup.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "core/text.h"
#include "run/stage_pipeline.h"
#include "serve/remote_judge.h"
#include "store/store.h"
#include "task/loader.h"

namespace ptxbench::cli {
namespace {

// The names of the options given on the command line, among `names`.
std::vector<std::string> given(const CLI::App& sub, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if (sub.count(n) > 0) out.push_back(n);
  return out;
}

std::vector<std::string> option_names(const CLI::App& sub) {
  std::vector<std::string> out;
  for (const CLI::Option* opt : sub.get_options())
    if (opt->get_lnames().size() == 1) out.push_back("--" + opt->get_lnames().front());
  return out;
}

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
    const bool suite = n == "core" || n == "extended" || n == "all";
    if (suite)  // campaign 7, X73: the hint offered the very value refused
      return make_error("'" + n +
                            "' is a suite, and a suite is --tasks' whole value, never one "
                            "item of a list ('" +
                            selector + "')",
                        "pass --tasks " + n + " alone, or list task names (`ptxbench tasks`)");
    if (!known)
      return make_error("unknown task '" + n + "'",
                        "`ptxbench tasks` lists them; or pass core, extended, all");
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());  // a task named twice runs once
  return out;
}

Result<std::vector<double>> parse_fast_p(const std::string& list) {
  std::vector<double> out;
  for (const auto& p : split(list, ',')) {
    std::string text(trim(p));
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
      return make_error("--fast-p: '" + text + "' is not a number",
                        "e.g. --fast-p 0.5,0.8,1.0,1.2");
    out.push_back(v);
  }
  return out;
}

}  // namespace

Status check_resume_options(const CLI::App& sub) {
  std::vector<std::string> names = option_names(sub);
  std::erase_if(names, [](const std::string& n) {
    return n == "--resume" || n == "--json" || n == "--no-progress" || n == "--memcheck" ||
           n.starts_with("--judge-") || n == "--help";
  });
  std::vector<std::string> extra = given(sub, names);
  if (extra.empty()) return {};
  return make_error("--resume continues a run with the settings stored in it; " +
                        join(extra, ", ") + " would be ignored",
                    "drop " + join(extra, " and ") + "; to use " +
                        (extra.size() == 1 ? "it" : "them") + ", start a new run without --resume");
}

Status check_agent_options(const CLI::App& sub, const RunOptions& o) {
  if (o.config.scripted()) {
    std::vector<std::string> extra = given(
        sub, {"--base-url", "--api-key-env", "--temperature", "--top-p", "--max-tokens",
              "--request-timeout", "--attempts", "--retry-max-s", "--stream", "--stall-timeout"});
    if (!extra.empty())
      return make_error(join(extra, ", ") + " need" + (extra.size() == 1 ? "s" : "") +
                            " --model (without --model the embedded scripted agent runs)",
                        "pass the id the server serves, e.g. --model Qwen/Qwen3-8B");
  } else if (sub.count("--scripted-version") > 0) {
    return make_error("--scripted-version is for the scripted agent, not --model",
                      "drop --scripted-version, or drop --model");
  }
  return {};
}

Status check_out_path(const std::string& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(out);
  if (out.ends_with('/') && !fs::exists(p, ec))  // campaign 3b R15: an empty folder was made
    return make_error(
        "--out " + out + " names a folder",
        "give the new run file's name, e.g. --out " + (p / "run.db").lexically_normal().string());
  if (fs::is_directory(p, ec))
    return make_error("--out " + out + " is a folder; it names the run file to create",
                      "e.g. --out " + (p / "run.db").string());
  if (fs::exists(p, ec)) {
    if (store::RunStore::open_read_only(p).ok())
      return make_error(
          out + " already exists (a run file)",
          "continue it with `ptxbench run --resume " + out + "`, or choose another --out");
    return make_error(out + " already exists and is not a run file",
                      "choose another --out; ptxbench does not overwrite files");
  }
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  for (fs::path q = parent; !q.empty(); q = q.parent_path()) {
    if (fs::exists(q, ec)) {
      if (!fs::is_directory(q, ec))
        return make_error("--out " + out + ": " + q.string() + " is not a folder");
      break;
    }
    if (q == q.parent_path()) break;
  }
  return {};
}

Status build_config(RunOptions& o, const std::vector<task::TaskSpec>& all) {
  run::RunConfig& c = o.config;
  c.task_selector = o.tasks;
  PTXB_TRY(c.tasks, resolve_tasks(o.tasks, all));
  c.archs.clear();
  for (const auto& a : split(o.archs, ',')) {
    std::string arch(trim(a));
    if (!task::is_known_arch(arch))
      return make_error("unknown architecture '" + arch + "'", "use sm_90a or sm_100a");
    if (std::find(c.archs.begin(), c.archs.end(), arch) == c.archs.end()) c.archs.push_back(arch);
  }
  if (!o.fast_p.empty()) {
    PTXB_TRY(c.fast_p, parse_fast_p(o.fast_p));
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

// The run's judge: this process's stages, or (--judge-url) a `ptxbench serve` elsewhere.
Result<std::unique_ptr<run::CandidatePipeline>> make_judge(const RunOptions& o, const CLI::App& sub,
                                                           Context& ctx, ProcessRunner& runner,
                                                           const judge::JudgeOptions& so) {
  if (o.judge_url.empty()) {
    for (const char* n : {"--judge-token-env", "--judge-retry-s"})
      if (sub.count(n) > 0)
        return make_error(std::string(n) + " needs --judge-url", "drop it, or give --judge-url");
    return std::unique_ptr<run::CandidatePipeline>(
        std::make_unique<run::StagePipeline>(ctx.paths, runner, so));
  }
  if (o.memcheck || o.shared_inputs)
    return make_error(fmt::format("{} is this process's judging; with --judge-url the service "
                                  "judges, with its own settings",
                                  o.memcheck ? "--memcheck" : "--shared-inputs"),
                      "drop it, or judge here without --judge-url");
  serve::RemoteJudgeOptions ro;
  ro.url = o.judge_url;
  ro.contract = o.config.contract;
  ro.retry_max_s = o.judge_retry_s;
  if (const char* t = std::getenv(o.judge_token_env.c_str()); t && *t)
    ro.token = std::string(trim(t));
  else if (sub.count("--judge-token-env") > 0)
    return make_error(
        fmt::format("--judge-token-env {} but that variable is empty or unset", o.judge_token_env),
        "export it with the service's token");
  PTXB_TRY(std::unique_ptr<serve::RemoteJudge> remote, serve::RemoteJudge::connect(ro));
  return std::unique_ptr<run::CandidatePipeline>(std::move(remote));
}

void add_judge_url_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("--judge-url", o.judge_url,
                 "judge every candidate at this `ptxbench serve` (http://HOST:PORT/v1) instead "
                 "of in this process; its judging settings apply (docs/serve.md); with --resume "
                 "too");
  sub.add_option("--judge-token-env", o.judge_token_env,
                 "environment variable holding the service's bearer token (with --judge-url)")
      ->capture_default_str();
  sub.add_option("--judge-retry-s", o.judge_retry_s,
                 "seconds a request to the judge is retried (a full queue, 5xx, a lost "
                 "connection) before the trajectory fails (resume it later)")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 86400.0));
}

// On resume, the trajectories this run has finished (stored done), read without writing: when
// the run is marked done and every trajectory of its plan is among them, there is nothing to
// resume, and reopening the file would only rewrite it (its schema upgraded, finished_at
// replaced, a stray -wal beside it removed; issue 38). A failed trajectory is run again, a
// missing one added, and a run still marked running (killed after its last trajectory) is
// resumed, to be marked done.
Result<std::optional<std::size_t>> finished_run(const std::string& file,
                                                const std::vector<store::TrajectoryKey>& plan) {
  PTXB_TRY(store::RunStore s, store::RunStore::open_read_only(file));
  PTXB_TRY(store::RunRow row, s.run());
  if (row.status != store::RunStatus::done) return std::optional<std::size_t>();
  PTXB_TRY(std::vector<store::TrajectoryRow> rows, s.trajectories());
  std::set<store::TrajectoryKey> done;
  for (const auto& r : rows)
    if (r.status == store::TrajectoryStatus::done) done.insert(r.key);
  for (const auto& k : plan)
    if (done.count(k) == 0) return std::optional<std::size_t>();
  return std::optional<std::size_t>(plan.size());
}

}  // namespace ptxbench::cli
