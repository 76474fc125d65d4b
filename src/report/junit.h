// JUnit XML of run files (`ptxbench report RUN.db... --junit OUT.xml`), for CI systems: one
// <testsuite> per (run, model, arch), one <testcase> per trajectory (classname
// "ptxbench.MODEL.ARCH", name "TASK #SAMPLE"). A trajectory passes when one of its turns is
// correct and executed its target instructions (category passed); a finished trajectory
// without one is a <failure> (type: its last turn's category, message: the verdicts turn
// by turn); a failed trajectory (its endpoint never answered, a store error) is an <error>;
// one whose GPU stages were skipped (no GPU: not evaluated) or that is unfinished is
// <skipped>. time: the stored stage wall seconds (compile + eval + audit) of its turns.
#pragma once

#include <string>
#include <vector>

#include "report/run_detail.h"

namespace ptxbench::report {

std::string to_junit(const std::vector<RunDetail>& runs);

}  // namespace ptxbench::report
