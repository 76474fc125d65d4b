// Planning an evaluation: the GPU-side Problem of a task at one workload, the list
// of trials (seeds, workloads, distributions) and the worker requests. Pure functions
// of (task, options), so a run can be reproduced from its recorded seed.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/protocol.h"
#include "task/spec.h"

namespace ptxbench::eval {

// Builds the Problem (concrete shapes, tolerance) of `task` at `w`. An Error when the
// task's family/tensors are not something the GPU side can evaluate.
Result<gpu::Problem> make_problem(const task::TaskSpec& task, const task::Workload& w);

// The seed of trial `index` under the run seed `base` (a strong mix: neighbouring runs
// share nothing).
std::uint64_t trial_seed(std::uint64_t base, std::uint64_t index);

// `trials` (>= 3) correctness trials cycling over [timed, hidden...] workloads, on fresh
// seeds; for attention_bwd every odd trial uses the spiky distribution. Then one
// after-timing trial on the timed workload with new inputs (catches results cached
// across calls and kernels that behave differently once timing starts).
Result<std::vector<TrialSpec>> plan_trials(const task::TaskSpec& task, int trials,
                                           std::uint64_t seed);

// The timing seed of a run.
inline std::uint64_t timing_seed(std::uint64_t base) {
  return trial_seed(base, 1u << 20);
}

}  // namespace ptxbench::eval
