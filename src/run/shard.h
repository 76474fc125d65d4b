// Sharding a run across machines (docs/scale-out.md): shard I of N runs the trajectories of
// the plan whose position in the sorted plan is I modulo N, so the N shards are disjoint,
// together complete, and each gets a share of every task. A shard comes from `run --shard
// I/N` or, when that is absent, from the scheduler's environment: a Slurm job array
// (SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT) or a Kubernetes
// Indexed Job (JOB_COMPLETION_INDEX, with the count given as `--shard-count N`). A run records
// its shard in its provenance (to_json), so `run --resume` and `merge` know it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "store/store.h"

namespace ptxbench::run {

// Where a shard's index came from.
enum class ShardSource { whole, option, slurm, kubernetes };
std::string_view to_string(ShardSource s);

struct Shard {
  int index = 0;  // 0 <= index < count
  int count = 1;  // 1: the whole plan
  ShardSource source = ShardSource::whole;
  bool operator==(const Shard& o) const { return index == o.index && count == o.count; }
  std::string label() const;  // "I/N"

  // {"index", "count", "source", "planned", "trajectories"}: planned is the whole plan's
  // size, trajectories this shard's.
  Json to_json(std::size_t planned, std::size_t trajectories) const;
  // From a run's provenance: its "shard" object, or the whole plan when there is none (a
  // run made before sharding existed, or without it).
  static Result<Shard> from_provenance(const Json& provenance);
};

// "I/N" with 0 <= I < N, both whole numbers.
Result<Shard> parse_shard(std::string_view text);

// The environment's shard (`get` reads a variable; null when unset), nullopt when it names
// none. SLURM_ARRAY_TASK_ID wins over JOB_COMPLETION_INDEX; `count` (--shard-count) is
// required with JOB_COMPLETION_INDEX and, with a Slurm array, must equal its task count.
using EnvFn = std::function<const char*(const char*)>;
Result<std::optional<Shard>> shard_from_environment(const EnvFn& get, std::optional<int> count);

// The trajectories of `plan` (sorted, as plan_trajectories makes it) that `shard` runs.
std::vector<store::TrajectoryKey> select_shard(const std::vector<store::TrajectoryKey>& plan,
                                               const Shard& shard);

// One input of `merge`, as read from its run file.
struct ShardFile {
  std::string path;
  Json config;  // the stored RunConfig
  Shard shard;
  bool finished = false;  // the run's status is done
};

// Whether `files` may be merged: one configuration (config_hash; the error names the
// settings that differ), one shard count, no shard twice, every shard present and finished
// (unless `allow_partial`; the error names the missing or unfinished shards). The
// advice says what to do.
Status check_shard_set(const std::vector<ShardFile>& files, bool allow_partial);

// The shards of `count` that `files` lack, in order.
std::vector<int> missing_shards(const std::vector<ShardFile>& files);

}  // namespace ptxbench::run
