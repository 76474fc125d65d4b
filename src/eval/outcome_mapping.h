// From what a worker process did to an Outcome: its response (when it wrote one), how
// it ended (exit code, signal, timeout) and its last progress note. Pure functions,
// unit-tested with recorded cases.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "eval/protocol.h"

namespace ptxbench::eval {

struct WorkerVerdict {
  Outcome outcome = Outcome::harness_error;
  std::string error;  // empty when the worker did its job
  std::string phase;  // what it was doing when it failed
};

// `candidate_side`: true for the process that runs the candidate (its failures are the
// candidate's), false for ptxbench's own processes (check, baseline: failures are
// harness_error). `response` is the parsed response file, or its Error (absent or
// malformed); `progress` is the last note in progress.txt.
WorkerVerdict classify_worker(const ProcessResult& proc, const Result<WorkerResponse>& response,
                              const std::string& progress, bool candidate_side);

// The kernel named in a compute-sanitizer report (first error), or empty. Handles both
// "at kernel(args)+0x1b0 in file.cu:12" and "at 0x1b0 in kernel(args)".
std::string faulting_kernel_from_sanitizer(const std::string& report);

// The error lines of a compute-sanitizer report ("========= Invalid __global__ ..."),
// at most `max_lines`.
std::string sanitizer_summary(const std::string& report, std::size_t max_lines = 12);

// The exit status compute-sanitizer is told to end with when it found memory errors
// (--error-exitcode): under --memcheck, the only evidence of errors. Its report's words are not:
// the candidate's device printf shares that output.
inline constexpr int kMemcheckErrorExit = 86;
// The file compute-sanitizer writes its report to (--log-file), in the broker's folder: read for
// the report and the faulting kernel, never the broker's output, which the kernel's printf shares.
inline constexpr std::string_view kMemcheckLog = "memcheck.log";

}  // namespace ptxbench::eval
