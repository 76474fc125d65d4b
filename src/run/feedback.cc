#include "run/feedback.h"

#include <fmt/format.h>

#include <algorithm>

#include "audit/verdicts.h"
#include "core/pattern.h"
#include "core/text.h"
#include "eval/call_failure.h"
#include "eval/flags.h"

namespace ptxbench::run {
namespace {

using judge::Disposition;

std::string header(const TurnContext& ctx, Disposition d, std::string_view detail = {}) {
  return fmt::format("Turn {} of {}: {}{}\n", ctx.turn, ctx.max_turns, judge::headline(d), detail);
}

std::string footer(const TurnContext& ctx) {
  int left = ctx.max_turns - ctx.turn;
  if (left <= 0) return "This was the last turn.";
  return fmt::format(
      "{} turn{} left. Reply with the complete kernel file in one fenced ```cuda block.", left,
      left == 1 ? "" : "s");
}

std::string strip_dirs(const std::string& line) {
  static const Pattern kPath(R"((?:[^\s:"'()]*/)+([^/\s:"'()]+\.(?:cu|cuh|ptx|h)))");
  return kPath.replace_all(line, "\\1");
}

bool is_error_line(const std::string& l) {
  std::string low = to_lower(l);
  return low.find("error") != std::string::npos || low.find("fatal") != std::string::npos;
}

std::string head_lines(std::string_view text, std::size_t n) {
  std::vector<std::string> lines = split_lines(text);
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < n; ++i) out += strip_dirs(lines[i]) + "\n";
  if (lines.size() > n) out += fmt::format("({} more lines not shown)\n", lines.size() - n);
  return out;
}

std::string format_index(const std::vector<std::int64_t>& idx) {
  std::vector<std::string> parts;
  for (auto i : idx) parts.push_back(std::to_string(i));
  return "[" + join(parts, ", ") + "]";
}

std::string resources_text(const CompileFacts& c) {
  if (c.resources.empty() && c.warnings.empty()) return {};
  std::string out = "ptxas resources:\n";
  for (const auto& r : c.resources) {
    out += fmt::format("- {}: {} registers, {} bytes shared memory, {} bytes stack", r.kernel,
                       r.registers, r.shared_bytes, r.stack_bytes);
    if (r.spill_store_bytes < 0 || r.spill_load_bytes < 0)
      out += ", spills not known (the compiler log's report disagrees with the built code)";
    else if (r.spill_store_bytes || r.spill_load_bytes)
      out += fmt::format(", SPILLS {} bytes stored / {} bytes loaded", r.spill_store_bytes,
                         r.spill_load_bytes);
    out += "\n";
  }
  for (const auto& w : c.warnings) out += "- ptxas warning: " + w + "\n";
  return out;
}

std::string flags_text(const EvalFacts& e) {
  std::string out;
  for (eval::Flag f : e.flags)
    out += std::string(eval::is_guard(f) ? "- Guard: " : "- Note: ") +
           std::string(eval::describe(f)) + "\n";
  return out;
}

// A hidden workload by the judge's words for it (its kind, never its sizes: the name is
// eval/call_failure.h hidden_phase's text), else by its name.
std::string workload_name(const std::string& name, bool hidden) {
  if (!hidden) return "workload `" + name + "`";
  const bool judges_words = name.starts_with(eval::kHiddenPhase);  // anything else may be a label
  return (judges_words ? name : std::string(eval::kHiddenPhase)) + " (its sizes are not shown)";
}

// A mismatch without figures (stage_pipeline.cc figureless_mismatch): which output, and NaN/Inf.
// On a hidden workload its counts, positions and error sizes would give its sizes away; on a
// public one after a hidden call they are the kernel's, and it had seen the hidden sizes.
std::string figureless_mismatch_text(const Mismatch& m) {
  return fmt::format(
      "- output {} on {}: wrong values{} (counts, positions and error sizes are not "
      "shown{}).\n",
      m.output, workload_name(m.workload, m.hidden),
      m.non_finite ? ", and the output contains NaN or Inf" : "",
      m.hidden ? " for a hidden workload"
               : ": your code had already run on a hidden workload in this session");
}

