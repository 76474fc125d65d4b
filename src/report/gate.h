// The CI gate (`ptxbench gate KERNEL.cu... --task T [--min-speedup X] [--require-arch]`): each
// kernel's JudgeReport (judge/judge.h, the one judging driver) against the gate's rule, and
// the JUnit XML of all of them (one <testcase> per kernel) for the CI system.
//
// A kernel passes its gate when its verdict is correct (passed; passed_missing_instructions
// too unless require_arch) and, with min_speedup, its measured speedup is at least that.
// Everything else fails: an incorrect, non-compiling, ... kernel with its disposition's exit
// code (judge::exit_code), and a kernel whose verdict is no failure but that misses the gate
// — slower than min_speedup, no speedup measured, or not evaluated at all (no GPU here:
// correctness unknown, so a GPU-less CI runner can never pass a kernel) — with kGateMissed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "judge/report.h"

namespace ptxbench::report {

// The exit code of a kernel that misses the gate without a failing verdict (README "Exit codes").
inline constexpr int kGateMissed = 17;

struct GateRule {
  std::optional<double> min_speedup;  // library time / kernel time, e.g. 1.0
  bool require_arch = false;          // the target instructions must have executed
};

struct GateVerdict {
  bool passed = false;
  int exit_code = 0;   // 0 when passed
  std::string reason;  // one line, e.g. "speedup 0.945x is below the gate's 1.0x"
};

GateVerdict gate_verdict(const judge::JudgeReport& r, const GateRule& rule);

struct GateCase {
  std::string file;  // the kernel as the user named it
  judge::JudgeReport report;
  GateVerdict verdict;
};

// The exit code of a whole gate: 0 when every kernel passed, else the first failing one's.
int gate_exit_code(const std::vector<GateCase>& cases);

// <testsuites><testsuite name="ptxbench gate TASK ARCH"> with the rule as properties and one
// <testcase classname="ptxbench.gate.TASK" name=FILE time=stage seconds> per kernel: a
// <failure type=DISPOSITION> (an <error> for ptxbench's own failure) with the reason, and the
// verdict line in <system-out>.
std::string gate_junit(const std::vector<GateCase>& cases, const GateRule& rule,
                       const std::string& task, const std::string& arch);

}  // namespace ptxbench::report
