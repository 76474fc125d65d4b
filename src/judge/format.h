// Human-readable text of a JudgeReport: what `ptxbench eval` and `ptxbench audit` print
// without --json. Each stage that ran (the compile result when it failed, the evaluation's
// summary, the audit table or the static census), then one verdict line.
#pragma once

#include <string>

#include "judge/report.h"

namespace ptxbench::judge {

// "verdict: TIMEOUT (timeout, exit 14): the compiler timed out after 2 s"
std::string verdict_line(const JudgeReport& r);

std::string format_report(const JudgeReport& r);

}  // namespace ptxbench::judge
