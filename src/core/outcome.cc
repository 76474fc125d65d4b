#include "core/outcome.h"

namespace ptxbench {
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
  }
  return "unknown";
}

std::optional<Outcome> outcome_from_string(std::string_view s) {
  for (int i = 0; i <= static_cast<int>(Outcome::harness_error); ++i)
    if (to_string(static_cast<Outcome>(i)) == s) return static_cast<Outcome>(i);
  return std::nullopt;
}

}  // namespace ptxbench
