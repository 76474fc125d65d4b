// Vendor-library baselines, run on the same inputs as the candidate, same stream:
//   gemm          -> cuBLASLt (bf16 in/out, fp32 accumulate; the fastest of its heuristic's
//                    algorithms, or its first choice: library_plan.h)
//   attention_fwd -> cuDNN fused SDPA forward (O + Stats) through cudnn-frontend
//   attention_bwd -> cuDNN fused SDPA backward through cudnn-frontend
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
};

// Throws CudaError / std::runtime_error when the library cannot build a plan. `plan`: which
// plan runs (library_plan.h; the fastest is timed here, on t's tensors).
std::unique_ptr<Baseline> make_baseline(TensorSet& t, cudaStream_t stream,
                                        LibraryPlan plan = LibraryPlan::fastest);

std::unique_ptr<Baseline> make_cublaslt_baseline(TensorSet& t, cudaStream_t stream,
                                                 LibraryPlan plan = LibraryPlan::fastest);
std::unique_ptr<Baseline> make_cudnn_sdpa_baseline(TensorSet& t, cudaStream_t stream);

}  // namespace ptxbench::gpu
