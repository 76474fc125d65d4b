// The provenance record every result carries: device 0's GPU, driver, CUDA runtime, cuDNN and
// cuBLASLt versions and its clocks now (the verifier's "open" reply, verifier_session.cc).
#pragma once

#include "core/json.h"
#include "eval/gpu/nvml.h"

namespace ptxbench::eval::worker {

Json gpu_provenance(gpu::Nvml& nvml);

}  // namespace ptxbench::eval::worker