std::string mismatch_text(const Mismatch& m) {
  if (m.hidden || m.figures_withheld) return figureless_mismatch_text(m);
  std::string out = fmt::format("- output {} on {}: {} of {} elements outside tolerance", m.output,
                                workload_name(m.workload, false), m.bad_elements, m.total_elements);
  if (m.non_finite) out += "; the output contains NaN or Inf";
  out += fmt::format(".\n  max abs error {:.4g}, max rel error {:.4g}, relative L2 error {:.4g}\n",
                     m.max_abs_error, m.max_rel_error, m.rel_l2_error);
  if (!m.first_bad.empty()) {
    out += "  first bad elements:";
    for (const auto& b : m.first_bad)
      out +=
          fmt::format(" {} got {:.4g} expected {:.4g};", format_index(b.index), b.got, b.expected);
    out.back() = '\n';
  }
  return out;
}

std::string speedup_text(const EvalFacts& e, double target) {
  if (!e.speedup) return "Timing: not measured.\n";
  std::string out =
      fmt::format("Speedup {:.3f}x against {} (target {:.2f}x)", *e.speedup,
                  e.baseline.empty() ? std::string("the library") : e.baseline, target);
  if (e.kernel_ms && e.baseline_ms)
    out += fmt::format(": your kernel {:.4f} ms, library {:.4f} ms", *e.kernel_ms, *e.baseline_ms);
  if (e.tflops) out += fmt::format(", {:.1f} TFLOP/s", *e.tflops);
  return out + ".\n";
}

// What the model is told of a family's verdict.
std::string_view verdict_words(audit::Verdict v) {
  switch (v) {
    case audit::Verdict::executed:
      return "executed";  // no count (FamilyVerdict says why)
    case audit::Verdict::present_not_executed:
      return "in the SASS but never executed (predicated off or on a path not taken)";
    case audit::Verdict::present_not_audited:
      return "present in the SASS (static census)";
    case audit::Verdict::absent:
      return "absent from the SASS";
  }
  return "absent from the SASS";
}

std::string family_line(const FamilyVerdict& f) {
  const std::string_view what = verdict_words(f.verdict);
  std::string ops = f.opcodes.empty() ? "" : " [" + join(f.opcodes, ", ") + "]";
  return fmt::format("- {}: {}{}\n", f.family, what, ops);
}

std::string audit_text(const AuditFacts& a, const std::string& arch) {
  if (!a.ran) return "Instruction audit: could not run (" + a.error + ").\n";
  std::string out = fmt::format("Target instruction families for {} (rule: {}):\n", arch,
                                a.rule.empty() ? "any" : a.rule);
  for (const auto& f : a.families) out += family_line(f);
  // Which side of the credit line, never the figure: the audited workloads' FLOPs include a
  // hidden one's (leak3/coverage_denominator_hidden_m.cu).
  if (a.coverage)
    out += *a.coverage >= audit::kMinTensorCoverage
               ? "Target tensor ops did at least half of the task's FLOPs.\n"
               : "Target tensor ops did less than half of the task's FLOPs.\n";
  if (!a.sentence.empty()) out += a.sentence + "\n";
  return out;
}

std::string no_code(const TurnContext& ctx) {
  const std::string what =
      ctx.all_reasoning
          ? "Your reply's answer was empty: all of it was reasoning (a <think> that was never "
            "closed, or reasoning alone), so nothing was compiled; it may have been cut at the "
            "token limit. After the reasoning, put the whole kernel file "
          : "Your reply had no fenced code block, so nothing was compiled. Put the whole kernel "
            "file ";
  return header(ctx, Disposition::no_code) + what +
         "(includes, kernels and the extern \"C\" ptxbench_launch entry point) in one ```cuda "
         "block.\n" +
         footer(ctx);
}

