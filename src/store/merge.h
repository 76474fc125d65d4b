// Merging run files (the shards of one run, docs/scale-out.md) into one new run file,
// table by table and column by column as the inputs' own schema has them, so that every
// row and every column (a column or table a later ptxbench adds included) is copied as
// stored. Whether the inputs belong together (one configuration, disjoint shards) is the
// caller's to check (run/shard.h); here only that they are runs of one schema.
#pragma once

#include <filesystem>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace ptxbench::store {

struct MergedRun {
  Json provenance;    // the merged file's runs.provenance_json
  bool done = false;  // its runs.status: done (finished_at: the inputs' latest), else running
};

// Writes `out` (which must not exist) from `inputs`: the first input's meta and runs row
// (created_at: the inputs' earliest; provenance and status from `merged`), and every row of
// every other table of every input. Rows keep their values; the INTEGER PRIMARY KEY ids are
// renumbered (in the order of each table's foreign keys, then its UNIQUE key, so the
// trajectories are in plan order as in one unsharded run) and every foreign key follows its
// row. Written to a temporary file beside `out` and renamed in place only when complete: on
// any failure nothing is left. Errors: inputs that are not runs, are damaged
// (RunStore::open_read_only: each checked before anything is written) or of different schemas
// (naming both), rows that collide, I/O.
Status merge_run_files(const std::vector<std::filesystem::path>& inputs,
                       const std::filesystem::path& out, const MergedRun& merged);

}  // namespace ptxbench::store
