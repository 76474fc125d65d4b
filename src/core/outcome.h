// Outcome: what one stage (compile, evaluation) found, stored as data (never as a
// crash). The names are stable: they are written to SQLite and JSON. The one verdict
// on a candidate is judge::Disposition (src/judge/disposition.h), decided from these.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace ptxbench {

enum class Outcome {
  passed,            // the stage did what it should (built; correct)
  incorrect,         // ran, but the outputs fail the task's correctness rule
  no_code,           // a model reply without a code block
  policy_violation,  // banned include/call/symbol in the candidate
  compile_error,     // nvcc/ptxas rejected it
  compile_timeout,   // the compile stage (source checks, then nvcc) ran past its limit
  runtime_error,     // CUDA error, crash, trap, illegal address in the candidate
  timeout,           // the candidate's worker ran past its wall-clock limit
  not_run,           // a stage that could not run here (e.g. no GPU); not a failure
  harness_error,     // ptxbench's own machinery failed (worker missing, ...)
  task_suite_error,  // the candidate failed the rule on inputs where the task's own library
                     // fails it too, and is as accurate as the library there: the task suite
                     // is wrong, neither the candidate nor the harness (judge/decide.h)
};

// Every Outcome, in declaration order (the name table's rows; outcome_from_string reads them).
extern const std::array<Outcome, 11> kOutcomes;

std::string_view to_string(Outcome o);
std::optional<Outcome> outcome_from_string(std::string_view s);

}  // namespace ptxbench
