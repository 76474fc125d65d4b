#include "core/outcome.h"

#include <array>
#include <utility>

namespace ptxbench {
namespace {
constexpr std::array<std::pair<Outcome, std::string_view>, 10> kNames{{
    {Outcome::passed, "passed"},
    {Outcome::incorrect, "incorrect"},
    {Outcome::no_code, "no_code"},
    {Outcome::policy_violation, "policy_violation"},
    {Outcome::compile_error, "compile_error"},
    {Outcome::compile_timeout, "compile_timeout"},
    {Outcome::runtime_error, "runtime_error"},
    {Outcome::timeout, "timeout"},
    {Outcome::not_run, "not_run"},
    {Outcome::harness_error, "harness_error"},
}};
}  // namespace

std::string_view to_string(Outcome o) {
  for (const auto& [k, v] : kNames)
    if (k == o) return v;
  return "unknown";
}

std::optional<Outcome> outcome_from_string(std::string_view s) {
  for (const auto& [k, v] : kNames)
    if (v == s) return k;
  return std::nullopt;
}

}  // namespace ptxbench