std::string policy(const ModelView& v, const TurnContext& ctx) {
  const bool built = v.compile.outcome == Outcome::passed;  // refused at run time
  std::string t =
      header(ctx, Disposition::policy_violation, built ? " (refused at run time)" : " (not built)");
  t += "The kernel uses something the benchmark does not allow:\n";
  for (const auto& s : v.compile.violations) t += "- " + s + "\n";
  if (v.eval && !v.eval->error.empty()) t += "- at run time: " + v.eval->error + "\n";
  if (!v.compile.disallowed_symbols.empty())
    t += "Imported functions outside the allow-list: " + join(v.compile.disallowed_symbols, ", ") +
         "\n";
  t += "Write the kernel yourself with CUDA and inline PTX; the only runtime calls allowed are "
       "launches, "
       "function attributes, device queries, errors and driver entry points (for tensor maps).\n";
  return t + footer(ctx);
}

std::string compile_error(const ModelView& v, const TurnContext& ctx) {
  std::string t = header(ctx, Disposition::compile_error);
  if (!v.compile.entry_point.empty())
    return t + "The kernel built for " + ctx.arch +
           ", but the harness cannot call it: " + v.compile.entry_point + "\n" + footer(ctx);
  t += "nvcc/ptxas rejected the kernel for " + ctx.arch + ". The errors:\n";
  t += trim_compiler_log(v.compile.log);
  return t + footer(ctx);
}

std::string compile_timeout(const ModelView& v, const TurnContext& ctx) {
  return header(ctx, Disposition::timeout) +
         fmt::format(
             "The compiler (nvcc/ptxas) did not finish building the kernel for {} within {:.0f} "
             "s. Look for code that makes the compile explode: huge unrolled loops, deep "
             "template instantiation, very large inline PTX.\n",
             ctx.arch, v.compile.timeout_s) +
         footer(ctx);
}

std::string failed_run(const ModelView& v, const TurnContext& ctx) {
  if (!v.eval) return compile_timeout(v, ctx);
  const EvalFacts& e = *v.eval;
  std::string t;
  if (v.disposition == Disposition::timeout)
    t = header(ctx, Disposition::timeout) +
        fmt::format(
            "The kernel did not finish within {:.0f} s on {}. Look for waits that "
            "never complete (mbarrier phases, expected transaction bytes) and "
            "unbounded loops.\n",
            e.timeout_s, workload_name(e.workload, e.workload_hidden));
  else
    t = header(ctx, Disposition::runtime_error) + "Running the kernel on " +
        workload_name(e.workload, e.workload_hidden) + " failed:\n" + head_lines(e.error, 15);
  t += flags_text(e);
  return t + footer(ctx);
}

std::string incorrect(const ModelView& v, const TurnContext& ctx) {
  const EvalFacts& e = *v.eval;
  std::string t = header(ctx, Disposition::incorrect);
  t += "The outputs fail the correctness rule (an element fails when |out-ref| > atol AND "
       "|out-ref|/|ref| > rtol; "
       "all elements must pass, no NaN/Inf, small relative L2 error):\n";
  for (const auto& m : e.mismatches) t += mismatch_text(m);
  if (e.mismatches.empty() && !e.error.empty()) t += "- " + e.error + "\n";
  t += flags_text(e);
  return t + footer(ctx);
}

std::string passed(const ModelView& v, const TurnContext& ctx, bool reached) {
  const EvalFacts& e = *v.eval;
  std::string t = header(ctx, v.disposition) + speedup_text(e, ctx.speedup_target);
  if (v.audit)
    t += audit_text(*v.audit, ctx.arch);
  else
    t += "Instruction audit: not run.\n";
  t += resources_text(v.compile);
  t += flags_text(e);
  if (reached) return t + "Target speedup reached: the trajectory is complete.";
  if (v.disposition == Disposition::passed_missing_instructions)
    t += "Use the target instructions for the main computation so that they execute at run time.\n";
  else
    t += "Keep it correct and make it faster.\n";
  return t + footer(ctx);
}

