// Choosing a vendor library's plan by timing it (the library at its best, issue 14): used by the
// cuBLASLt baseline (its heuristic's algorithms) and the cuDNN SDPA baseline (the frontend's
// candidate execution plans).
//
// Method: each plan runs `runs` times on the caller's tensors, each run after an L2 flush
// (L2Flush), timed by a pair of CUDA events on `stream` (EventTimer); a plan's time is the
// median of its runs, and the plan with the smallest median is chosen (the first on a tie).
// Caveats: a few runs per plan at whatever clock the GPU has then; plans within a percent of
// each other may swap between sessions. The caller has run every plan once before (their
// modules load on the first run), so no plan is timed cold.
#pragma once

#include <cuda_runtime.h>

#include <functional>

namespace ptxbench::gpu {

// Where a baseline's plan stands: the library heuristic's first choice (LibraryPlan::heuristic),
// candidates still to be timed (ready() times them), chosen by timing here, or chosen by timing
// earlier in the run and run alone (library_choices.h).
enum class PlanOrigin { heuristic, to_time, timed, reused };

struct PlanChoice {
  int chosen = -1;       // index of the fastest plan, -1 when there were none
  int tried = 0;         // plans timed
  double chosen_ms = 0;  // its median run time, ms
};

// Times plans 0..plans-1; `enqueue(i)` enqueues one run of plan i on `stream` (and throws when
// the library fails it). Needs the GPU to itself for the result to mean anything.
PlanChoice choose_fastest_plan(int plans, cudaStream_t stream,
                               const std::function<void(int)>& enqueue, int runs = 3);

}  // namespace ptxbench::gpu
