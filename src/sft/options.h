// What `ptxbench sft fixit|kernelgen|coverage|mine` select, filter and balance.
// Defaults follow the paper's Fixit recipe (field notes §1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "sft/normalize.h"

namespace ptxbench::sft {

enum class Mode { fixit, kernelgen };
// one: a repaired turn yields one row, from the latest selected failing turn before
// it; all: one row per selected failing turn, so a repair may appear several times.
enum class Pairing { one, all };

// The failing categories mined by default: the paper's compile, runtime, timeout and
// numerical failures, plus correct-without-target-instructions and policy violations
// (a banned call is a kernel with a concrete, fixable fault). no_code is left out by
// default: its "wrong kernel" is prose or a truncated reply, not a kernel to repair.
std::vector<std::string> default_failing_categories();
// Every category a failing turn can have: the candidate's own failures
// (judge::is_failure), by their stored names.
const std::vector<std::string>& known_failing_categories();

struct Options {
  Mode mode = Mode::fixit;
  std::vector<std::string> categories = default_failing_categories();
  bool require_arch = true;                // a repair must execute the target families
  std::vector<std::string> allowed_flags;  // guard flags that do not disqualify a repair
  double min_speedup = 0;                  // repairs below it are dropped; 0: no floor
  // Per row, estimated; 0: no limit. A row with the full-context system prompt (~9k
  // tokens) and a hand-tuned wgmma kernel is 17-22k tokens (the embedded agent's run on
  // the H200, 2026-11-29), so 16k would drop every real repair.
  std::size_t max_tokens = 32768;
  double bytes_per_token = kDefaultBytesPerToken;
  int per_task_cap = 33;   // failing turns kept per task; 0: no cap
  std::uint64_t seed = 0;  // balancing's tie-breaking order
  Pairing pairing = Pairing::one;
  std::vector<std::string> heldout_tasks;  // rows of these tasks go to heldout.jsonl
  bool include_reasoning = true;           // prefix the repair with <think>reasoning</think>

  // Unknown category, negative values: a usage error naming the option.
  Status validate() const;
  Json to_json() const;
};

std::string_view to_string(Mode m);
std::string_view to_string(Pairing p);

}  // namespace ptxbench::sft