std::string not_evaluated(const ModelView& v, const TurnContext& ctx) {
  std::string t = header(ctx, Disposition::not_evaluated);
  t += "No GPU is available here, so correctness, timing and the run-time instruction audit were "
       "skipped. "
       "Static checks only:\n";
  if (v.audit) t += audit_text(*v.audit, ctx.arch);
  t += resources_text(v.compile);
  return t + footer(ctx);
}

std::string message_or(const ModelView& v, std::string_view fallback) {
  return std::string(trim(v.message.empty() ? fallback : std::string_view(v.message)));
}

std::string harness(const ModelView& v, const TurnContext& ctx) {
  return header(ctx, Disposition::harness_error) +
         "The benchmark's own machinery failed, not your kernel: " +
         message_or(v, "an internal stage failed") +
         "\nResubmit the kernel (improve it if you wish).\n" + footer(ctx);
}

std::string task_suite(const ModelView& v, const TurnContext& ctx) {
  return header(ctx, Disposition::task_suite_error) +
         "The task itself is at fault, not your kernel: " +
         message_or(v, "the task's library baseline fails its correctness rule") +
         ".\nResubmit the kernel (improve it if you wish).\n" + footer(ctx);
}

}  // namespace

std::string trim_compiler_log(std::string_view log, int max_errors) {
  std::vector<std::string> lines = split_lines(log);
  std::string out;
  int errors = 0, skipped = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!is_error_line(lines[i])) continue;
    if (errors == max_errors) {
      ++skipped;
      continue;
    }
    ++errors;
    out += strip_dirs(lines[i]) + "\n";
    // nvcc prints the offending source line and a caret under it.
    for (std::size_t j = i + 1; j < lines.size() && j <= i + 2 && !is_error_line(lines[j]); ++j)
      if (!trim(lines[j]).empty() && !starts_with(trim(lines[j]), "detected during"))
        out += lines[j] + "\n";
  }
  if (errors == 0) {
    // No line says "error": keep the tail, where the reason usually is.
    std::size_t from = lines.size() > 20 ? lines.size() - 20 : 0;
    for (std::size_t i = from; i < lines.size(); ++i) out += strip_dirs(lines[i]) + "\n";
  }
  if (skipped)
    out += fmt::format("({} more error{} not shown)\n", skipped, skipped == 1 ? "" : "s");
  return out;
}

std::string build_feedback(const TurnVerdict& v, const TurnContext& ctx) {
  return build_feedback(model_view(v), ctx);
}

std::string build_feedback(const ModelView& v, const TurnContext& ctx) {
  const bool ran = v.eval.has_value();
  switch (v.disposition) {
    case Disposition::no_code:
      return no_code(ctx);
    case Disposition::policy_violation:
      return policy(v, ctx);
    case Disposition::compile_error:
      return compile_error(v, ctx);
    case Disposition::runtime_error:
      return ran ? failed_run(v, ctx) : harness(v, ctx);
    case Disposition::timeout:
      return failed_run(v, ctx);  // without an evaluation: the compiler timed out
    case Disposition::incorrect:
      return ran ? incorrect(v, ctx) : harness(v, ctx);
    case Disposition::passed:
    case Disposition::passed_missing_instructions:
      return ran ? passed(v, ctx, target_reached(v, ctx.speedup_target)) : harness(v, ctx);
    case Disposition::not_evaluated:
      return not_evaluated(v, ctx);
    case Disposition::harness_error:
      return harness(v, ctx);
    case Disposition::task_suite_error:
      return task_suite(v, ctx);
  }
  return harness(v, ctx);
}

}  // namespace ptxbench::run
