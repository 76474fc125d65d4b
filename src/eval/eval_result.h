// EvalResult: everything one GPU evaluation of a candidate established, as plain
// data (to_json for the store and --json; summary()/feedback() for people and models).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/outcome.h"
#include "eval/audit_trace.h"
#include "eval/flags.h"
#include "eval/gpu/compare_stats.h"
#include "eval/speedup_basis.h"
#include "eval/stats.h"
#include "eval/timeline.h"
#include "task/hidden_draw.h"

namespace ptxbench::eval {

// Which kind of workload a failure happened on, from the session's plan (plan.h: a workload is
// hidden or the timed one); never parsed from a label.
enum class FailedOn { none, timed, hidden };
std::string_view to_string(FailedOn f);
std::optional<FailedOn> failed_on_from_string(std::string_view s);  // none for an unknown name

struct TrialReport {
  int index = 0;
  std::string label;  // for people: a hidden workload's label names its sizes
  // The workload's name from the plan ("timed"); empty on a hidden workload (its name is its
  // kind, failed_kind says that). Read as data, never parsed out of `label`.
  std::string workload;
  bool hidden = false;  // on a hidden workload
  // On a public workload, made after the candidate's process had run a hidden one: its wrong
  // values' counts, positions and sizes may carry that workload's sizes, so they are shown to a
  // person (the JSON, `withheld`), never to a model (feedback()).
  bool after_hidden = false;
  // Whether the figures of this trial's wrong outputs may reach a model.
  bool figures_shown() const { return !hidden && !after_hidden; }
  std::uint64_t seed = 0;
  bool passed = false;
  std::vector<gpu::CompareStats> outputs;
  Json to_json() const;
};

struct TimingReport {
  std::string workload;
  SampleSummary candidate, baseline;  // milliseconds
  std::string stop_reason;
  std::string baseline_name, baseline_description, baseline_error;
  double flops = 0;               // of the timed workload
  std::optional<double> speedup;  // baseline median / candidate median
  // Half-width of the speedup's 95% interval relative to it (stats.h speedup_rel_ci95; events).
  std::optional<double> speedup_rel_ci95;
  std::optional<double> tflops;  // candidate
  std::optional<double> baseline_tflops;
  std::optional<double> peak_tflops;  // dense bf16, by GPU name
  std::optional<double> percent_of_peak;
  // The parent's wall clock around each call (the same samples): it cannot be forged from
  // inside the candidate's process (session_decision.h).
  SampleSummary candidate_wall, baseline_wall;
  std::optional<SpeedupBasis> speedup_basis;  // none: no speedup
  double calibrated_overhead_ms = 0;          // a no-op call's wall time beyond its events (runner)
  double sustained_load_ms = 0;               // the library's load before every burst (EvalOptions)
  int verified_calls = 0;  // candidate calls whose outputs and inputs were checked
  Json clocks_before, clocks_after;
  // The verifier's set-up, in ms, as it measured it (worker/verifier.cc SetupTimes): references,
  // library_sets, library_plans (background), library_wait, library_choice.
  Json setup_ms = Json::object();
  Json to_json() const;
};

// In place of an output tail of a session that made a hidden call (EvalResult::ran_hidden).
inline constexpr const char* kOutputWithheld =
    "(withheld: the session ran a hidden workload, and what the candidate printed could name it)";

struct EvalResult {
  Outcome outcome = Outcome::not_run;
  std::string task, arch;
  std::uint64_t seed = 0;
  // The run's seed of the base input sets (EvalOptions::input_seed); none: they came from `seed`.
  std::optional<std::uint64_t> input_seed;
  // Why it failed, fit for a model: never a hidden workload's sizes or the candidate's own text
  // from a call that may know them (`withheld` below).
  std::string message;  // not_run / harness_error: why; runtime_error: CUDA's text
  std::string phase;    // where a failure happened ("a hidden workload" for a hidden call)
  FailedOn failed_on = FailedOn::none;  // the failing call's workload (none: no call failed)
  // On a hidden call: the kind it was drawn as (task/hidden_draw.h), and whether it ran while the
  // broker's load held half the SMs (plan.h, sm_load). Both are classes, never sizes: a model is
  // told them.
  std::optional<task::HiddenKind> failed_kind;
  bool failed_under_load = false;
  // For people; never given to a model. The text `message` replaced because it may name a hidden
  // workload (docs/judging.md, "What the model is told"): the failing call's label and the
  // candidate's or the judge's own words. Empty when nothing was withheld.
  std::string withheld;
  std::string faulting_kernel;  // where known (compute-sanitizer)
  std::vector<Flag> flags;      // flags.h: side_stream, baseline_incorrect, ...
  std::vector<TrialReport> trials;
  std::optional<TimingReport> timing;
  std::vector<gpu::CompareStats> baseline_check;
  std::string baseline_check_error;
  bool memcheck_ran = false;
  bool ran_hidden = false;  // the session made a hidden call: the output tails are withheld
  // The memcheck session's broker output, for people only (never parsed: the kernel's printf
  // shares it with compute-sanitizer's own messages).
  std::string memcheck_output_tail;
  std::string memcheck_report;  // the error lines, when it found errors
  // The memcheck session made a hidden call: its report and the kernel it names may carry the
  // hidden sizes, whatever call the main verdict failed on (kept for people, never fed back).
  bool memcheck_ran_hidden = false;
  Json provenance = Json::object();  // GPU, driver, CUDA runtime, nvcc, clocks
  bool network_isolated = false;
  Json sandbox = Json::object();  // what the candidate's process ran under (sandbox/sandbox.h)
  std::optional<AuditTrace> audit_trace;  // the audited calls' counts (EvalOptions::audit)
  std::vector<TimelineSpan> timeline;     // where the wall time went (EvalOptions::timeline)
  // What the candidate's host process printed (its code's output), and the broker's output
  // (compute-sanitizer's and ncu's reports under those tools, and the kernel's device printf);
  // kOutputWithheld instead once the session made a hidden call.
  std::string worker_stdout_tail, worker_stderr_tail;
  std::string broker_output_tail;
  // How the broker's process ended: its exit status (-1 when a signal or a timeout ended it).
  // Under --memcheck the process is compute-sanitizer's, and its exit status is the evidence
  // of memory errors (kMemcheckErrorExit): the output above also carries the candidate's device
  // printf, so its words decide nothing. Kept in memory only, never stored.
  int broker_exit_code = -1;
  // The report the tool the broker ran under wrote to its own file (SessionSetup::broker_tool_log:
  // compute-sanitizer's), its tail; nothing the candidate's code prints reaches it. In memory only.
  std::string broker_tool_log;
  double seconds = 0;
  // Which session of its verifier process this was: 1 a new process, more a warm verifier of
  // the run (verifier_host.h); 0 when no verifier answered.
  int verifier_session = 0;
  // Wall seconds of the judging session's phases (bench/judging_cost.py): starting the verifier
  // and the runner (inputs, references, calibration, loading the candidate), the checked calls,
  // timing, the audit (its extra runners included). 0 for a phase that did not run. Parts of
  // them: verifier = start until the verifier was ready (buffers, inputs, references);
  // library_setup = timing's opening library check (the library's plan chosen and built);
  // warmup = timing's unsampled rounds.
  struct PhaseSeconds {
    double start = 0, checks = 0, timing = 0, audit = 0;
    double verifier = 0, library_setup = 0, warmup = 0;
    int warmup_rounds = 0, sampled_rounds = 0;
    Json to_json() const;
  } phase_seconds;

  bool has_flag(Flag f) const;
  void add_flag(Flag f);  // once
  Json to_json() const;
  // One verdict for people: outcome, correctness, time, speedup, TFLOP/s, % of peak,
  // baseline, provenance.
  std::string summary() const;
  // For a model repairing the kernel: what failed and where (max abs/rel error,
  // mismatch ratio, first bad indices and tile), or the runtime error and kernel.
  std::string feedback() const;
};

}  // namespace ptxbench::eval
