// Waiting for a candidate's GPU work with a deadline, shared by every worker mode: poll the
// stream (a hang must not block the worker forever), then synchronise the whole device so work
// the candidate put on other streams is finished too, then surface any launch error.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>

namespace ptxbench::eval::worker {

// Thrown when a candidate call does not finish within the call deadline.
struct CallTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws CallTimeout after `seconds`, gpu::CudaError on an error.
void sync_with_deadline(cudaStream_t stream, double seconds);

}  // namespace ptxbench::eval::worker
