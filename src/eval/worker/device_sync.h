// Waiting for a candidate's GPU work with a deadline (the broker's calls, its no-op calibration):
// poll the stream (a hang must not block the broker forever), then surface any launch error.
// Only that stream: every launch, copy and memset the broker makes for a candidate goes onto its
// one call stream (the candidate's own stream handles are only noted, for side_stream), and the
// broker's SM load (gpu/sm_load.h) runs on a stream of its own that a call must not wait for.
// (Until 2026-12-07 this ended with cudaDeviceSynchronize, which waited for the load too: every
// loaded call then lasted its load's whole time, and every candidate, the references among them,
// was judged schedule_dependent; docs/results/2026-12-07-h100-load.md.)
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace ptxbench::eval::worker {

// Thrown when a candidate call does not finish within the call deadline.
struct CallTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws CallTimeout after `seconds`, gpu::CudaError on an error, its text fault_text's.
void sync_with_deadline(cudaStream_t stream, double seconds);

// What a candidate is told of a CUDA error its work raised: the error's name and text, and for a
// memory fault that the inputs are mapped read-only (worker/shared_inputs.h), so a write to one
// faults. No source location of the judge's.
std::string fault_text(cudaError_t e);

}  // namespace ptxbench::eval::worker
