// Seeds of teacher repair mining: the failing turn a teacher trajectory of
// `ptxbench sft mine` was asked to repair. They live in the mined store itself, in
// the table sft_seeds (sample -> seed JSON), beside the store's own tables; the
// export reads them to rebuild the original 5-message repair row.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

#include "core/json.h"
#include "core/result.h"
#include "store/db.h"

namespace ptxbench::sft {

struct Seed {
  std::string origin_path;    // the run store the failing turn came from
  std::string origin_sha256;  // its content hash
  std::int64_t origin_trajectory = 0;
  std::string model;  // the model that wrote the wrong kernel
  std::string task, arch;
  int turn = 0;
  std::string category;
  std::string system;        // the original system message
  std::string task_message;  // the original task message
  std::string wrong;         // the assistant message holding the wrong kernel
  std::string wrong_source;  // the kernel extracted from it ("" when none)
  std::string feedback;      // the exact feedback the model saw

  Json to_json() const;
  static Result<Seed> from_json(const Json& j);
};

// (task, arch, sample) of the teacher trajectory a seed started.
using SeedKey = std::tuple<std::string, std::string, int>;

Status ensure_seed_table(store::Db& db);
// Records (or replaces) the seed of the trajectory (task, arch, sample).
Status put_seed(store::Db& db, int sample, const Seed& seed);
// Every seed of the file; empty when the file has no sft_seeds table.
Result<std::map<SeedKey, Seed>> read_seeds(store::Db& db);

}  // namespace ptxbench::sft
