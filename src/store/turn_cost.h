// TurnCost: what one stored turn spent, read from the turn's llm_json and its judged report.
//
// Where each number comes from (docs/store-schema.md): the turn's llm_json (prompt_tokens,
// completion_tokens, reasoning_tokens: the server's usage, absent (0) when it reports none;
// total_s: the request's wall time with its retries, else latency_s), and the turn's stages read
// as a judge::JudgeReport (stored_turn.h stored_report): the compile stage's
// compiler_cpu_seconds (nvcc's CPU time, counted only when this turn built it, not on a
// compile-cache hit) and the report's gpu_seconds (the time the candidate held its GPU; runs
// stored before it have the judging session's `seconds` instead; an evaluation that did not
// run cost none). No schema change: older run files give what they stored. A group's totals
// are report/cost.h's.
#pragma once

#include "core/json.h"
#include "judge/report.h"

namespace ptxbench::store {

struct TurnCost {
  long prompt_tokens = 0;
  long completion_tokens = 0;  // reasoning tokens included, as servers count them
  long reasoning_tokens = 0;
  double request_s = 0;      // wall seconds of the model request (retries included)
  double compile_cpu_s = 0;  // nvcc's user + system CPU seconds spent in this turn
  double gpu_s = 0;          // wall seconds a GPU was held to judge it
};

// One stored turn's cost from its llm_json and its report (null: the stages could not be read,
// or the turn had no code: nothing judged). A field it cannot read counts 0, and so does a stored
// token count that is no count (llm/protocol.h token_count: an older ptxbench stored -5 or 1e30
// as sent).
TurnCost turn_cost(const Json& llm, const judge::JudgeReport* report);

}  // namespace ptxbench::store
