// The broker mode of ptxbench-worker (session_protocol.h): the trusted process that holds the
// judging session's CUDA context and runs the candidate's device code on the candidate's behalf.
//
// Order: it initialises CUDA (and CUPTI when the audit needs it), maps the verifier's slots
// (CUDA IPC, "map"), confines itself (sandbox/sandbox.h: it parses the candidate's device code and
// runs it, so it is sandboxed too), then calibrates ("noop": its own memsets between its own
// events) and, at "load", loads the candidate's device code (its fatbinaries, never its shared
// object), waits for the host process's Ready and sends it the Hello. For every "call" (a burst
// of calls on distinct slots) the host runs the entry point and the broker executes the work it
// asks for, checked, between the call's events (broker_calls.h), then waits once for the device
// with the call limit and replies the events, launches, side streams and host times. Timing, the
// launch list, the L2 flush, the CUPTI audit and the replies are all made here: the candidate's
// code runs in the host process, which has no GPU and can reach only this process's two pipes.
#pragma once

#include "core/command_channel.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval::worker {

// Returns the process exit code. After a call's failure it replies and exits at once (the
// context may be unusable or a kernel may still run).
int run_broker(const BrokerRequest& req, CommandChannel& channel);

}  // namespace ptxbench::eval::worker
