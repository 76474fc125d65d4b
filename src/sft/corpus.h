// The SFT corpus: every trajectory of one or more run stores, read through the
// store's reader API (store/stored_turn.h: each turn joined to the assistant message
// it evaluates and the user message that answered it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "sft/seeds.h"
#include "store/stored_turn.h"

namespace ptxbench::sft {

struct SourceInfo {
  std::filesystem::path path;
  std::string sha256;  // of the file's bytes (after a WAL checkpoint by the reader)
  std::uintmax_t bytes = 0;
  std::string run_created_at;
  Json provenance;  // runs.provenance_json
  int trajectories = 0;
  int turns = 0;
  int mined_trajectories = 0;  // trajectories started by `ptxbench sft mine`
};

struct Episode {
  int source_index = 0;    // into Corpus::sources
  std::string source_sha;  // that store's sha256
  std::int64_t trajectory_id = 0;
  std::string model, task, arch;
  int sample = 0;
  std::string system;                    // seq 0
  std::string task_message;              // seq 1
  std::vector<store::StoredTurn> turns;  // ascending turn, with their messages
  std::optional<Seed> seed;              // set for a teacher trajectory of `sft mine`

  // "<store sha256 prefix>/<trajectory id>": stable whatever the order of the stores.
  std::string key() const;
};

struct Corpus {
  std::vector<SourceInfo> sources;
  std::vector<Episode> episodes;  // in source order, then trajectory id
};

// Reads every store; an Error names the file and what to do (missing file, not a
// run database, schema version mismatch, a store given twice: the same file, or two
// files with identical bytes, would count every trajectory twice, so it is refused).
Result<Corpus> load_corpus(const std::vector<std::filesystem::path>& stores);

}  // namespace ptxbench::sft
