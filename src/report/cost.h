// Cost accounting: what each turn spent (model tokens, request time, compile CPU time, GPU
// time to judge it), read from what the run file stores per turn, and a group's totals per
// correct kernel and per correct-with-arch kernel, in US dollars when token prices are given.
//
// Where each number is stored (docs/store-schema.md): the turn's llm_json (prompt_tokens,
// completion_tokens, reasoning_tokens: the server's usage, absent (0) when it reports none;
// total_s: the request's wall time with its retries, else latency_s), compile_json
// (compiler_cpu_seconds: nvcc's CPU time, counted only when this turn built it, not on a
// compile-cache hit) and eval_json (gpu_seconds: the time the candidate held its GPU; runs
// stored before it have the judging session's `seconds` instead, and an evaluation that did
// not run, not_run, cost none). No schema change: older run files give what they stored.
#pragma once

#include <optional>

#include "core/json.h"
#include "store/store.h"

namespace ptxbench::report {

struct TurnCost {
  long prompt_tokens = 0;
  long completion_tokens = 0;  // reasoning tokens included, as servers count them
  long reasoning_tokens = 0;
  double request_s = 0;      // wall seconds of the model request (retries included)
  double compile_cpu_s = 0;  // nvcc's user + system CPU seconds spent in this turn
  double gpu_s = 0;          // wall seconds a GPU was held to judge it
};

// Reads one stored turn; a field it cannot read counts 0, and so does a stored token count
// that is no count (llm/protocol.h token_count: an older ptxbench stored -5 or 1e30 as sent).
TurnCost turn_cost(const Json& llm, const Json& compile, const Json& eval);
inline TurnCost turn_cost(const store::TurnRow& t) {
  return turn_cost(t.llm, t.compile, t.eval);
}

// USD per million tokens; prompt tokens at `in`, completion tokens (reasoning included) at
// `out`. An unset price: no dollars.
struct Prices {
  std::optional<double> in;
  std::optional<double> out;
  bool any() const { return in || out; }
};

// A group's costs: every stored turn of every trajectory counts (a failed trajectory's turns
// were spent too); correct kernels are correct turns, correct-with-arch kernels those whose
// target families executed (the summary's correct and correct+arch).
struct CostSummary {
  int turns = 0;
  TurnCost total;
  int correct_kernels = 0;
  int arch_kernels = 0;
  std::optional<double> usd;  // with prices

  void add(const TurnCost& c, bool correct, bool arch_executed);
  void price(const Prices& p);
  // prompt + completion, saturating (each total saturates too: counts read from a file never
  // overflow into a negative total).
  long tokens() const;
  // Per kernel: empty when there is none.
  std::optional<double> per_correct(double v) const;
  std::optional<double> per_arch(double v) const;
};

Json to_json(const CostSummary& c);

}  // namespace ptxbench::report
