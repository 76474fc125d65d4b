// JudgeReport: everything one judging of one candidate found (judge.h), as typed stage
// results, and the one Disposition decided from them (decide.h). The run store keeps
// its three stage parts (compile_json, eval_json, audit_json); `ptxbench eval --json`
// prints to_json().
#pragma once

#include <optional>
#include <string>

#include "audit/audit_result.h"
#include "compile/compile_result.h"
#include "core/json.h"
#include "core/result.h"
#include "eval/eval_result.h"
#include "judge/disposition.h"

namespace ptxbench::judge {

struct JudgeReport {
  std::string task, arch;
  bool has_code = false;  // false: no source (a model reply without a code block)

  // The compile stage: its result, or (compile empty) why ptxbench could not compile.
  std::optional<compile::CompileResult> compile;
  std::string compile_error;

  // The GPU stages. Empty eval: not reached (the candidate did not compile) or not run
  // (eval_skipped says why). gpu_stages_skipped: no GPU here can run the architecture,
  // so neither evaluation nor the run-time audit ran (the compile stage's static SASS
  // census is all there is).
  std::optional<eval::EvalResult> eval;
  std::string eval_skipped;
  bool gpu_stages_skipped = false;
  // Wall seconds this candidate held its GPU (the judging session, and the Nsight Compute
  // session when the audit needed one): the GPU cost of judging it. 0 when no GPU stage ran.
  double gpu_seconds = 0;

  // The instruction audit: its result, or why ptxbench could not audit (audit_error), or
  // audit_off when the caller turned it off. Empty for a candidate that failed evaluation.
  std::optional<audit::AuditResult> audit;
  std::string audit_error;
  bool audit_off = false;

  Disposition disposition = Disposition::no_code;
  std::string message;  // why this disposition, one or two sentences

  // Each stage's part as stored: the stage's own to_json(); {"outcome": "harness_error",
  // "error"} when ptxbench failed in it; {"outcome": "not_run", "reason"} for a skipped
  // evaluation; {"route": "static", "census"} for the audit when the GPU stages were
  // skipped; {"error"} for a failed audit; null when not reached. The evaluation's part
  // also holds "gpu_seconds" (above).
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
  // (a compile part: the candidate had code), audit_off (no audit part after a passed
  // evaluation, or after one skipped with a GPU at hand), gpu_stages_skipped (the static audit
  // part). An Error names the part that is no stage's JSON.
  static Result<JudgeReport> from_stages(const Json& compile, const Json& eval, const Json& audit);
  // What to_json wrote (`ptxbench eval --json`); to_json of the result writes it again byte for
  // byte.
  static Result<JudgeReport> from_json(const Json& j);
};

}  // namespace ptxbench::judge
