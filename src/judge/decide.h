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

// The evaluation's signal that the task's own library baseline fails the task's correctness
// rule on the inputs the candidate failed on, and the candidate is as accurate as the library
// there (eval::Flag::library_fails_task_rule). A failed evaluation with this signal is
// task_suite_error, whatever its outcome (incorrect, or harness_error); a passed one stays
// passed.
bool library_fails_task_rule(const eval::EvalResult& r);

}  // namespace ptxbench::judge
