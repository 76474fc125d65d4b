// The runner mode of ptxbench-worker (session_protocol.h): the candidate's process.
//
// Order matters: it initialises CUDA, maps the verifier's slots (CUDA IPC), creates its stream
// and events, applies the OS sandbox (core/sandbox.h) and arms the driver-lookup guard
// (driver_lookup_guard.h), and only then loads the candidate, so the candidate's load-time
// code already runs confined (a tvm-ffi candidate's libtvm_ffi.so too, loaded just before it
// from the folder the sandbox lets it read). Every call enters the candidate in its contract
// (gpu/candidate.h: ptxbench_launch, or __tvm_ffi_run with the environment stream set first)
// with the same tensors, so nothing below depends on the contract. Every "call" is the same: a
// burst of calls on named slots, each an L2 flush and two events around the entry point, back to
// back, then one deadline-bounded wait for the whole device. The L2 flush runs in the candidate's
// process: a candidate that stops it keeps in L2 only what its previous call of the burst left
// (other slots' buffers). It holds no seed, no reference and no notion of which calls are checked
// (all are); anything it reports is cross-checked by the parent (wall clock) and the verifier
// (outputs, input checksums).
#pragma once

#include "core/command_channel.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval::worker {

// Returns the process exit code. After a call timeout or a CUDA error it replies and exits
// at once (the context may be unusable or a kernel may still run).
int run_runner(const RunnerRequest& req, CommandChannel& channel);

}  // namespace ptxbench::eval::worker
