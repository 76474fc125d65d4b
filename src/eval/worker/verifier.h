// The verifier mode of ptxbench-worker (session_protocol.h): the trusted half of a judging
// session. Never loads the candidate; owns every buffer; prepares, checks and times.
#pragma once

#include "core/command_channel.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval::worker {

// Allocates the session's buffers, answers "ready" with the slots' IPC handles and the GPU
// provenance, then serves prepare / verify / baseline / clocks commands until "quit" or EOF.
// Returns the process exit code; a CUDA failure is reported as a harness_error reply.
int run_verifier(const VerifierRequest& req, CommandChannel& channel);

}  // namespace ptxbench::eval::worker
