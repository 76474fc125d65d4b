// `ptxbench sft fixit|kernelgen`: reads run stores, builds the dataset (pipeline.h) and
// writes it to a folder:
//   train.jsonl, train_prompt_completion.jsonl, train_meta.jsonl      (rows.h)
//   heldout.jsonl, heldout_prompt_completion.jsonl, heldout_meta.jsonl (held-out tasks)
//   manifest.json: ptxbench version, sources (path, sha256, run provenance), options
//   (every filter), counts, dropped-by-reason, the coverage report and the sha256 of
//   every file written.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "sft/corpus.h"
#include "sft/options.h"
#include "sft/pipeline.h"

namespace ptxbench::sft {

struct ExportResult {
  Dataset dataset;
  Json manifest;
};

Result<ExportResult> export_dataset(const Corpus& corpus, const Options& options,
                                    const std::filesystem::path& out_dir,
                                    const std::string& ptxbench_version);

// The names of the files export_dataset writes into its folder (the manifest last).
std::vector<std::string> export_file_names();

// The manifest's sources section.
Json sources_json(const Corpus& corpus);

}  // namespace ptxbench::sft
