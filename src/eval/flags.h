// The flags an evaluation can carry (EvalResult::flags), one enum with one row each in
// flags.cc's table: its stored name (run files and JSON keep these names), whether it is a
// guard flag, and one sentence for a person or a model. Guard flags say the kernel broke a
// rule of the contract, so its time (or its result) cannot be trusted however correct its
// outputs: work outside the given stream, memory errors, cached results. The other flags
// describe the measurement (clocks held down, unstable timing, the library baseline failing).
// A flag added here without its row and its name is a compile error (-Wswitch in to_string).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::eval {

enum class Flag {
  side_stream,
  memcheck_errors,
  throttled,
  timing_unstable,
  baseline_failed,
  baseline_incorrect,
  network_not_isolated,
  memcheck_unavailable,
  memcheck_timeout,
  cached_result,
  inputs_modified,
  library_fails_task_rule,  // written up to ce4b8dc beside harness_error; now the outcome
                            // task_suite_error says it (kept to describe old run files)
  schedule_dependent,
  schedule_not_varied,
  library_misses_rule,
  library_slowed,
  above_peak,
  // Issue 36 item 4e/4d: what the broker saw the candidate's host code do (docs/judging.md).
  default_stream,    // work enqueued on the legacy or per-thread default stream (0, 1, 2)
  stale_buffers,     // a launch given a pointer or tensor map of another call's tensors
  output_unwritten,  // an output of a failing call with every element still poisoned
  workspace_kept,    // a call began while device memory of an earlier call was still held
};

std::span<const Flag> all_flags();   // in declaration order
std::string_view to_string(Flag f);  // the stored name, e.g. "side_stream"
std::optional<Flag> flag_from_string(std::string_view name);
bool is_guard(Flag f);
std::vector<std::string> flag_names(const std::vector<Flag>& flags);  // as JSON stores them
// One sentence for a person or a model, e.g. for feedback.
std::string_view describe(Flag f);

// For names read back from a run file or JSON: a name of no flag (an older or newer
// ptxbench's) is not a guard flag and is described by its name.
bool is_guard_flag(std::string_view name);
std::string describe_flag(std::string_view name);

}  // namespace ptxbench::eval
