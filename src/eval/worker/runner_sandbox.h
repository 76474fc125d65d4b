// The runner's confinement: the sandbox policy of the candidate's process (which files the
// CUDA stack may read, the private directory it may write, the GPU device files) applied with
// core/sandbox.h, and the driver-lookup guard armed. Called after CUDA is initialised and the
// slots are mapped, before the candidate is loaded. Returns the sandbox report (JSON) that the
// result records.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "core/sandbox.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval::worker {

// The same confinement for any process about to load a candidate (the audit worker too):
// read access to the CUDA stack, this executable's folder and `extra_read`; write access to
// `private_dir` only; the GPU's device files.
// `profiled`: the process runs under Nsight Compute (sockets allowed, reported).
// The policy confine_candidate_process applies (tested without applying it).
SandboxPolicy candidate_policy(const std::string& private_dir,
                               const std::vector<std::string>& extra_read, bool profiled);

Result<Json> confine_candidate_process(const std::string& private_dir,
                                       const std::vector<std::string>& extra_read,
                                       bool profiled = false);

}  // namespace ptxbench::eval::worker
