#include "session/verdict.h"

#include <algorithm>

#include "eval/flags.h"

namespace ptxbench::session {

std::string_view to_string(Category c) {
  switch (c) {
    case Category::no_code:
      return "no_code";
    case Category::policy:
      return "policy";
    case Category::compile_error:
      return "compile_error";
    case Category::runtime_error:
      return "runtime_error";
    case Category::timeout:
      return "timeout";
    case Category::incorrect:
      return "incorrect";
    case Category::passed_missing_instructions:
      return "passed_missing_instructions";
    case Category::passed:
      return "passed";
    case Category::not_evaluated:
      return "not_evaluated";
    case Category::harness_error:
      return "harness_error";
  }
  return "harness_error";
}

namespace {

Category classify_eval(const TurnVerdict& v) {
  switch (v.eval->outcome) {
    case Outcome::runtime_error:
      return Category::runtime_error;
    case Outcome::timeout:
      return Category::timeout;
    case Outcome::incorrect:
      return Category::incorrect;
    case Outcome::passed:
      break;
    case Outcome::not_run:
      return v.gpu_skipped ? Category::not_evaluated : Category::harness_error;
    default:
      return Category::harness_error;
  }
  auto arch = arch_executed(v);
  return arch.value_or(false) ? Category::passed : Category::passed_missing_instructions;
}

}  // namespace

Category classify(const TurnVerdict& v) {
  if (!v.source) return Category::no_code;
  switch (v.compile.outcome) {
    case Outcome::policy_violation:
      return Category::policy;
    case Outcome::compile_error:
      return Category::compile_error;
    case Outcome::passed:
      break;
    default:
      return Category::harness_error;
  }
  if (v.gpu_skipped) return Category::not_evaluated;
  if (!v.eval) return Category::harness_error;
  return classify_eval(v);
}

bool is_correct(const TurnVerdict& v) {
  return v.source && v.compile.outcome == Outcome::passed && v.eval &&
         v.eval->outcome == Outcome::passed;
}

std::optional<bool> arch_executed(const TurnVerdict& v) {
  if (!v.audit || !v.audit->ran || !v.audit->runtime) return std::nullopt;
  return v.audit->metric_pass;
}

bool target_reached(const TurnVerdict& v, double speedup_target) {
  if (!is_correct(v)) return false;  // is_correct implies v.eval
  // A guard flag (work outside the stream, memory errors) makes the time untrustworthy.
  const auto& flags = v.eval->flags;
  if (std::any_of(flags.begin(), flags.end(), [](const auto& f) { return eval::is_guard_flag(f); }))
    return false;
  return arch_executed(v).value_or(false) && v.eval->speedup && *v.eval->speedup >= speedup_target;
}

}  // namespace ptxbench::session
