// Planning an evaluation: the GPU-side Problem of a task at one workload, the list
// of trials (seeds, workloads, distributions) and the worker requests. Pure functions
// of (task, options), so a run can be reproduced from its recorded seed.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/protocol.h"
#include "task/spec.h"

namespace ptxbench::eval {

// The distributions a family's trials draw inputs from: normal(0, 1); attention_bwd also the
// outlier-heavy "spiky" one (gpu/rng.h), on every other trial.
std::vector<gpu::Distribution> input_distributions(task::Family f);

// The inputs' RMS the element rule is derived with: the largest of input_distributions(f)
// (gemm: 1; attention_bwd: 1.01424, which its rule does not use).
double input_rms(task::Family f);

// Builds the Problem (concrete shapes, tolerance) of `task` at `w`. An Error when the
// task's family/tensors are not something the GPU side can evaluate. The tolerance is the
// rule derived from the problem (task/tolerance.h derive_tolerance at input_rms).
Result<gpu::Problem> make_problem(const task::TaskSpec& task, const task::Workload& w);

// The seed of trial `index` under the run seed `base` (a strong mix: neighbouring runs
// share nothing).
std::uint64_t trial_seed(std::uint64_t base, std::uint64_t index);

// max(`trials` (>= 3), 1 + hidden workloads) correctness trials cycling over [timed,
// hidden...] workloads, so every workload is checked, on fresh seeds; trial i draws from
// input_distributions(family)[i % count] (attention_bwd: every odd trial spiky). Then one
// after-timing trial on the timed workload with new inputs (catches results cached
// across calls and kernels that behave differently once timing starts).
Result<std::vector<TrialSpec>> plan_trials(const task::TaskSpec& task, int trials,
                                           std::uint64_t seed);

// The timing seed of a run.
inline std::uint64_t timing_seed(std::uint64_t base) {
  return trial_seed(base, 1u << 20);
}

}  // namespace ptxbench::eval
