// `ptxbench slurm script|submit`: a run as a Slurm job array, one shard per array task
// (`run --shard I/N`), every shard's run file in one shared folder, and a merge job that
// starts when the array has ended (docs/scale-out.md). `script` prints the submission script;
// `submit` writes it into the folder and runs it (it calls sbatch twice).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <ctime>
#include <filesystem>
#include <ostream>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/run_setup.h"
#include "core/fs.h"
#include "core/interrupt.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "core/utf8.h"

namespace ptxbench::cli {
namespace {

namespace fs = std::filesystem;

struct SlurmOptions {
  int shards = 0;
  int gpus_per_shard = 1;
  int cpus_per_shard = 0;
  std::string dir;
  std::string partition;
  std::string time;
  std::string account;
  std::string job_name = "ptxbench";
  std::vector<std::string> sbatch_args;
  std::vector<std::string> run_args;
};

// `s` as one shell word.
std::string sh(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string sh_words(const std::vector<std::string>& words) {
  std::vector<std::string> q;
  for (const auto& w : words) q.push_back(sh(w));
  return join(q, " ");
}

// The `run` options the script sets itself, refused among the pass-through ones.
Status check_run_args(const SlurmOptions& o) {
  for (const auto& a : o.run_args)
    for (std::string_view own : {"--out", "--resume", "--shard", "--shard-count", "--gpus"})
      if (a == own || a.starts_with(std::string(own) + "="))
        return make_error(
            fmt::format("{} is set by the job script (one shard per array task, its run file "
                        "in --dir{})",
                        own, own == "--gpus" ? ", --gpus from --gpus-per-shard" : ""),
            "drop " + std::string(own) + " from the run options after --");
  return {};
}

// A value the script writes into a here-document (the folder, the ptxbench root, the program,
// the run options) may not hold a line break: a line equal to the document's end marker would
// end it early and run what follows it (issue 38). Everything else is quoted.
Status check_one_line(const std::string& what, const std::string& value) {
  if (value.find_first_of("\n\r") == std::string::npos) return {};
  return make_error(what + " holds a line break, which a job script cannot carry safely",
                    "choose a name without line breaks");
}

// --time in a form sbatch accepts (its manual: "minutes", "minutes:seconds",
// "hours:minutes:seconds", "days-hours", "days-hours:minutes", "days-hours:minutes:seconds"),
// every field digits: any other text went into the script and failed at submission.
Status check_time(const std::string& time) {
  auto digits = [](std::string_view f) {
    return !f.empty() && f.size() <= 9 &&
           std::all_of(f.begin(), f.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::string_view rest = time;  // without its days: H, H:M or H:M:S after D-, else M, M:S, H:M:S
  const std::size_t dash = rest.find('-');
  bool ok = dash == std::string_view::npos || digits(rest.substr(0, dash));
  if (dash != std::string_view::npos) rest.remove_prefix(dash + 1);
  const std::vector<std::string> fields = split(rest, ':');
  ok = ok && fields.size() <= 3 && std::all_of(fields.begin(), fields.end(), digits);
  if (ok) return {};
  return make_error("--time " + time + ": not a time limit sbatch accepts",
                    "use minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, e.g. --time "
                    "04:00:00 or --time 1-12");
}

Status check_options(SlurmOptions& o, const Context& ctx) {
  if (o.shards < 1) return make_error("--shards must be at least 1", "e.g. --shards 8");
  if (o.shards > 100000) return make_error("--shards is larger than a Slurm array may be");
  if (o.gpus_per_shard < 0 || o.gpus_per_shard > 64)
    return make_error(fmt::format("--gpus-per-shard {} is out of range", o.gpus_per_shard),
                      "use 0..64");
  if (!o.time.empty()) PTXB_TRY_STATUS(check_time(o.time));
  PTXB_TRY_STATUS(check_run_args(o));
  // sbatch takes a word that is no option as the batch script's name (campaign 6, L13).
  for (const auto& a : o.sbatch_args)
    if (a.empty() || a[0] != '-')
      return make_error("--sbatch-arg '" + a + "' is not an sbatch option (they start with -)",
                        "e.g. --sbatch-arg=--qos=high or --sbatch-arg=--constraint=h100");
  PTXB_TRY_STATUS(check_one_line("--dir", o.dir));
  PTXB_TRY_STATUS(check_one_line("the ptxbench root (PTXBENCH_ROOT)", ctx.paths.root.string()));
  for (const auto& a : o.run_args) PTXB_TRY_STATUS(check_one_line("a run option", a));
  // Every array task would refuse a bad run option (exit 2) on the cluster: refused here, with
  // run's own parser and checks and its message.
  if (auto st = check_run_options(o.run_args, ctx.paths); !st.ok())
    return make_error("run options after --: " + st.error().message, st.error().hint);
  if (o.dir.empty()) {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "runs/slurm-%Y%m%d-%H%M%S", &tm);
    o.dir = buf;
  }
  std::error_code ec;
  if (fs::exists(o.dir, ec) && !fs::is_directory(o.dir, ec))
    return make_error("--dir " + o.dir + " is a file; it names the shared output folder");
  o.dir = fs::absolute(o.dir).lexically_normal().string();
  return {};
}

std::string sbatch_options(const SlurmOptions& o, const std::string& name) {
  std::vector<std::string> words{"--parsable", "--job-name=" + name};
  if (!o.partition.empty()) words.push_back("--partition=" + o.partition);
  if (!o.time.empty()) words.push_back("--time=" + o.time);
  if (!o.account.empty()) words.push_back("--account=" + o.account);
  for (const auto& a : o.sbatch_args) words.push_back(a);
  return sh_words(words);
}

// sbatch reads %a, %j, ... in --output as its own patterns: a literal % is written %%.
std::string sbatch_pattern(const std::string& path) {
  std::string out;
  for (char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

std::string shard_file(const SlurmOptions& o, const std::string& index) {
  return fmt::format("{}/shard-{}-of-{}.db", o.dir, index, o.shards);
}

std::string make_script(const SlurmOptions& o, const Context& ctx) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const std::string exe = ec ? std::string("ptxbench") : self.string();
  std::vector<std::string> run{exe, "run", "--no-progress"};
  if (o.gpus_per_shard > 0) run.insert(run.end(), {"--gpus", std::to_string(o.gpus_per_shard)});
  run.insert(run.end(), o.run_args.begin(), o.run_args.end());
  std::vector<std::string> shards;
  for (int i = 0; i < o.shards; ++i) shards.push_back(shard_file(o, std::to_string(i)));
  std::string array_opts = sbatch_options(o, o.job_name);
  array_opts += fmt::format(
      " --array=0-{} --output={}", o.shards - 1,
      sh(sbatch_pattern(o.dir) + "/logs/shard-%a-of-" + std::to_string(o.shards) + ".out"));
  if (o.gpus_per_shard > 0) array_opts += fmt::format(" --gres=gpu:{}", o.gpus_per_shard);
  if (o.cpus_per_shard > 0) array_opts += fmt::format(" --cpus-per-task={}", o.cpus_per_shard);
  const std::string merge_opts =
      sbatch_options(o, o.job_name + "-merge") +
      fmt::format(" --output={}", sh(sbatch_pattern(o.dir) + "/logs/merge.out"));
  return fmt::format(
      R"(#!/usr/bin/env bash
# A ptxbench run as a Slurm job array (ptxbench {version}; docs/scale-out.md): {n} shards, one
# per array task, each `ptxbench run --shard I/{n}` into {dir_comment}
# (a folder every node must see), then a merge job once the array has ended.
# Submit it with `bash THIS_FILE` on a login node (or `ptxbench slurm submit` with the same
# options). A shard that was killed resumes where it stopped when its task runs again: submit
# this script again (finished shards end at once, the others continue, and the merge follows).
# The merge refuses an incomplete set and names what is missing.
set -euo pipefail
export PTXBENCH_ROOT={root}
mkdir -p {dir_q}/logs
array=$(sbatch {array_opts} <<'PTXBENCH_SHARD'
#!/usr/bin/env bash
set -euo pipefail
export PTXBENCH_ROOT={root}
file={dir_q}/shard-$SLURM_ARRAY_TASK_ID-of-{n}.db
if [ -e "$file" ]; then
  exec {exe} run --no-progress --resume "$file"
fi
exec {run} --shard "$SLURM_ARRAY_TASK_ID/{n}" --out "$file"
PTXBENCH_SHARD
)
# A job id is short; anything long is no id (and bash's ${{x%%;*}} takes quadratic time on it).
if [ "${{#array}}" -gt 200 ]; then array="${{#array}} characters"; fi
array=${{array%%;*}}
case "$array" in ''|*[!0-9_]*)
  echo "ptxbench: sbatch printed no job id for the shards ('$array'): nothing was submitted that this script can follow; check Slurm (sinfo, squeue) and submit again" >&2
  exit 1 ;;
esac
merge=$(sbatch {merge_opts} --dependency=afterany:"$array" <<'PTXBENCH_MERGE'
#!/usr/bin/env bash
set -euo pipefail
export PTXBENCH_ROOT={root}
exec {exe} merge {shards} --out {dir_q}/merged.db
PTXBENCH_MERGE
)
if [ "${{#merge}}" -gt 200 ]; then merge="${{#merge}} characters"; fi
merge=${{merge%%;*}}
case "$merge" in ''|*[!0-9_]*)
  echo "ptxbench: sbatch printed no job id for the merge ('$merge'); the shards are job $array: run ptxbench merge by hand when they end" >&2
  exit 1 ;;
esac
echo "shards: job array $array ({n} tasks); merge: job $merge ->" {merged_q}
)",
      fmt::arg("version", PTXBENCH_VERSION), fmt::arg("n", o.shards),
      fmt::arg("dir_comment", to_console_text(o.dir)),
      fmt::arg("merged_q", sh(o.dir + "/merged.db")), fmt::arg("dir_q", sh(o.dir)),
      fmt::arg("root", sh(ctx.paths.root.string())), fmt::arg("array_opts", array_opts),
      fmt::arg("merge_opts", merge_opts), fmt::arg("exe", sh(exe)), fmt::arg("run", sh_words(run)),
      fmt::arg("shards", sh_words(shards)));
}

// Bad input (2), unless the error is the machine's: a full disk is exit 1 (campaign 6, L29).
int slurm_fail(Context& ctx, std::string_view cmd, const Error& e) {
  ctx.err << "ptxbench slurm " << cmd << ": " << to_console_text(e.to_string()) << "\n";
  return exit_code_for(e, exit_code::bad_input);
}

int print_script(SlurmOptions& o, Context& ctx) {
  if (auto st = check_options(o, ctx); !st.ok()) return slurm_fail(ctx, "script", st.error());
  ctx.out << make_script(o, ctx);
  return exit_code::ok;
}

int submit(SlurmOptions& o, Context& ctx) {
  if (auto st = check_options(o, ctx); !st.ok()) return slurm_fail(ctx, "submit", st.error());
  if (find_on_path("sbatch").empty())
    return slurm_fail(
        ctx, "submit",
        make_error("sbatch (Slurm's job submission command) is not on PATH",
                   "run this on a node of the Slurm cluster (a login node), or print the "
                   "script with `ptxbench slurm script ...` and submit it there"));
  std::error_code ec;
  // A run file this run would write, already there (an earlier run's): its shard would resume
  // that run, with that run's settings, or the merge would fail at the end.
  std::vector<std::string> outputs;
  for (int i = 0; i < o.shards; ++i) outputs.push_back(shard_file(o, std::to_string(i)));
  outputs.push_back(o.dir + "/merged.db");
  for (const auto& f : outputs)
    if (fs::exists(f, ec))
      return slurm_fail(ctx, "submit",
                        make_error("--dir " + o.dir + " already holds " + f +
                                       ", a file this run would write (an earlier run's)",
                                   "choose another --dir, or remove " + f));
  fs::create_directories(o.dir, ec);
  if (ec)
    return slurm_fail(ctx, "submit", make_error("cannot create " + o.dir + ": " + ec.message()));
  const fs::path script = fs::path(o.dir) / "submit.sh";
  if (fs::exists(script, ec))
    return slurm_fail(
        ctx, "submit",
        make_error(script.string() + " already exists: this folder holds a submitted run",
                   "choose another --dir"));
  if (auto st = write_file_atomic(script, make_script(o, ctx)); !st.ok())
    return slurm_fail(ctx, "submit", st.error());
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"bash", script.string()};
  spec.limits.wall = std::chrono::seconds(300);
  InterruptScope interrupts;  // Ctrl-C stops the script and its sbatch at once (campaign 4, X16)
  auto r = runner.run(spec);
  if (!r.ok()) return slurm_fail(ctx, "submit", r.error());
  if (r->interrupted) {
    ctx.err << "ptxbench slurm submit: interrupted (" << interrupt_name(r->interrupted)
            << "): " << script.string()
            << " and its sbatch were stopped; check squeue for what was already submitted\n";
    return interrupted_exit_code(r->interrupted);
  }
  ctx.out << to_console_text(r->stdout_text);
  ctx.err << to_console_text(r->stderr_text);
  if (r->succeeded()) return exit_code::ok;
  ctx.err << "ptxbench slurm submit: " << script.string() << " ended with " << r->describe_end()
          << " (sbatch's message is above)\n";
  return exit_code::internal;
}

void add_options(CLI::App& c, SlurmOptions& o) {
  c.add_option("--shards", o.shards, "shards, one Slurm array task each")->required();
  c.add_option("--gpus-per-shard", o.gpus_per_shard,
               "GPUs per array task (--gres=gpu:N and `run --gpus N`; 0: none, no --gres)")
      ->check(unsigned_number(INT_MAX))
      ->capture_default_str();
  c.add_option("--cpus-per-shard", o.cpus_per_shard,
               "--cpus-per-task of each array task (default: Slurm's)")
      ->check(whole_range(1, 4096));
  c.add_option("--dir", o.dir,
               "the shared output folder (every node must see it; default "
               "runs/slurm-<UTC time>): shard-I-of-N.db, merged.db, logs/");
  c.add_option("--partition", o.partition, "sbatch --partition");
  c.add_option("--time", o.time, "sbatch --time of each job, e.g. 04:00:00");
  c.add_option("--account", o.account, "sbatch --account");
  c.add_option("--job-name", o.job_name, "sbatch --job-name (the merge job adds -merge)")
      ->capture_default_str();
  c.add_option("--sbatch-arg", o.sbatch_args, "one more sbatch option for both jobs (repeatable)")
      ->allow_extra_args(false);
  c.add_option("RUN_OPTIONS", o.run_args,
               "after --: the `ptxbench run` options of every shard, e.g. -- --tasks core "
               "--samples 4");
}

}  // namespace

void attach_slurm(CLI::App& sub, Context& ctx) {
  sub.require_subcommand(1);
  auto o = std::make_shared<SlurmOptions>();
  auto* script = sub.add_subcommand(
      "script", "print the submission script: a job array of shards and a dependent merge");
  add_options(*script, *o);
  script->callback([o, &ctx] { ctx.exit_code = print_script(*o, ctx); });
  auto* submit_cmd = sub.add_subcommand(
      "submit", "write the script into --dir and run it (sbatch must be on PATH)");
  add_options(*submit_cmd, *o);
  submit_cmd->callback([o, &ctx] { ctx.exit_code = submit(*o, ctx); });
  for (CLI::App* c : {script, submit_cmd})
    c->footer(with_help_footer(
        "Example: ptxbench slurm submit --shards 8 --gpus-per-shard 1 --partition gpu --time "
        "02:00:00 -- --tasks core --samples 4. Each array task runs `ptxbench run --shard "
        "$SLURM_ARRAY_TASK_ID/N`; the merge job (sbatch --dependency=afterany) writes "
        "merged.db. docs/scale-out.md"));
}

}  // namespace ptxbench::cli
