// The worker's runner's names for candidate loading, which lives in the host process's
// library now (eval/host/candidate.h, no CUDA): kept until the broker replaces the runner.
#pragma once

#include <cuda_runtime.h>

#include "eval/host/candidate.h"

namespace ptxbench::gpu {

using eval::host::CandidateCall;
using eval::host::CandidateCallFailed;
using eval::host::CandidateLibrary;

}  // namespace ptxbench::gpu
