// TurnCost: what one stored turn spent, read from what the run file stores per turn.
//
// Where each number is stored (docs/store-schema.md): the turn's llm_json (prompt_tokens,
// completion_tokens, reasoning_tokens: the server's usage, absent (0) when it reports none;
// total_s: the request's wall time with its retries, else latency_s), compile_json
// (compiler_cpu_seconds: nvcc's CPU time, counted only when this turn built it, not on a
// compile-cache hit) and eval_json (gpu_seconds: the time the candidate held its GPU; runs
// stored before it have the judging session's `seconds` instead, and an evaluation that did
// not run, not_run, cost none). No schema change: older run files give what they stored.
// A group's totals are report/cost.h's.
#pragma once

#include "core/json.h"

namespace ptxbench::store {

struct TurnCost {
  long prompt_tokens = 0;
  long completion_tokens = 0;  // reasoning tokens included, as servers count them
  long reasoning_tokens = 0;
  double request_s = 0;      // wall seconds of the model request (retries included)
  double compile_cpu_s = 0;  // nvcc's user + system CPU seconds spent in this turn
  double gpu_s = 0;          // wall seconds a GPU was held to judge it
};

// Reads one stored turn's parts; a field it cannot read counts 0, and so does a stored token
// count that is no count (llm/protocol.h token_count: an older ptxbench stored -5 or 1e30 as
// sent).
TurnCost turn_cost(const Json& llm, const Json& compile, const Json& eval);

}  // namespace ptxbench::store
