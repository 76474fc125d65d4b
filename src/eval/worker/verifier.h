// The verifier mode of ptxbench-worker (session_protocol.h): the trusted half of a judging
// session. Never loads the candidate; owns every buffer; prepares, checks and times.
#pragma once

#include "core/command_channel.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval::worker {

// Sets up CUDA, then serves sessions one at a time: "open" (OpenCommand: the session's buffers,
// answered with the slots' IPC handles and the GPU provenance), prepare / verify / baseline /
// library / heat / clocks, "close" (the buffers freed, the library baselines kept for the next
// session), until "quit" or EOF. Returns the process exit code; a CUDA failure is reported as a
// harness_error reply and ends the process (its context may be unusable).
int run_verifier(const VerifierRequest& req, CommandChannel& channel);

}  // namespace ptxbench::eval::worker
