// `ptxbench gate KERNEL.cu... --task T [--arch A] [--min-speedup X] [--require-arch]
//  [--junit OUT.xml] [--json OUT.jsonl [--timeline]] [--candidate-output DIR]`: a CI gate. Judges
//  each kernel through the one judging driver
// (judge::Judge, as `ptxbench eval` does: compile, check, time against the library, audit),
// holds each verdict against the gate's rule (report/gate.h), prints one line per kernel and
// writes JUnit XML, and with --json one JSON line per kernel as it is judged (its gate verdict
// and the judge's report, as `eval --json` prints it). The kernels share one warm verifier
// process per GPU (eval/verifier_host.h). Every kernel file and the task are read before anything
// is judged (bad input: exit 2, nothing judged). Exit: 0 when every kernel passes its gate, else
// the first failing kernel's: its disposition's code (10 incorrect, 11 compile error, ..., 16
// correct without its target instructions under --require-arch, 1 ptxbench's own failure) or 17
// when its verdict is no failure but it misses the gate (slower than --min-speedup, or not
// evaluated: on a machine without a GPU nothing can pass).
#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "cli/candidate_input.h"
#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "cli/judging_options.h"
#include "cli/report_outputs.h"
#include "core/fs.h"
#include "core/interrupt.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "core/utf8.h"
#include "eval/candidate_output.h"
#include "eval/evaluator.h"
#include "report/gate.h"
#include "sandbox/sandbox.h"

