// JudgeReport: everything one judging of one candidate found (judge.h), as typed stage
// results, and the one Disposition decided from them (decide.h). The run store keeps
// its three stage parts (compile_json, eval_json, audit_json); `ptxbench eval --json`
// prints to_json().
#pragma once

#include <string>

#include "audit/audit_result.h"
#include "compile/compile_result.h"
#include "core/json.h"
#include "core/result.h"
#include "eval/eval_result.h"
#include "judge/disposition.h"
#include "judge/stage.h"

namespace ptxbench::judge {

// Why the judge skipped a stage the caller turned off.
inline constexpr const char* kEvalTurnedOff = "evaluation turned off";
inline constexpr const char* kAuditTurnedOff = "the instruction audit was turned off";

struct JudgeReport {
  std::string task, arch;
  bool has_code = false;  // false: no source (a model reply without a code block)

  // Each stage's state (stage.h). compile: not reached (no code), failed (ptxbench could not
  // compile) or done. eval: not reached (the candidate did not compile), skipped (turned off, or
  // no GPU here runs the architecture: then neither evaluation nor the run-time audit ran, and
  // the compile stage's static SASS census is all there is) or done. audit: not reached (the
  // evaluation did not pass), skipped (as the evaluation was, or turned off), failed or done.
  Stage<compile::CompileResult> compile;
  Stage<eval::EvalResult> eval;
  Stage<audit::AuditResult> audit;
  // Wall seconds this candidate held its GPU (the judging session, and the Nsight Compute
  // session when the audit needed one): the GPU cost of judging it. 0 when no GPU stage ran.
  double gpu_seconds = 0;

  // No GPU here runs the candidate's architecture: the GPU stages were skipped.
  bool gpu_stages_skipped() const { return eval.skipped_for(SkipCause::no_gpu); }
  // The caller turned the instruction audit off where it would have run.
  bool audit_off() const { return audit.skipped_for(SkipCause::turned_off); }

  Disposition disposition = Disposition::no_code;
  std::string message;  // why this disposition, one or two sentences

  // Each stage's part as stored: done, the result's own to_json(); failed,
  // {"outcome": "harness_error", "error"} ({"error"} for the audit); a skipped evaluation
  // {"outcome": "not_run", "reason"}; the audit skipped for no GPU {"route": "static", "census"};
  // null when not reached or turned off. The evaluation's part also holds "gpu_seconds" (above).
  Json compile_json() const;
  Json eval_json() const;
  Json audit_json() const;
  // The evaluation's flags by name (eval/flags.h), [] when it did not run: a run file's
  // flags_json, the traces' flags (interop/fib_trace.h).
  Json flags_json() const;
  // {task, arch, disposition, message, exit_code, compile, eval, audit}.
  Json to_json() const;

  // Read back (report_json.cc). The stage parts as the store keeps them (compile_json,
  // eval_json, audit_json: each stage's state, above) typed again; task, arch, disposition and
  // message are the caller's (a turn row's). What the parts do not hold is inferred: has_code
  // (a compile part: the candidate had code), the audit turned off (no audit part after a passed
  // evaluation, or after one skipped with a GPU at hand), the GPU stages skipped (the static
  // audit part). An Error names the part that is no stage's JSON.
  static Result<JudgeReport> from_stages(const Json& compile, const Json& eval, const Json& audit);
  // What to_json wrote (`ptxbench eval --json`); to_json of the result writes it again byte for
  // byte.
  static Result<JudgeReport> from_json(const Json& j);
};

}  // namespace ptxbench::judge
