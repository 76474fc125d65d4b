#include "report/gate.h"

#include <fmt/format.h>

#include "judge/format.h"
#include "report/markup.h"

namespace ptxbench::report {
namespace {

using judge::Disposition;

std::optional<double> speedup_of(const judge::JudgeReport& r) {
  const eval::EvalResult* e = r.eval.done();
  if (!e || !e->timing) return std::nullopt;
  return e->timing->speedup;
}

GateVerdict missed(std::string reason) {
  return {false, kGateMissed, std::move(reason)};
}

// What the compile stage established without a GPU: the target families in the SASS.
std::string static_evidence(const judge::JudgeReport& r) {
  const compile::CompileResult* c = r.compile.done();
  if (!c || c->census.target_families.empty()) return "";
  const auto& present = c->census.targets_present;
  if (present.empty()) return " (compiled; no target family in its SASS)";
  std::string names;
  for (const auto& f : present) names += (names.empty() ? "" : ", ") + f;
  return " (compiled; its SASS has " + names + ", not proof that they execute)";
}

double stage_seconds(const judge::JudgeReport& r) {
  double s = 0;
  if (const auto* c = r.compile.done()) s += c->seconds;
  if (const auto* e = r.eval.done()) s += e->seconds;
  if (const auto* a = r.audit.done()) s += a->seconds;
  return s;
}

}  // namespace

GateVerdict gate_verdict(const judge::JudgeReport& r, const GateRule& rule) {
  const Disposition d = r.disposition;
  if (d == Disposition::not_evaluated)
    return missed("not evaluated: " +
                  (r.eval.skipped() && !r.eval.skipped()->why.empty()
                       ? r.eval.skipped()->why
                       : std::string("no GPU here runs ") + r.arch) +
                  static_evidence(r) + "; correctness is unknown, so the gate cannot pass it");
  if (d == Disposition::passed_missing_instructions && rule.require_arch)
    return {false, judge::exit_code(d),
            "correct, but the target instructions did not execute (--require-arch)"};
  if (!judge::is_correct(d))
    return {false, judge::exit_code(d),
            std::string(judge::headline(d)) + (r.message.empty() ? "" : ": " + r.message)};
  if (rule.require_arch && r.audit_off())
    return missed("the instruction audit was off: --require-arch cannot be checked");
  if (rule.min_speedup) {
    const auto s = speedup_of(r);
    if (!s) return missed("no speedup was measured; the gate needs one (--min-speedup)");
    if (*s < *rule.min_speedup)
      return missed(
          fmt::format("speedup {:.3f}x is below the gate's {:g}x", *s, *rule.min_speedup));
  }
  const auto s = speedup_of(r);
  return {true, 0,
          std::string(judge::headline(d)) + (s ? fmt::format(", speedup {:.3f}x", *s) : "")};
}

int gate_exit_code(const std::vector<GateCase>& cases) {
  for (const auto& c : cases)
    if (!c.verdict.passed) return c.verdict.exit_code;
  return 0;
}

std::string gate_junit(const std::vector<GateCase>& cases, const GateRule& rule,
                       const std::string& task, const std::string& arch) {
  int failures = 0, errors = 0;
  double seconds = 0;
  std::string body;
  for (const auto& c : cases) {
    const double t = stage_seconds(c.report);
    seconds += t;
    body += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n",
                        escape_markup("ptxbench.gate." + task), escape_markup(c.file), t);
    if (!c.verdict.passed) {
      const bool error = c.report.disposition == Disposition::harness_error ||
                         c.report.disposition == Disposition::task_suite_error;
      (error ? errors : failures) += 1;
      body += fmt::format("      <{} type=\"{}\" message=\"{}\"/>\n", error ? "error" : "failure",
                          judge::to_string(c.report.disposition), escape_markup(c.verdict.reason));
    }
    body += "      <system-out>" + escape_markup(judge::verdict_line(c.report)) + "\n" +
            escape_markup(c.verdict.reason) + "</system-out>\n    </testcase>\n";
  }
  std::string props = fmt::format(
      "    <properties>\n      <property name=\"task\" value=\"{}\"/>\n"
      "      <property name=\"arch\" value=\"{}\"/>\n"
      "      <property name=\"min_speedup\" value=\"{}\"/>\n"
      "      <property name=\"require_arch\" value=\"{}\"/>\n    </properties>\n",
      escape_markup(task), escape_markup(arch),
      rule.min_speedup ? fmt::format("{:g}", *rule.min_speedup) : "none", rule.require_arch);
  return fmt::format(
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ptxbench gate\" "
             "tests=\"{0}\" failures=\"{1}\" errors=\"{2}\" time=\"{3:.3f}\">\n"
             "  <testsuite name=\"{4}\" tests=\"{0}\" failures=\"{1}\" errors=\"{2}\" "
             "skipped=\"0\" time=\"{3:.3f}\">\n",
             cases.size(), failures, errors, seconds,
             escape_markup("ptxbench gate " + task + " " + arch)) +
         props + body + "  </testsuite>\n</testsuites>\n";
}

}  // namespace ptxbench::report
