// `ptxbench run` before its run file exists: the options, checked together (the
// combinations, --out, the configuration they make), so that a bad option is refused
// before any file is created or reopened.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "judge/judge.h"
#include "run/config.h"
#include "run/pipeline.h"
#include "store/store.h"
#include "task/spec.h"

namespace ptxbench::cli {

struct RunOptions {
  run::RunConfig config;
  std::string tasks = "core";
  std::string archs = "sm_90a";
  std::string fast_p;
  std::string out;
  std::string resume;
  std::string shard;    // --shard I/N; empty: from the environment (run/shard.h)
  int shard_count = 0;  // --shard-count N, with JOB_COMPLETION_INDEX; 0: not given
  bool json = false;
  bool no_progress = false;
  bool memcheck = false;
  bool shared_inputs = false;
  // --judge-url: a `ptxbench serve` judges each candidate (serve/remote_judge.h); its token
  // from the environment variable --judge-token-env names.
  std::string judge_url;
  std::string judge_token_env = "PTXBENCH_SERVE_TOKEN";
  double judge_retry_s = 120;  // how long a request to the judge is retried
};

// --resume continues with the run's stored settings: any option that would change them
// is refused, by name (only --json, --no-progress, --memcheck and the --judge-* options go
// with it; a resumed run
// keeps its stored input policy, provenance pipeline.inputs).
Status check_resume_options(const CLI::App& sub);

// Options that only a model endpoint uses, given without --model (the scripted agent
// would ignore them), are refused by name; so is --scripted-version with --model.
Status check_agent_options(const CLI::App& sub, const RunOptions& o);

// --out must name a file that does not exist yet, in a folder that exists or can be made.
// The advice says what to do with what is there (a folder; a run to resume; another file).
Status check_out_path(const std::string& out);

// The configuration from the options: tasks and architectures resolved, validated.
Status build_config(RunOptions& o, const std::vector<task::TaskSpec>& all);

// runs/<UTC time>.db
std::string default_out();

// The `run` options of another command line (the shards of `slurm script|submit`), checked as
// `run` checks its own before a run file exists: run's parser, then the configuration, the
// endpoint options, the plan and its prompts (not the GPUs or the environment of the machine
// that checks). The error is run's message. Defined with run's options, in cmd_run.cc.
Status check_run_options(const std::vector<std::string>& args, const Paths& paths);

// The run's judge: this process's stages (run/stage_pipeline.h), or with --judge-url a
// `ptxbench serve` elsewhere (serve/remote_judge.h), after asking its health: an Error when it
// cannot be reached or refuses the token, or for options only an in-process judge has
// (--memcheck, --shared-inputs).
Result<std::unique_ptr<run::CandidatePipeline>> make_judge(const RunOptions& o, const CLI::App& sub,
                                                           Context& ctx, ProcessRunner& runner,
                                                           const judge::JudgeOptions& so);
// --judge-url, --judge-token-env and --judge-retry-s.
void add_judge_url_options(CLI::App& sub, RunOptions& o);

// On resume, how many trajectories of `plan` the finished run `file` holds done, read without
// writing; nullopt when it is not finished (something of the plan is left to run).
Result<std::optional<std::size_t>> finished_run(const std::string& file,
                                                const std::vector<store::TrajectoryKey>& plan);

}  // namespace ptxbench::cli
