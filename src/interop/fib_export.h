// Run files (src/store) as a FlashInfer-Trace dataset that FlashInfer-Bench's TraceSet loads:
//   definitions/<op_type>/<task>.json      each task of the runs (fib_definition_export.h)
//   workloads/<op_type>/<task>.jsonl       its timed workload (uuid "ptxbench-timed")
//   solutions/<author>/<op_type>/<task>/<name>.json   every judged candidate (a turn with a
//       source): author the run's model, one source kernel.cu, entry kernel.cu::run with the
//       tvm-ffi binding, or kernel.cu::ptxbench_launch with no binding for ptxbench's native
//       contract (which FlashInfer-Bench cannot build; the description says so)
//   solutions/baseline/<op_type>/<task>/baseline_<library>_<task>.json   the library ptxbench
//       times against (author "baseline"; its source is a note naming the library: the library
//       itself was timed, not a kernel)
//   traces/<op_type>/<task>.jsonl          one trace per verdict (fib_trace.h), and one PASSED
//       trace of the library per timed session (latency its median, speedup 1, correctness its
//       check against ptxbench's reference)
// Solution names: <task>__<run file stem>__<model>__<arch>_s<sample>_t<turn>, every character
// outside [A-Za-z0-9_.-] as '_'. Verdicts that judged no kernel (not_evaluated, harness_error,
// task_suite_error) have no trace; turns without a source (no_code) no solution either.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/paths.h"
#include "core/result.h"

namespace ptxbench::interop {

struct ExportSummary {
  int solutions = 0, baseline_solutions = 0, traces = 0, baseline_traces = 0;
  int without_source = 0;  // no_code turns: nothing to export
  int not_judged = 0;      // not_evaluated, harness_error, task_suite_error: a solution, no trace
  std::set<std::string> definitions;
};

// Writes into `out`, an empty folder that exists. The runs' tasks are read from `paths`
// (tasks/): a task that is not there is an error naming it. Errors name the run file.
Result<ExportSummary> export_fib(const std::vector<std::filesystem::path>& runs, const Paths& paths,
                                 const std::filesystem::path& out);

}  // namespace ptxbench::interop
