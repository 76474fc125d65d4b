// The run's stored configuration (runs.config_json, run::RunConfig::to_json) as a reader
// relies on it: every field ptxbench writes, of its type, and the values a run can have. A
// field that is absent is the reader's to default or refuse (older runs, tests' stores).
#pragma once

#include <optional>
#include <string>

#include "core/json.h"

namespace ptxbench::store {

// What of `config` (a JSON object) is not as ptxbench writes it ("the stored configuration's
// turns is not a whole number", "... turn_budgets holds 0, not a turn number (1 or more)"),
// or "" (campaign 3b: D02, D05, D06, D07).
std::string config_damage(const Json& config);

// The run's number of turns (its configuration's `turns`), when it holds a valid one.
std::optional<int> stored_turns(const Json& config);

}  // namespace ptxbench::store
