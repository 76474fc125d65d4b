// The broker's confinement: the sandbox policy of the process that holds the session's CUDA
// context and runs the candidate's device code (which files the CUDA stack may read, the private
// directory it may write, the GPU device files), applied with sandbox/sandbox.h (its GPU-process
// profile). Called after CUDA is initialised and the slots are mapped, before the candidate's
// device code is loaded. Returns the sandbox report (JSON). The candidate's host code runs
// elsewhere, under the stricter host profile (src/eval/host/host_sandbox.h).
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "eval/session_protocol.h"
#include "sandbox/sandbox.h"

namespace ptxbench::eval::worker {

// Read access to the CUDA stack, this executable's folder and `extra_read`; write access to
// `private_dir` only; the GPU's device files. `profiled`: the process runs under Nsight Compute
// (sockets allowed, reported). The policy confine_broker applies (tested without applying it).
SandboxPolicy broker_policy(const std::string& private_dir,
                            const std::vector<std::string>& extra_read, bool profiled);

Result<Json> confine_broker(const std::string& private_dir,
                            const std::vector<std::string>& extra_read, bool profiled = false);

}  // namespace ptxbench::eval::worker
