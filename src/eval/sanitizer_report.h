// What a compute-sanitizer memcheck session's report says (Evaluator::run_memcheck): the
// faulting kernel and the error lines. Pure functions, unit-tested with recorded reports.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptxbench::eval {

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
