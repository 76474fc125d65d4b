// The judging option group: how each candidate is judged, one set of options for every command
// that judges (eval, gate, run; rejudge and a resumed run judge with the run's stored settings).
//   --trials N           correctness trials on fresh inputs (3..100, default 3)
//   --call-timeout S     seconds one kernel call may take before it counts as a hang (1..600, 20)
//   --sample-budget S    timing: seconds of sampling before stopping short of a +-0.5% 95%
//                        interval of the speedup (0.1..600, 3)
//   --library-plan P     the library baseline's plan: fastest | heuristic (default fastest)
//   --count-timed-calls  hardware counters on every call: wgmma/TMA credit needs the timed
//                        calls' own counts (off by default; GH100 only)
// Out-of-range values are refused by the parser (exit 2) with the range in the message.
#pragma once

#include "cli/command.h"
#include "eval/evaluator.h"
#include "run/config.h"

namespace ptxbench::cli {

void add_judging_options(CLI::App& sub, run::JudgingSettings& s);

// --candidate-output's help (eval: a file; gate: a folder of one file per kernel).
inline constexpr const char* kCandidateOutputHelp =
    "write, for a person testing the judge, everything the candidate's processes printed (its "
    "host process and the broker), also what the result withholds after a hidden call: it may "
    "name hidden workloads, so never give it to a model (eval: FILE; gate: a folder, one "
    "NNN-NAME.txt per kernel)";

// `s` into the options of one judging session.
void apply_judging(const run::JudgingSettings& s, eval::EvalOptions& o);

}  // namespace ptxbench::cli
