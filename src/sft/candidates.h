// The first stages of the export: find the candidate rows of a corpus.
//   fixit: every failing turn (category in Options::categories) is linked to its
//   repair, the first LATER turn of the same trajectory that is correct, executes the
//   target families (unless --allow-missing-instructions), carries no guard flag
//   (unless allowed) and reaches the speedup floor. A teacher trajectory of
//   `sft mine` contributes one candidate: its seed, repaired by its first such turn.
//   kernelgen: every turn passing the same repair criteria.
// Coverage stages: "failing" (kernelgen: "correct") and "repairable" (kernelgen: "accepted").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sft/corpus.h"
#include "sft/coverage.h"
#include "sft/example.h"
#include "sft/options.h"

namespace ptxbench::sft {

struct Candidates {
  std::vector<Example> examples;       // in corpus order
  std::map<std::string, int> dropped;  // reason -> failing turns dropped
};

Candidates find_candidates(const Corpus& corpus, const Options& options, Coverage& coverage);

// Why a correct turn is not an acceptable repair ("" when it is): "missing_instructions",
// "guard_flagged", "below_speedup_floor".
std::string repair_rejection(const store::StoredTurn& t, const Options& options);

// The repaired assistant message as trained on: "<think>\nREASONING\n</think>\n\n" + content
// when the store has reasoning and options.include_reasoning.
std::string repair_content(const store::StoredTurn& t, const Options& options);

}  // namespace ptxbench::sft
