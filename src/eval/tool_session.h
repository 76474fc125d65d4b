// The sessions the judge runs under a tool: compute-sanitizer memcheck (Evaluator::run_memcheck)
// and Nsight Compute for the audit's `auto` route (judge/judge.cc audit_with_ncu). Each is one of
// the candidate's judged sessions, with fresh hidden sizes of its own seed: a kernel can tell it
// is instrumented (its memory accesses or launches get slower) and fail, hang or refuse only
// there, so whatever it does there is judged as in the session without the tool (red team of
// 2026-12-06: words/memcheck_hang_when_instrumented.cu, leak3/ncu_session_throw_keeps_pass.cu).
// One rule for both:
//   the candidate's failure (incorrect, runtime_error, timeout, policy_violation: decided by
//     call_verdict like every call's) becomes the verdict of a result that passed;
//   a failure of the judge's own side under the tool (harness_error, task_suite_error, or the
//     broker's sandbox refusing a call: the broker is ptxbench's, and what it is refused under a
//     tool is the tool's injected library's) leaves the result as it was, and the caller says so
//     (the flag memcheck_unavailable; a message in the audit).
#pragma once

#include <string_view>

#include "eval/eval_result.h"

namespace ptxbench::eval {

enum class ToolSessionEnd {
  passed,            // the candidate passed under the tool too
  candidate_failed,  // its failure is the candidate's verdict
  judge_failed,      // the judge's side failed under the tool: no verdict on the candidate
  no_verdict,        // not_run, or an outcome only the compile stage gives: nothing to adopt
};
inline constexpr ToolSessionEnd kToolSessionEnds[] = {
    ToolSessionEnd::passed, ToolSessionEnd::candidate_failed, ToolSessionEnd::judge_failed,
    ToolSessionEnd::no_verdict};
std::string_view to_string(ToolSessionEnd e);  // passed | candidate_failed | judge_failed | ...

// How the session `tool` ended, by the rule above.
ToolSessionEnd tool_session_end(const EvalResult& tool);

// A passing `r` takes the candidate's failure in `tool`: its outcome, its message after `under`
// (e.g. "under compute-sanitizer memcheck: "), phase, failing workload and kind, withheld text
// (withheld stays withheld) and guard flags. Returns how `tool` ended; `r` changes only for
// candidate_failed when it had passed.
ToolSessionEnd adopt_tool_session_failure(const EvalResult& tool, std::string_view under,
                                          EvalResult& r);

}  // namespace ptxbench::eval
