// Runs a candidate once for the audit: allocates its tensors (inputs filled with the
// eval stage's counter-based N(0,1) values, eval/gpu/rng.h, so the audit sees the same
// data as the evaluation for the same seed), calls ptxbench_launch on a fresh stream
// and synchronises. CUDA failures throw ptxbench::gpu::CudaError (eval/gpu/cuda_check.h).
#pragma once

#include <string>
#include <vector>

#include "audit/gpu/worker_args.h"

namespace ptxbench::audit::worker {

class CandidateRun {
 public:
  // dlopens the shared object and finds ptxbench_launch; "" or what went wrong.
  std::string load(const std::string& so_path);
  // Allocates and fills the tensors (outputs poisoned, gpu/poison.h).
  void prepare(const std::vector<TensorArg>& tensors, unsigned long long seed);
  // One call of the entry point on a new stream, then cudaStreamSynchronize.
  void launch_and_sync();
  void release();

 private:
  void* handle_ = nullptr;
  void* entry_ = nullptr;
  std::vector<TensorArg> tensors_;
  std::vector<void*> buffers_;
  std::vector<std::vector<long long>> shapes_;
};

}  // namespace ptxbench::audit::worker
