// Stratified balancing and pairing.
//
// balance(): per task, the examples are grouped into strata by (failing category,
// failing turn) and taken round-robin, one per stratum per round, until the task's cap
// is reached, so that no single error class or turn dominates a task (the paper caps
// 33 failures per task definition this way). Within a stratum the order is
// sha256("<seed>:<key>"), and the strata are visited in sha256("<seed>:<task>:<category>:<turn>")
// order: deterministic for a seed, independent of the order of the input.
// It runs on the failing side, BEFORE the failing turns are paired into rows.
//
// pair_rows(): with Pairing::one a repaired turn yields one row, from the latest
// selected failing turn before it; Pairing::all keeps every selected pair.
#pragma once

#include <cstdint>
#include <vector>

#include "sft/example.h"
#include "sft/options.h"

namespace ptxbench::sft {

// Returns the kept examples in their input order. cap 0 keeps everything.
std::vector<Example> balance(std::vector<Example> examples, int per_task_cap, std::uint64_t seed);

std::vector<Example> pair_rows(std::vector<Example> examples, Pairing pairing);

}  // namespace ptxbench::sft
