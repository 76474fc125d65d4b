#include "core/outcome.h"

namespace ptxbench {

const std::array<Outcome, 11> kOutcomes{
    Outcome::passed,           Outcome::incorrect,       Outcome::no_code,
    Outcome::policy_violation, Outcome::compile_error,   Outcome::compile_timeout,
    Outcome::runtime_error,    Outcome::timeout,         Outcome::not_run,
    Outcome::harness_error,    Outcome::task_suite_error};

// A switch, so that an Outcome added without its stored name is a compile error (-Wswitch).
std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::passed:
      return "passed";
    case Outcome::incorrect:
      return "incorrect";
    case Outcome::no_code:
      return "no_code";
    case Outcome::policy_violation:
      return "policy_violation";
    case Outcome::compile_error:
      return "compile_error";
    case Outcome::compile_timeout:
      return "compile_timeout";
    case Outcome::runtime_error:
      return "runtime_error";
    case Outcome::timeout:
      return "timeout";
    case Outcome::not_run:
      return "not_run";
    case Outcome::harness_error:
      return "harness_error";
    case Outcome::task_suite_error:
      return "task_suite_error";
  }
  return "unknown";
}

std::optional<Outcome> outcome_from_string(std::string_view s) {
  for (Outcome o : kOutcomes)
    if (to_string(o) == s) return o;
  return std::nullopt;
}

}  // namespace ptxbench
