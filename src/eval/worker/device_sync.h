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

// The same wait through blocking synchronisation on a helper thread, the deadline kept by this
// one. For a process under compute-sanitizer memcheck, which stops a kernel at a memory error
// until the host synchronises: cudaStreamQuery then answers cudaErrorNotReady for ever, and a
// polled wait ran into its deadline on every kernel with a bad access (H100, 2026-12-06). After a
// CallTimeout the helper stays blocked: the caller must end the process with _exit (the broker's
// reply_and_exit does).
void sync_blocking_with_deadline(cudaStream_t stream, double seconds);

}  // namespace ptxbench::eval::worker
