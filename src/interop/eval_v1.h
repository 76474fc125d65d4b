// The reference PTXBench's result envelope, `ptxbench.eval.v1` (what its `ptxbench eval KERNEL
// --task-config TASK.json --json` prints and its Harbor verifier reads), made from ptxbench's
// judge::JudgeReport. `ptxbench eval --task-config` writes these fields beside its own report's
// (task, arch, disposition, message, exit_code, compile, eval, audit), none of whose names they
// share:
//   schema          "ptxbench.eval.v1"
//   evaluation_id   "ev_" + 32 hex digits of sha256(kernel_sha256 ":" the session's seed)
//   task_id, definition, workload_uuids   the task config's
//   kernel_sha256   of the kernel's source
//   status          the trace's status (fib_trace.h: PASSED, INCORRECT_NUMERICAL,
//                   RUNTIME_ERROR, COMPILE_ERROR, TIMEOUT), or INFRA_ERROR where no kernel was
//                   judged (not_evaluated: no GPU here; harness_error; task_suite_error), with
//                   `error` saying why
//   all_passed      every trace PASSED, as the reference defines it (a correct kernel whose
//                   target instructions did not execute is PASSED here; ptxbench's verdict on
//                   that is `disposition` and the exit code 16)
//   min_speedup     the timed workload's speedup over the library when PASSED, else null
//   target_met      all_passed and min_speedup >= the config's target_speedup (default 1)
//   sanitizer       {requested_runs, completed_runs, clean}: ptxbench runs one memcheck trial
//                   (eval --memcheck, or a manifest's max_check_runs > 0)
//   compile_log     nvcc's log
//   ptx             null: ptxbench audits the SASS that executed (`audit`), not emitted PTX
//   traces          [fib_trace], empty where the status is INFRA_ERROR
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "interop/fib_trace.h"
#include "judge/report.h"

namespace ptxbench::interop {

struct EvalV1Context {
  std::string task_id;
  std::vector<std::string> workload_uuids;
  double target_speedup = 1.0;
  int requested_sanitizer_runs = 0;
  TraceLabels labels;  // definition, solution ("eval_kernel"), timestamp, the timed workload
};

inline constexpr char kEvalV1Schema[] = "ptxbench.eval.v1";

Json eval_v1_fields(const judge::JudgeReport& r, const EvalV1Context& ctx,
                    std::string_view kernel_source);

}  // namespace ptxbench::interop