namespace ptxbench::cli {
namespace {

struct GateArgs {
  std::vector<std::string> files;
  std::string task, arch = "sm_90a", junit, json;
  std::string candidate_output;  // a folder: one file per kernel, for a person
  std::optional<double> min_speedup;
  bool require_arch = false, timeline = false;
  bool allow_weaker_sandbox = false, shared_inputs = false;
  bool force = false;  // write over --junit/--json files that exist
  std::size_t max_source_bytes = compile::kDefaultMaxSourceBytes;
  ContractChoice contract;
  run::JudgingSettings judging;  // --trials, --call-timeout, --sample-budget, --library-plan
};

judge::JudgeOptions gate_judge_options(const GateArgs& a) {
  judge::JudgeOptions o;
  o.compile.arch = a.arch;
  o.compile.max_source_bytes = a.max_source_bytes;
  o.compile.contract = a.contract;
  o.eval.allow_weaker_sandbox = a.allow_weaker_sandbox;
  o.eval.timeline = a.timeline;
  apply_judging(a.judging, o.eval);
  o.run_audit = true;
  return o;
}

// Every kernel and the task, read before anything is judged.
Result<std::vector<CandidateInput>> load_all(const GateArgs& a, Context& ctx) {
  std::vector<CandidateInput> inputs;
  for (const auto& f : a.files) {
    PTXB_TRY(CandidateInput in,
             load_candidate_input(ctx.paths, f, a.task, a.arch, a.max_source_bytes));
    inputs.push_back(std::move(in));
  }
  return inputs;
}

// A --json file that could not be written whole is removed, and the cause said (campaign 3b
// X05: a cut file was left, and "writing j.jsonl failed" gave no reason).
int json_failed(Context& ctx, const std::string& path, int err) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  ctx.err << "ptxbench gate: writing " << to_console_text(path) << " failed: " << std::strerror(err)
          << " (the cut file was removed)\n";
  return exit_code::internal;
}

// One line of --json: the kernel, its gate verdict, the judge's report.
std::string json_line(const report::GateCase& c) {
  const Json gate{{"passed", c.verdict.passed},
                  {"exit_code", c.verdict.exit_code},
                  {"reason", c.verdict.reason}};
  return to_text(Json{{"file", c.file}, {"gate", gate}, {"report", c.report.to_json()}}) + "\n";
}

std::string verdict_text(const report::GateCase& c) {
  return c.verdict.passed ? fmt::format("PASS {}: {}\n", c.file, c.verdict.reason)
                          : fmt::format("FAIL {} (exit {}): {}\n", c.file, c.verdict.exit_code,
                                        c.verdict.reason);
}

// A kernel's file name as a name of a --candidate-output file: its letters, digits, '.', '_'
// and '-', anything else as '_'.
std::string candidate_output_name(const std::string& file) {
  std::string name = std::filesystem::path(file).filename().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return name;
}

int gate_main(const GateArgs& a, Context& ctx) {
  if (!path_variables_ok(ctx, "gate")) return exit_code::bad_input;
  for (const auto& [option, path] : {std::pair{"--junit", a.junit}, {"--json", a.json}})
    if (!path.empty())
      if (auto st = check_output(option, path, a.files, a.force); !st.ok()) {
        ctx.err << "ptxbench gate: " << to_console_text(st.error().to_string()) << "\n";
        return exit_code::bad_input;
      }
  if (!a.json.empty() && !a.junit.empty())
    if (auto st = check_distinct_outputs({{"--junit", a.junit}, {"--json", a.json}}); !st.ok()) {
      ctx.err << "ptxbench gate: " << to_console_text(st.error().to_string()) << "\n";
      return exit_code::bad_input;
    }
  if (!a.candidate_output.empty()) {
    std::error_code ec;
    const bool file_there = std::filesystem::exists(a.candidate_output, ec) &&
                            !std::filesystem::is_directory(a.candidate_output, ec);
    if (!file_there) std::filesystem::create_directories(a.candidate_output, ec);
    if (file_there || ec || !std::filesystem::is_directory(a.candidate_output)) {
      ctx.err << "ptxbench gate: --candidate-output "
              << to_console_text(a.candidate_output + " is not a folder that can be made: " +
                                 (file_there || !ec ? "a file is there" : ec.message()))
              << "\n";
      return exit_code::bad_input;
    }
  }
  auto inputs = load_all(a, ctx);
  if (!inputs.ok()) {
    ctx.err << "ptxbench gate: " << to_console_text(inputs.error().to_string()) << "\n";
    return exit_code::bad_input;
  }
  const report::GateRule rule{a.min_speedup, a.require_arch};
  if (!eval::Evaluator::gpu_available())
    ctx.err << "ptxbench gate: no GPU here: kernels are compiled and statically audited only, "
               "and a kernel that is not evaluated fails the gate (exit 17)\n";
  else if (a.shared_inputs && a.allow_weaker_sandbox)
    if (const auto weak = sandbox_weaknesses(probe_sandbox_support()); !weak.empty())
      ctx.err << "ptxbench gate: note: this machine lacks part of the candidate's sandbox ("
              << join(weak, "; ")
              << "): --shared-inputs does not apply here, each kernel is judged on input sets "
                 "of its own (eval/evaluator.h session_input_seed)\n";
  SystemProcessRunner runner;
  judge::JudgeOptions base = gate_judge_options(a);
  set_run_inputs(base, a.shared_inputs);  // --shared-inputs: one input seed for every kernel
  if (Status machine = set_judging_machine(base, ctx.paths, runner); !machine.ok()) {
    ctx.err << "ptxbench gate: " << to_console_text(machine.error().to_string()) << "\n";
    return exit_code::internal;
  }
  judge::ToolStages stages(ctx.paths, runner);
  InterruptScope interrupts;  // Ctrl-C stops nvcc and the workers
  std::vector<report::GateCase> cases;
  std::ofstream json;  // written as each kernel is judged: nothing lost when the gate stops
  int json_errno = 0;  // why its first write failed (EFBIG, ENOSPC)
  if (!a.json.empty()) {
    if (auto st = make_output_folder(a.json); !st.ok()) {
      ctx.err << "ptxbench gate: " << to_console_text(st.error().to_string()) << "\n";
      return exit_code::internal;
    }
    json.open(a.json, std::ios::trunc);
    if (!json) {
      ctx.err << "ptxbench gate: cannot write " << to_console_text(a.json) << "\n";
      return exit_code::bad_input;
    }
  }
  // Every kernel of the gate against the same library plan (eval/library_choices.h), with one
  // warm verifier process (eval/verifier_host.h).
  const auto choices = std::make_shared<eval::LibraryChoices>();
  const auto verifiers = std::make_shared<eval::VerifierHost>();
  for (std::size_t i = 0; i < inputs->size(); ++i) {
    const CandidateInput& in = (*inputs)[i];
    judge::JudgeOptions o = base;
    o.eval.library_choices = choices;
    o.eval.verifier_host = verifiers;
    o.compile.source_bytes = in.source_bytes;
    if (!a.candidate_output.empty()) {
      o.eval.candidate_output =
          std::filesystem::path(a.candidate_output) /
          fmt::format("{:03}-{}.txt", i + 1, candidate_output_name(a.files[i]));
      if (auto st = eval::start_candidate_output(o.eval.candidate_output); !st.ok())
        ctx.err << "ptxbench gate: warning: " << to_console_text(st.error().to_string()) << "\n";
    }
    judge::JudgeReport r = judge::Judge(stages).judge(in.spec, in.source, o);
    if (auto code = report_interrupt(ctx, "gate")) return *code;
    report::GateVerdict v = report::gate_verdict(r, rule);
    cases.push_back({a.files[i], std::move(r), std::move(v)});
    ctx.out << to_console_text(verdict_text(cases.back()));
    if (json && !(json << json_line(cases.back()) << std::flush) && !json_errno) json_errno = errno;
  }
  if (!a.json.empty()) {  // a full disk or a vanished file: the lines are lost, say so
    json.close();
    if (!json) return json_failed(ctx, a.json, json_errno ? json_errno : errno);
  }
  if (!a.junit.empty()) {
    auto st = make_output_folder(a.junit);
    if (st.ok())
      st = write_file_atomic(a.junit, report::gate_junit(cases, rule, a.task, a.arch),
                             a.force ? Replace::yes : Replace::no);
    if (!st.ok()) {
      ctx.err << "ptxbench gate: " << to_console_text(st.error().to_string()) << "\n";
      return exit_code::internal;
    }
    ctx.out << to_console_text("ptxbench gate: wrote " + a.junit + "\n");
  }
  return report::gate_exit_code(cases);
}

}  // namespace

