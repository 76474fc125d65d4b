// Vendor-library baselines, run on the same inputs as the candidate, same stream:
//   gemm          -> cuBLASLt (bf16 in/out, fp32 accumulate; the fastest of its heuristic's
//                    algorithms, or its first choice: library_plan.h)
//   attention_fwd -> cuDNN fused SDPA forward (O + Stats) through cudnn-frontend
//   attention_bwd -> cuDNN fused SDPA backward through cudnn-frontend
//                    (both: the fastest of heuristic mode A's execution plans, or its first
//                    choice: library_plan.h)
// Built once per Problem (plan/graph creation is outside any timed region), executed
// many times. Each writes into a TensorSet's outputs exactly like a candidate would.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "eval/gpu/library_plan.h"
#include "eval/gpu/tensors.h"

namespace ptxbench::gpu {

class Baseline {
 public:
  virtual ~Baseline() = default;
  virtual std::string name() const = 0;      // "cublaslt" | "cudnn_sdpa"
  virtual std::string describe() const = 0;  // the algorithm/engine chosen
  // Enqueues one run on `stream` reading t's inputs and writing t's outputs.
  virtual void run(TensorSet& t, cudaStream_t stream) = 0;
  // The part of choosing the plan that must not share the GPU with other work ("fastest":
  // timing the candidate plans on t's tensors, plan_choice.h); once, before the first run.
  // make_baseline calls it; make_unready_baseline leaves it to the caller. Throws like
  // make_baseline.
  virtual void ready(TensorSet& t, cudaStream_t stream) {
    (void)t;
    (void)stream;
  }
  // The plan it runs, as an index into the library's own list for this problem (cuBLASLt's
  // heuristic results, cuDNN's execution plans): what a later session of the run passes back as
  // `chosen` (make_unready_baseline). -1 for LibraryPlan::heuristic.
  virtual int plan_index() const { return -1; }
  // Whether this baseline chose its plan by timing (ready() ran the timings).
  virtual bool plan_timed() const { return false; }
};

// Throws CudaError / std::runtime_error when the library cannot build a plan. `plan`: which
// plan runs (library_plan.h; the fastest is timed here, on t's tensors).
std::unique_ptr<Baseline> make_baseline(TensorSet& t, cudaStream_t stream,
                                        LibraryPlan plan = LibraryPlan::fastest);

// The library's host-side set-up (handles, heuristic queries, graph builds) and one untimed
// run of each candidate plan on `stream` (the kernels' modules load then): the slow part of a
// baseline (0.8-1.7 s on the H200, docs/results/2026-12-01-h200-fourth.md), safe to do on a
// thread of its own while the GPU does other work. Call ready() before the first run().
// `chosen` >= 0 (LibraryPlan::fastest only): the plan_index() a session earlier in the run
// chose by timing, for the same problem on the same GPU; it is run alone and ready() times
// nothing. When that plan does not build or run here, the plans are timed as usual.
std::unique_ptr<Baseline> make_unready_baseline(TensorSet& t, cudaStream_t stream,
                                                LibraryPlan plan = LibraryPlan::fastest,
                                                int chosen = -1);

std::unique_ptr<Baseline> make_cublaslt_baseline(TensorSet& t, cudaStream_t stream,
                                                 LibraryPlan plan = LibraryPlan::fastest);
std::unique_ptr<Baseline> make_cudnn_sdpa_baseline(TensorSet& t, cudaStream_t stream,
                                                   LibraryPlan plan = LibraryPlan::fastest,
                                                   int chosen = -1);

}  // namespace ptxbench::gpu
