// The export pipeline, from a corpus to train and held-out rows:
//   candidates (failing -> repairable; kernelgen: correct -> accepted)
//   -> dedup by normalised source hash        (stage "deduplicated")
//   -> token-length limit                     (stage "within_length")
//   -> stratified balancing, per-task cap     (stage "balanced")
//   -> pairing into rows                      (stage "rows")
//   -> held-out split                         (stages "train", "heldout")
// Every stage is counted per (task, category, turn) in the coverage report, and every
// dropped candidate under the reason it was dropped.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sft/corpus.h"
#include "sft/coverage.h"
#include "sft/example.h"
#include "sft/options.h"

namespace ptxbench::sft {

struct Dataset {
  std::vector<Example> train;
  std::vector<Example> heldout;
  Coverage coverage;
  std::map<std::string, int> dropped;             // reason -> count
  std::vector<std::string> heldout_tasks_absent;  // --heldout-task names no row had
};

Dataset build_dataset(const Corpus& corpus, const Options& options);

}  // namespace ptxbench::sft