void attach_gate(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<GateArgs>();
  sub.add_option("kernel", a->files, "the candidate .cu files (one or more)")->required();
  sub.add_option("--task", a->task, "the task every kernel implements (ptxbench tasks)")
      ->required();
  sub.add_option("--arch", a->arch, "sm_90a (Hopper) or sm_100a (Blackwell)")
      ->capture_default_str();
  sub.add_option("--min-speedup", a->min_speedup,
                 "fail a correct kernel slower than X times the library (library time / kernel "
                 "time below X)")
      ->check(finite_range(0.0, 1000.0));
  sub.add_flag("--require-arch", a->require_arch,
               "fail a correct kernel whose target instructions did not execute");
  sub.add_option("--junit", a->junit, "write JUnit XML: one testcase per kernel");
  CLI::Option* json =
      sub.add_option("--json", a->json,
                     "write JSON Lines, one per kernel as it is judged: {file, gate: {passed, "
                     "exit_code, reason}, report: the judge's report as eval --json prints it}");
  sub.add_flag("--force", a->force, "write over --junit or --json files that exist");
  sub.add_flag("--timeline", a->timeline,
               "with --json: each report's eval.timeline lists the judging session's round "
               "trips (as eval --timeline)")
      ->needs(json);
  add_source_limit_option(sub, a->max_source_bytes);
  add_contract_option(sub, a->contract, kCandidateContractHelp);
  sub.add_flag("--allow-weaker-sandbox", a->allow_weaker_sandbox,
               "judge even where this machine lacks part of the candidate's sandbox");
  add_shared_inputs_option(sub, a->shared_inputs);
  add_judging_options(sub, a->judging);
  sub.add_option("--candidate-output", a->candidate_output, kCandidateOutputHelp);
  sub.footer(with_help_footer(
      "Exit: 0 when every kernel passes its gate; else the first failing kernel's code: its "
      "verdict's (10-16, 1), or 17 when it is correct but misses the gate (slower than "
      "--min-speedup) or was not evaluated (no GPU here: nothing can pass)."));
  sub.callback([a, &ctx] { ctx.exit_code = gate_main(*a, ctx); });
}

}  // namespace ptxbench::cli
