// decide: the one function that turns a candidate's stage results into its Disposition.
// Nothing else chooses a verdict; callers read JudgeReport::disposition.
//
// In order: no source -> no_code; the compiler failing -> harness_error; the compile
// outcome (compile_timeout is a timeout); not evaluated (an audit that ran alone
// decides nothing, one ptxbench could not run is a harness_error); the evaluation's outcome (a
// sandbox refusal is a policy_violation; a harness failure is never the candidate's);
// for a correct candidate, the instruction audit (an audit ptxbench could not run is a
// harness_error; one that did not show the target instructions executing, a static
// census included, is passed_missing_instructions).
#pragma once

#include <string>
#include <string_view>

#include "eval/eval_result.h"
#include "judge/disposition.h"
#include "judge/report.h"

namespace ptxbench::judge {

struct Decision {
  Disposition disposition = Disposition::harness_error;
  std::string message;
};

// Reads the stage fields of `r` (not r.disposition / r.message).
Decision decide(const JudgeReport& r);

}  // namespace ptxbench::judge
