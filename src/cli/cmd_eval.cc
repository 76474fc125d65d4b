// `ptxbench eval KERNEL.cu --task NAME [--arch sm_90a] [--json] [--seed N] [--input-seed N]
//  [--trials N] [--memcheck] [--no-timing] [--no-audit] [--library-plan fastest|heuristic]
//  [--timeline] [--candidate-output FILE]`: judges one kernel (judge::Judge): compile (or hit the
//  compile cache), check correctness on fresh inputs in an isolated GPU worker, time against the
//  vendor baseline, audit the executed instructions, and print one verdict. Exit code: the
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

namespace ptxbench::cli {
namespace {

struct EvalArgs {
  std::string file, task, arch = "sm_90a";
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

judge::JudgeOptions judge_options(const EvalArgs& a) {
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

}  // namespace

void attach_eval(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<EvalArgs>();
  add_candidate_options(sub, args->file, args->task, args->arch);
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
  sub.callback([args, &ctx] {
    if (!args->candidate_output.empty())
      if (auto st = eval::start_candidate_output(args->candidate_output); !st.ok()) {
        ctx.err << "ptxbench eval: " << to_console_text(st.error().to_string()) << "\n";
        ctx.exit_code = exit_code::bad_input;
        return;
      }
    ctx.exit_code = judge_candidate(ctx, "eval", args->file, args->task, judge_options(*args),
                                    args->json, args->reply);
  });
}

}  // namespace ptxbench::cli
