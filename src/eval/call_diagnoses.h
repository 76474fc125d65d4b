// What the broker saw the candidate's host code do in one call, read from the "call" reply's
// extras (worker/broker_calls.h: call_extras), and the flags it gives (issue 36 items 4d, 4e).
// The broker executes every launch, copy and allocation for the host, so these are facts, not
// guesses from the outputs:
//   side_stream     work enqueued on any other handle than the stream the candidate was given
//   default_stream  ... and that handle was the legacy default stream (0, as `<<<grid, block>>>`
//                   passes it, or cudaStreamLegacy, 1) or cudaStreamPerThread (2): both flags
//   stale           a launch (or a small copy) carrying a pointer into another call's tensors,
//                   or a tensor map the broker encoded over them
//   kept_bytes      device memory of earlier calls' cudaMallocAsync still held as the call began
// A reply without these keys (an older broker) says nothing was seen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/json.h"
#include "eval/flags.h"

namespace ptxbench::eval {

struct CallDiagnoses {
  bool default_stream = false;
  bool side_stream = false;
  std::vector<std::string> stale;  // the broker's sentences, e.g. "a launch of 'k': bytes 0..8
                                   // point into output C of another call, not this call's"
  std::uint64_t kept_bytes = 0;
};

// Call `i` of the burst whose reply extras are `extra`.
CallDiagnoses call_diagnoses(const Json& extra, std::size_t i);

// Is `stream` (a handle as the host sent it) one of the default streams: 0 (the legacy default
// stream, as `<<<grid, block>>>` passes it), 1 (cudaStreamLegacy), 2 (cudaStreamPerThread)?
bool is_default_stream(std::uint64_t stream);

// The flags the diagnoses give: default_stream, side_stream, stale_buffers, workspace_kept.
std::vector<Flag> diagnosis_flags(const CallDiagnoses& d);

// One clause for a failing call's message: what the broker saw that explains it ("" when
// nothing), e.g. "; the broker saw: a launch of 'k': ... (stale_buffers)". `withhold`: the call
// was on a hidden workload or came after one, so the candidate's choices in it (which kernel it
// launched, how many bytes it allocated) may carry hidden sizes: only the kinds are named.
std::string diagnosis_clause(const CallDiagnoses& d, bool withhold = false);

}  // namespace ptxbench::eval
