// The library baseline's timing in the worker's one-shot baseline mode (bench/baselines only:
// `ptxbench-bench-baselines`). NOT how a candidate is timed: a candidate's timed calls are the
// judging session's (eval/judge_session_timing.cc, the broker's events in worker/broker.cc).
// Interleaved timing of an optional second function and a baseline on identical inputs, in one
// process: warm-up, then alternating samples (each preceded by an L2 flush outside
// the timed region), stopping by the adaptive rule (stats.h) once BOTH sample sets
// have converged or the time budget is spent; then the host-clock cross-check of
// the candidate (side_stream flag) and NVML clocks before/after.
#pragma once

#include <functional>

#include "eval/gpu/baseline.h"
#include "eval/worker/session.h"

namespace ptxbench::eval::worker {

// `candidate` may be empty (baseline mode), `baseline` may be null (it failed to
// build: timing of the candidate alone).
TimingOutcome interleaved_timing(WorkerSession& s, gpu::TensorSet& t,
                                 const std::function<void()>& candidate, gpu::Baseline* baseline,
                                 const TimingSpec& spec);

}  // namespace ptxbench::eval::worker
