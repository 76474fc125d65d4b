// The library baseline alone, through a verifier process of the judging session
// (session_protocol.h): Evaluator::benchmark_baseline, for bench/baselines
// (`ptxbench-bench-baselines`) and tests/gpu/library_rule. No candidate, no broker.
//
// One session of one workload, `timed`: one base input set drawn from (seed,
// EvalOptions::baseline_inputs) and kTimedSlots slots, as a judging session's timed workload has
// (one without EvalOptions::timing: the check alone).
//   check   "prepare" slot 0 with the base set as it is (identity transform), then "baseline"
//           with its check: the library's outputs compared with the verifier's fp32 reference
//           under the problem's rule, the check every call of a candidate gets
//   timing  "library" runs of kTimingBurst (the judging session's library samples: each after an
//           L2 flush, between two events, rotating over the private buffer sets), a warm-up of
//           at least 3 runs and EvalOptions::warmup_seconds, then samples until StoppingRule::
//           decide stops (EvalOptions' min/max samples, target spread, sample budget); the
//           verifier's clocks before and after; none without EvalOptions::timing
// The verifier's words are shown as they are: a benchmark's workload is no hidden one.
#pragma once

#include <cstdint>
#include <filesystem>

#include "eval/eval_result.h"
#include "eval/gpu/problem.h"
#include "eval/session_io.h"

namespace ptxbench::eval {

struct EvalOptions;  // evaluator.h

// Fills r's provenance, baseline_check (and the flag baseline_incorrect when it fails) and
// timing (workload, baseline samples, stop reason, the library's name and plan, clocks); r's
// outcome passed. A failure of the verifier or the library: harness_error, its message and
// phase. `worker`: the ptxbench-worker program.
void bench_library(WorkerLauncher& launcher, const std::filesystem::path& worker,
                   const gpu::Problem& timed, std::uint64_t seed, const EvalOptions& o,
                   EvalResult& r);

}  // namespace ptxbench::eval
