#include "eval/eval_result.h"

#include <fmt/format.h>

#include <algorithm>

#include "eval/flags.h"

namespace ptxbench::eval {
namespace {

constexpr const char* kHiddenTrial = "a hidden workload";

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json stats_array(const std::vector<gpu::CompareStats>& v) {
  Json a = Json::array();
  for (const auto& s : v) a.push_back(s.to_json());
  return a;
}

}  // namespace

std::string_view to_string(FailedOn f) {
  switch (f) {
    case FailedOn::timed:
      return "timed";
    case FailedOn::hidden:
      return "hidden";
    case FailedOn::none:
      break;
  }
  return "none";
}

std::optional<FailedOn> failed_on_from_string(std::string_view s) {
  for (FailedOn f : {FailedOn::none, FailedOn::timed, FailedOn::hidden})
    if (to_string(f) == s) return f;
  return std::nullopt;
}

Json AuditTrace::to_json() const {
  Json fns = Json::array();
  for (const auto& f : functions)
    fns.push_back({{"function", f.name},
                   {"launches", f.launches},
                   {"recorded", f.recorded},
                   {"pcs", f.pc_count()},
                   {"share", f.share},
                   {"note", f.note}});
  Json skips = Json::array();
  for (const auto& f : skipped) skips.push_back(f.to_json());
  return Json{{"route", std::string(to_string(route))},
              {"workloads", workloads},
              {"functions", fns},
              {"chip", chip},
              {"error", error},
              {"error_kind", error_kind},
              {"brokers", brokers},
              {"shares_measured", shares_measured},
              {"shares_unknown", shares_unknown},
              {"audited_share", audited_share},
              {"skipped", skips},
              {"messages", messages},
              {"timed_counts", timed ? timed->to_json() : Json(nullptr)}};
}

void skip_for_budget(AuditTrace& t, std::size_t k) {
  for (std::size_t i = k; i < t.functions.size(); ++i) {
    t.audited_share -= t.functions[i].share;
    t.skipped.push_back({t.functions[i].name, 0, t.functions[i].share, AuditSkip::budget});
  }
  if (k < t.functions.size()) t.functions.resize(k);
  t.audited_share = std::max(0.0, t.audited_share);
}

Json SkippedFunction::to_json() const {
  return Json{
      {"function", name}, {"ms", ms}, {"share", share}, {"why", std::string(to_string(why))}};
}

Json TrialReport::to_json() const {
  return Json{{"index", index},
              {"label", label},
              {"workload", workload},
              {"hidden", hidden},
              {"seed", seed},
              {"passed", passed},
              {"after_hidden", after_hidden},
              {"outputs", stats_array(outputs)}};
}

Json TimingReport::to_json() const {
  return Json{
      {"workload", workload},
      {"candidate", candidate.to_json()},
      {"baseline", baseline.to_json()},
      {"stop_reason", stop_reason},
      {"baseline_name", baseline_name},
      {"baseline_description", baseline_description},
      {"baseline_error", baseline_error},
      {"flops", flops},
      {"speedup", opt(speedup)},
      {"speedup_rel_ci95", opt(speedup_rel_ci95)},
      {"tflops", opt(tflops)},
      {"baseline_tflops", opt(baseline_tflops)},
      {"peak_tflops", opt(peak_tflops)},
      {"percent_of_peak", opt(percent_of_peak)},
      {"candidate_wall", candidate_wall.to_json()},
      {"baseline_wall", baseline_wall.to_json()},
      {"speedup_basis", speedup_basis ? std::string(to_string(*speedup_basis)) : std::string()},
      {"calibrated_overhead_ms", calibrated_overhead_ms},
      {"sustained_load_ms", sustained_load_ms},
      {"verified_calls", verified_calls},
      {"setup_ms", setup_ms},
      {"clocks_before", clocks_before},
      {"clocks_after", clocks_after}};
}

bool EvalResult::has_flag(Flag f) const {
  return std::find(flags.begin(), flags.end(), f) != flags.end();
}

void EvalResult::add_flag(Flag f) {
  if (!has_flag(f)) flags.push_back(f);
}

Json EvalResult::PhaseSeconds::to_json() const {
  return Json{{"start", start},
              {"checks", checks},
              {"timing", timing},
              {"audit", audit},
              {"verifier", verifier},
              {"library_setup", library_setup},
              {"warmup", warmup},
              {"warmup_rounds", warmup_rounds},
              {"sampled_rounds", sampled_rounds}};
}

Json EvalResult::to_json() const {
  // The candidate chooses its kernels' names and where it reads: on a hidden call the faulting
  // kernel and the sanitizer's report could name the workload (memcheck_broker/
  // hidden_shape_via_sanitizer_report.cu), so they are kept only for public ones.
  const bool hidden = failed_on == FailedOn::hidden || memcheck_ran_hidden;
  Json trials_j = Json::array();
  for (const auto& t : trials) trials_j.push_back(t.to_json());
  Json memcheck_j{{"ran", memcheck_ran},
                  {"ran_hidden", memcheck_ran_hidden},
                  {"report", hidden ? std::string() : memcheck_report}};
  Json j{{"outcome", std::string(to_string(outcome))},
         {"task", task},
         {"arch", arch},
         {"seed", seed},
         {"input_seed", input_seed ? Json(*input_seed) : Json(nullptr)},
         {"phase_seconds", phase_seconds.to_json()},
         {"message", message},
         {"phase", phase},
         {"failed_on", std::string(to_string(failed_on))},
         {"failed_kind", failed_kind ? Json(std::string(task::to_string(*failed_kind))) : Json()},
         {"failed_under_load", failed_under_load},
         {"withheld", withheld},
         {"faulting_kernel", hidden ? std::string() : faulting_kernel},
         {"flags", flag_names(flags)},
         {"trials", trials_j},
         {"timing", timing ? timing->to_json() : Json(nullptr)},
         {"baseline_check", stats_array(baseline_check)},
         {"baseline_check_error", baseline_check_error},
         {"memcheck", std::move(memcheck_j)},
         {"sandbox", sandbox},
         {"audit_trace", audit_trace ? audit_trace->to_json() : Json(nullptr)},
         {"provenance", provenance},
         {"network_isolated", network_isolated},
         {"worker_stdout_tail", worker_stdout_tail},
         {"worker_stderr_tail", worker_stderr_tail},
         {"broker_output_tail", broker_output_tail},
         {"memcheck_output_tail", memcheck_output_tail},
         {"seconds", seconds},
         {"verifier_session", verifier_session}};
  if (!timeline.empty()) {  // only when asked for (EvalOptions::timeline)
    Json spans = Json::array();
    for (const auto& t : timeline) spans.push_back(t.to_json());
    j["timeline"] = std::move(spans);
  }
  return j;
}

std::string EvalResult::feedback() const {
  switch (outcome) {
    case Outcome::passed:
      return fmt::format("correct on {} trials (fresh random inputs, timed and hidden workloads)",
                         trials.size());
    case Outcome::runtime_error:
    case Outcome::timeout: {
      std::string s =
          std::string(outcome == Outcome::timeout ? "TIMEOUT: " : "RUNTIME ERROR: ") + message;
      if (!phase.empty()) s += "\n  during: " + phase;
      if (failed_on == FailedOn::hidden) return s;  // the sanitizer's text is the kernel's too
      if (!faulting_kernel.empty()) s += "\n  faulting kernel: " + faulting_kernel;
      if (!memcheck_report.empty()) s += "\n  compute-sanitizer:\n" + memcheck_report;
      return s;
    }
    case Outcome::incorrect: {
      std::string s =
          "INCORRECT: outputs differ from the reference (element fails iff |out-ref| > atol AND "
          "|out-ref|/(|ref|+1e-8) > rtol, and for the attention backward also beyond the "
          "prompt's per-element term; no NaN/Inf; every element written; small relative L2; "
          "no output scaled as a whole)";
      if (!message.empty()) s += "\n  " + message;
      for (const auto& t : trials) {
        if (t.passed) continue;
        s += "\n  trial " + std::to_string(t.index) + " (" + (t.hidden ? kHiddenTrial : t.label) +
             "):";
        for (const auto& o : t.outputs)
          if (!o.passed)  // counts and positions would give a hidden workload's sizes away
            s += "\n    " + (t.figures_shown() ? gpu::describe(o) : o.tensor + ": wrong values");
      }
      return s;
    }
    case Outcome::task_suite_error:  // the message says why, and what the candidate did
      return "TASK SUITE ERROR (not the candidate's fault): " + message;
    default:
      return std::string(to_string(outcome)) + (message.empty() ? "" : ": " + message);
  }
}

std::string EvalResult::summary() const {
  std::string s = fmt::format("{} {} [{}]: {}\n", task, arch, fmt::join(flag_names(flags), ","),
                              to_string(outcome));
  s += feedback() + "\n";
  if (!withheld.empty()) s += "withheld from the model: " + withheld + "\n";
  if (timing) {
    const auto& t = *timing;
    s += fmt::format("time: {:.4f} ms median (n={}, IQR/median {:.2f}%) on workload {}\n",
                     t.candidate.median, t.candidate.n, 100 * t.candidate.rel_iqr, t.workload);
    if (t.baseline.n > 0)
      s += fmt::format("baseline {}: {:.4f} ms median (n={}, IQR/median {:.2f}%)", t.baseline_name,
                       t.baseline.median, t.baseline.n, 100 * t.baseline.rel_iqr) +
           (t.baseline_tflops ? fmt::format(", {:.1f} TFLOP/s\n", *t.baseline_tflops) : "\n");
    else if (!t.baseline_error.empty())
      s += "baseline failed: " + t.baseline_error + "\n";
    if (t.speedup)
      s +=
          fmt::format("speedup vs baseline: {:.3f}x{}\n", *t.speedup,
                      outcome == Outcome::passed ? ""
                                                 : " (not a result: the kernel did not pass; shown "
                                                   "for diagnosis only)");
    if (t.tflops)
      s += fmt::format("candidate: {:.1f} TFLOP/s", *t.tflops) +
           (t.percent_of_peak ? fmt::format(" ({:.1f}% of {:.1f} dense bf16 peak)\n",
                                            *t.percent_of_peak, *t.peak_tflops)
                              : std::string(" (peak unknown for this GPU)\n"));
    if (has_flag(Flag::above_peak))
      s += "WARNING above_peak: " + std::string(describe(Flag::above_peak)) + "\n";
    if (has_flag(Flag::side_stream))
      s += fmt::format(
          "WARNING side_stream: the call took {:.3f} ms by the judge's wall clock but {:.3f} ms "
          "between its events: work escaped the timed stream; the speedup above is from wall "
          "times\n",
          t.candidate_wall.median, t.candidate.median);
  }
  for (const auto& b : baseline_check)
    if (!b.passed) s += "WARNING baseline disagrees with the reference: " + gpu::describe(b) + "\n";
  if (!provenance.empty())
    s += fmt::format(
        "provenance: {} | driver {} | CUDA runtime {} | nvcc {} | SM clock {} MHz | throttle {}\n",
        provenance.value("gpu", "?"), provenance.value("driver", "?"),
        provenance.value("cuda_runtime", 0), provenance.value("nvcc", "?"),
        timing && timing->clocks_after.contains("sm_clock_mhz")
            ? to_text(timing->clocks_after["sm_clock_mhz"])
            : "?",
        timing && timing->clocks_after.contains("throttle_reasons")
            ? timing->clocks_after["throttle_reasons"].get<std::string>()
            : "?");
  s += fmt::format("seed {} | {:.1f} s", seed, seconds);
  return s;
}

}  // namespace ptxbench::eval
