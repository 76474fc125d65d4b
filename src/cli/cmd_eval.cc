// `ptxbench eval KERNEL.cu --task NAME [--arch sm_90a] [--json] [--seed N] [--input-seed N]
//  [--trials N] [--memcheck] [--no-timing] [--no-audit] [--library-plan fastest|heuristic]
//  [--timeline] [--candidate-output FILE]`, or `--task-config DEFINITION.json [--workloads
//  W.jsonl]` /
//  `--task-config MANIFEST.json --trace-set DIR` in place of --task (a FlashInfer-Trace
//  definition imported, interop/task_config.h; --json then adds the reference PTXBench's
//  ptxbench.eval.v1 fields, interop/eval_v1.h): judges one kernel (judge::Judge): compile (or hit
//  the compile cache), check correctness on fresh inputs in an isolated GPU worker, time against
//  the vendor baseline, audit the executed instructions, and print one verdict. Exit code: the
//  disposition's (judge::exit_code, README "Exit codes"); 2 bad input.
#include <ostream>
#include <string>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "cli/judging_options.h"
#include "core/utf8.h"
#include "eval/candidate_output.h"
#include "eval/evaluator.h"
#include "interop/task_config.h"
#include "store/store.h"

namespace ptxbench::cli {
namespace {

struct EvalArgs {
  std::string file, task, arch = "sm_90a";
  std::string task_config, workloads, trace_set;
  bool json = false, memcheck = false, no_timing = false;
  bool no_audit = false, timeline = false, reply = false;
  std::string candidate_output;  // --candidate-output FILE: for a person, never a model
  std::optional<std::uint64_t> seed, input_seed;
  run::JudgingSettings judging;  // --trials, --call-timeout, --sample-budget, --library-plan
  int timeout_s = 240;
  bool allow_weaker_sandbox = false;
  double sustained_load_ms = 0;
  std::size_t max_source_bytes = compile::kDefaultMaxSourceBytes;
  ContractChoice contract;
};

judge::JudgeOptions eval_judge_options(const EvalArgs& a) {
  judge::JudgeOptions o;
  o.compile.arch = a.arch;
  o.compile.max_source_bytes = a.max_source_bytes;
  o.compile.contract = a.contract;
  apply_judging(a.judging, o.eval);
  o.eval.seed = a.seed;
  o.eval.input_seed = a.input_seed;
  o.eval.memcheck = a.memcheck;
  o.eval.timing = !a.no_timing;
  o.eval.worker_timeout = std::chrono::seconds(a.timeout_s);
  o.eval.allow_weaker_sandbox = a.allow_weaker_sandbox;
  o.eval.sustained_load_ms = a.sustained_load_ms;
  o.eval.timeline = a.timeline;
  o.eval.candidate_output = a.candidate_output;
  o.run_audit = !a.no_audit;
  return o;
}

// eval --task-config: the imported task and the envelope's context; the manifest's architecture
// unless --arch was given, and its sanitizer runs as --memcheck.
int eval_with_config(Context& ctx, EvalArgs a, bool arch_given) {
  auto c = interop::load_task_config(a.task_config, a.workloads, a.trace_set);
  if (!c.ok()) {
    ctx.err << "ptxbench eval: " << to_console_text(c.error().to_string()) << "\n";
    return exit_code_for(c.error(), exit_code::bad_input);
  }
  if (c->arch && !arch_given) a.arch = *c->arch;
  if (c->sanitizer_runs > 0) a.memcheck = true;
  ImportedConfig config;
  config.spec = c->task.spec;
  config.v1.task_id = c->task_id;
  config.v1.workload_uuids = c->workload_uuids;
  config.v1.target_speedup = c->target_speedup;
  config.v1.requested_sanitizer_runs =
      c->sanitizer_runs > 0 ? c->sanitizer_runs : (a.memcheck ? 1 : 0);
  config.v1.labels.definition = c->task.definition;
  config.v1.labels.solution = "eval_kernel";
  config.v1.labels.timestamp = store::utc_now();
  config.v1.labels.timed_uuid = c->task.timed_uuid;
  config.v1.labels.timed_axes = c->task.fib_timed_axes;
  config.v1.labels.inputs = c->task.fib_inputs;
  return judge_candidate(ctx, "eval", a.file, a.task, eval_judge_options(a), a.json, a.reply,
                         &config);
}

}  // namespace

void attach_eval(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<EvalArgs>();
  CLI::Option* task = add_candidate_options(sub, args->file, args->task, args->arch, false);
  CLI::Option* config =
      sub.add_option("--task-config", args->task_config,
                     "instead of --task: a FlashInfer-Trace definition (.json; imported as "
                     "`import-fib` does), or the reference PTXBench's task manifest (with "
                     "--trace-set); --json then adds the reference's ptxbench.eval.v1 fields "
                     "(docs/interop.md)")
          ->excludes(task);
  sub.add_option("--workloads", args->workloads,
                 "with a definition as --task-config: its workloads (.jsonl); one is timed")
      ->needs(config);
  sub.add_option("--trace-set", args->trace_set,
                 "with a manifest as --task-config: the FlashInfer-Trace folder holding its "
                 "definition and workloads")
      ->needs(config);
  add_source_limit_option(sub, args->max_source_bytes);
  add_contract_option(sub, args->contract, kCandidateContractHelp);
  add_reply_option(sub, args->reply);
  CLI::Option* json = sub.add_flag(
      "--json", args->json, "print the judge's report (disposition, compile, eval, audit) as JSON");
  sub.add_option("--seed", args->seed, "the run's seed (default: random; always recorded)")
      ->check(unsigned_number());
  sub.add_option("--input-seed", args->input_seed,
                 "the base input sets' seed (a run's eval.input_seed: with --seed, judges a run's "
                 "candidate on exactly the inputs it had; default: from --seed)")
      ->check(unsigned_number());
  add_judging_options(sub, args->judging);
  sub.add_flag("--memcheck", args->memcheck, "also run a trial under compute-sanitizer memcheck");
  sub.add_flag("--no-timing", args->no_timing, "check correctness only");
  sub.add_flag("--no-audit", args->no_audit,
               "skip the instruction audit (which target instructions executed)");
  sub.add_option("--timeout", args->timeout_s, "the candidate worker's wall-clock limit in seconds")
      ->check(whole_range(10, 3600))
      ->capture_default_str();
  sub.add_option("--sustained-load-ms", args->sustained_load_ms,
                 "milliseconds of the library run back to back before every burst of the "
                 "candidate's calls (checked, timed and audited alike), so each call starts on a "
                 "GPU in the state a tight benchmark loop keeps it in; 0: none")
      ->check(finite_range(0.0, 10000.0))
      ->capture_default_str();
  sub.add_flag("--timeline", args->timeline,
               "with --json: the report's eval.timeline lists every round trip of the judging "
               "session with the verifier and runner processes ([phase, kind, start ms, length "
               "ms, workload, runner]): where the judging time went")
      ->needs(json);
  sub.add_flag("--allow-weaker-sandbox", args->allow_weaker_sandbox,
               "judge even where this machine lacks part of the candidate's sandbox (Landlock, "
               "seccomp, an unprivileged user); the result records what was missing");
  sub.add_option("--candidate-output", args->candidate_output, kCandidateOutputHelp);
  CLI::Option* arch = sub.get_option("--arch");
  sub.callback([args, arch, &ctx] {
    if (args->task.empty() && args->task_config.empty()) {
      ctx.err << "ptxbench eval: --task or --task-config is required (`ptxbench tasks` lists "
                 "the tasks)\n";
      ctx.exit_code = exit_code::bad_input;
      return;
    }
    if (!args->candidate_output.empty())
      if (auto st = eval::start_candidate_output(args->candidate_output); !st.ok()) {
        ctx.err << "ptxbench eval: " << to_console_text(st.error().to_string()) << "\n";
        ctx.exit_code = exit_code::bad_input;
        return;
      }
    if (!args->task_config.empty()) {
      ctx.exit_code = eval_with_config(ctx, *args, arch->count() > 0);
      return;
    }
    ctx.exit_code = judge_candidate(ctx, "eval", args->file, args->task, eval_judge_options(*args),
                                    args->json, args->reply);
  });
}

}  // namespace ptxbench::cli
