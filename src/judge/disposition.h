// Disposition: the one verdict on a candidate. judge::decide (decide.h) is the only
// place that chooses it; the category a run stores, the exit code of `ptxbench eval`,
// `compile` and `audit`, and the heading of the model's feedback are derived from it.
// The names are data: they are written to the run store (turns.category) and to JSON,
// so they never change (policy_violation is stored as "policy", as it always was).
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace ptxbench::judge {

enum class Disposition {
  no_code,                      // a model reply without a code block: nothing to judge
  policy_violation,             // banned include/call/symbol, or a call the sandbox refused
  compile_error,                // nvcc/ptxas rejected it
  runtime_error,                // CUDA error, crash, trap or fault in the candidate's process
  timeout,                      // the candidate ran (or the compiler ran on it) past its limit
  incorrect,                    // ran, but the outputs fail the task's correctness rule
  passed_missing_instructions,  // correct, but the run-time audit did not show the task's
                                // target instructions executing
  passed,            // correct, and the target instructions executed (or the caller turned
                     // the audit off: the report says so)
  not_evaluated,     // compiled, but correctness was not checked here (no GPU, a GPU of
                     // another architecture, or evaluation turned off): static stages only
  harness_error,     // ptxbench's own machinery failed: never the candidate's fault
  task_suite_error,  // the task's own library baseline fails the task's rule: the task,
                     // not the candidate, is wrong (see decide.h, library_fails_task_rule)
};

// Every disposition, in declaration order.
std::span<const Disposition> all_dispositions();

std::string_view to_string(Disposition d);  // the stored name
std::optional<Disposition> disposition_from_string(std::string_view s);

// The process exit code (README "Exit codes"): 0 passed or not_evaluated, 10 incorrect,
// 11 compile error, 12 policy violation, 13 runtime error, 14 timeout (a compile timeout
// too), 15 no code block, 16 correct without the target instructions, 1 ptxbench's own
// failure (harness_error, task_suite_error). 2 (bad input) is not a disposition: the
// command refused its arguments before anything was judged.
int exit_code(Disposition d);

// The heading of the model's feedback and of `ptxbench eval`'s verdict line, e.g.
// "COMPILE ERROR" or "CORRECT, but the target instructions did not execute".
std::string_view headline(Disposition d);

// What the verdict means, in one sentence for people (the report's glossary).
std::string_view meaning(Disposition d);

// Correct outputs (passed or passed_missing_instructions).
bool is_correct(Disposition d);

// The candidate's own failure (no_code ... passed_missing_instructions): what the SFT
// export calls a failing category. Not: passed, not_evaluated, harness_error,
// task_suite_error.
bool is_failure(Disposition d);

}  // namespace ptxbench::judge
