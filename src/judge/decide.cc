#include "judge/decide.h"

#include <array>

#include "core/text.h"

namespace ptxbench::judge {
namespace {

Decision compile_decision(const compile::CompileResult& c) {
  std::string why = std::string(trim(c.summary));
  switch (c.outcome) {
    case Outcome::policy_violation:
      return {Disposition::policy_violation, why};
    case Outcome::compile_error:
      return {Disposition::compile_error, why};
    case Outcome::compile_timeout:  // exit 14 as every timeout; the compile line says which
      return {Disposition::timeout, why};
    default:
      return {Disposition::harness_error,
              "the compile stage reported " + std::string(to_string(c.outcome)) + ": " + why};
  }
}

std::string or_default(const std::string& s, std::string fallback) {
  return s.empty() ? fallback : s;
}

// A failed evaluation's outcome -> the disposition, and what to say when the
// evaluation gave no message.
struct EvalRow {
  Outcome outcome;
  Disposition disposition;
  std::string_view if_silent;
};
constexpr std::array<EvalRow, 7> kEvalRows{{
    {Outcome::incorrect, Disposition::incorrect, "the outputs fail the task's correctness rule"},
    {Outcome::runtime_error, Disposition::runtime_error, "the candidate's run failed"},
    {Outcome::timeout, Disposition::timeout, "the candidate ran past its limit"},
    {Outcome::policy_violation, Disposition::policy_violation,
     "the sandbox refused a call of the candidate"},
    {Outcome::not_run, Disposition::not_evaluated, "the evaluation did not run"},
    {Outcome::harness_error, Disposition::harness_error, "the evaluation failed"},
    {Outcome::task_suite_error, Disposition::task_suite_error,
     "the task's library baseline fails the task's own correctness rule, so the candidate's "
     "failure says nothing about it"},
}};

Decision eval_decision(const eval::EvalResult& e) {
  for (const auto& row : kEvalRows)
    if (row.outcome == e.outcome)
      return {row.disposition, or_default(e.message, std::string(row.if_silent))};
  // no_code and compile_error cannot come from an evaluation
  return {Disposition::harness_error,
          "the evaluation reported " + std::string(to_string(e.outcome))};
}

Decision audit_decision(const JudgeReport& r) {
  if (r.audit_off()) return {Disposition::passed, std::string("correct; ") + kAuditTurnedOff};
  if (const Failed* f = r.audit.failed())
    return {Disposition::harness_error, "correct, but the instruction audit failed: " + f->error};
  if (!r.audit.done())
    return {Disposition::harness_error, "correct, but the instruction audit did not run"};
  const audit::AuditResult& a = *r.audit.done();
  if (a.instruction_metric_evaluated && a.instruction_metric_passed)
    return {Disposition::passed, "correct; the target instructions executed (" +
                                     std::string(audit::to_string(a.route)) + " audit)"};
  std::string why = a.runtime_run        ? a.feedback()
                    : a.messages.empty() ? std::string("no run-time audit")
                                         : a.messages.back();
  return {Disposition::passed_missing_instructions,
          "correct, but the run-time audit did not show the target instructions executing" +
              (why.empty() ? std::string() : ": " + why)};
}

}  // namespace

Decision decide(const JudgeReport& r) {
  if (!r.has_code) return {Disposition::no_code, "the reply has no fenced code block"};
  const compile::CompileResult* c = r.compile.done();
  if (!c) {
    const Failed* f = r.compile.failed();
    return {Disposition::harness_error,
            "the compile stage failed: " + (f ? or_default(f->error, "no result") : "no result")};
  }
  if (c->outcome != Outcome::passed) return compile_decision(*c);
  const eval::EvalResult* e = r.eval.done();
  if (const Failed* f = r.audit.failed(); !e && f)
    return {Disposition::harness_error, "the instruction audit failed: " + f->error};
  if (!e) {
    const Skipped* s = r.eval.skipped();
    return {Disposition::not_evaluated,
            "compiled; not evaluated: " +
                or_default(s ? s->why : std::string(), "the evaluation did not run")};
  }
  if (e->outcome != Outcome::passed) return eval_decision(*e);
  return audit_decision(r);
}

}  // namespace ptxbench::judge
