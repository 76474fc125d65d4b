// The runner's confinement: the sandbox policy of the candidate's process (which files the
// CUDA stack may read, the private directory it may write, the GPU device files) applied with
// core/sandbox.h, and the driver-lookup guard armed. Called after CUDA is initialised and the
// slots are mapped, before the candidate is loaded. Returns the sandbox report (JSON) that the
// result records.
#pragma once

#include "core/json.h"
#include "core/result.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval::worker {

Result<Json> confine_runner(const RunnerRequest& req);

}  // namespace ptxbench::eval::worker
