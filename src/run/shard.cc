#include "run/shard.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "core/text.h"
#include "run/config.h"

namespace ptxbench::run {
namespace {

// A whole number >= 0 that fits an int, or nullopt.
std::optional<int> whole_number(std::string_view s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

Result<int> env_number(const EnvFn& get, const char* name) {
  const char* v = get(name);
  auto n = whole_number(v ? std::string_view(v) : std::string_view());
  if (!n)
    return make_error(fmt::format("{}='{}' is not a whole number", name, v ? v : ""),
                      "is this process started by the scheduler that sets it?");
  return *n;
}

Result<std::optional<Shard>> slurm_shard(const EnvFn& get, std::optional<int> count) {
  PTXB_TRY(int id, env_number(get, "SLURM_ARRAY_TASK_ID"));
  if (!get("SLURM_ARRAY_TASK_COUNT"))
    return make_error("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not",
                      "pass the shard explicitly: --shard I/N");
  PTXB_TRY(int n, env_number(get, "SLURM_ARRAY_TASK_COUNT"));
  int min = 0;
  if (get("SLURM_ARRAY_TASK_MIN")) {
    PTXB_TRY(min, env_number(get, "SLURM_ARRAY_TASK_MIN"));
  }
  if (count && *count != n)
    return make_error(
        fmt::format("--shard-count {} but the Slurm job array has {} tasks", *count, n),
        "drop --shard-count: a job array's task count is the shard count");
  const int index = id - min;
  if (n < 1 || index < 0 || index >= n)
    return make_error(
        fmt::format("the Slurm array task {} (array {}..., {} tasks) is not shard 0..{}", id, min,
                    n, n - 1),
        "submit the shards as one array without gaps or steps (--array=0-N-1), or pass --shard "
        "I/N");
  return std::optional<Shard>(Shard{index, n, ShardSource::slurm});
}

}  // namespace

std::string_view to_string(ShardSource s) {
  switch (s) {
    case ShardSource::whole:
      return "whole";
    case ShardSource::option:
      return "--shard";
    case ShardSource::slurm:
      return "SLURM_ARRAY_TASK_ID";
    case ShardSource::kubernetes:
      return "JOB_COMPLETION_INDEX";
  }
  return "whole";
}

std::string Shard::label() const {
  return fmt::format("{}/{}", index, count);
}

Json Shard::to_json(std::size_t planned, std::size_t trajectories) const {
  return Json{{"index", index},
              {"count", count},
              {"source", std::string(run::to_string(source))},
              {"planned", planned},
              {"trajectories", trajectories}};
}

Result<Shard> Shard::from_provenance(const Json& provenance) {
  if (!provenance.is_object() || !provenance.contains("shard")) return Shard{};
  const Json& j = provenance.at("shard");
  if (!j.is_object() || !j.value("index", Json()).is_number_integer() ||
      !j.value("count", Json()).is_number_integer())
    return make_error("the run's provenance has an unreadable shard: " + to_text(j),
                      "was it written by another ptxbench version?");
  Shard s{j.at("index").get<int>(), j.at("count").get<int>(), ShardSource::option};
  if (s.count < 1 || s.index < 0 || s.index >= s.count)
    return make_error("the run's provenance names shard " + s.label() + ", which is not one");
  for (ShardSource src : {ShardSource::whole, ShardSource::slurm, ShardSource::kubernetes})
    if (j.value("source", std::string()) == run::to_string(src)) s.source = src;
  return s;
}

Result<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  auto bad = [&](std::string_view why) {
    return make_error(fmt::format("--shard '{}' {}", text, why),
                      "give I/N with 0 <= I < N, e.g. --shard 0/4 ... --shard 3/4");
  };
  if (slash == std::string_view::npos) return bad("is not I/N");
  auto i = whole_number(text.substr(0, slash));
  auto n = whole_number(text.substr(slash + 1));
  if (!i || !n) return bad("is not I/N with whole numbers");
  if (*n < 1) return bad("has no shards (N must be at least 1)");
  if (*i >= *n) return bad(fmt::format("names shard {} of {}; they are 0 to {}", *i, *n, *n - 1));
  return Shard{*i, *n, ShardSource::option};
}

Result<std::optional<Shard>> shard_from_environment(const EnvFn& get, std::optional<int> count) {
  if (count && *count < 1) return make_error("--shard-count must be at least 1");
  if (get("SLURM_ARRAY_TASK_ID")) return slurm_shard(get, count);
  if (!get("JOB_COMPLETION_INDEX")) {
    if (count)
      return make_error(
          "--shard-count needs a shard index from the scheduler (SLURM_ARRAY_TASK_ID or "
          "JOB_COMPLETION_INDEX), and neither is set",
          "pass --shard I/N instead");
    return std::optional<Shard>();
  }
  if (!count) return std::optional<Shard>();  // a Kubernetes job that does not shard
  PTXB_TRY(int index, env_number(get, "JOB_COMPLETION_INDEX"));
  if (index >= *count)
    return make_error(fmt::format("JOB_COMPLETION_INDEX={} but --shard-count is {}", index, *count),
                      "give --shard-count the Indexed Job's completions");
  return std::optional<Shard>(Shard{index, *count, ShardSource::kubernetes});
}

std::vector<store::TrajectoryKey> select_shard(const std::vector<store::TrajectoryKey>& plan,
                                               const Shard& shard) {
  std::vector<store::TrajectoryKey> sorted = plan;
  std::sort(sorted.begin(), sorted.end());
  std::vector<store::TrajectoryKey> out;
  for (std::size_t i = static_cast<std::size_t>(shard.index); i < sorted.size();
       i += static_cast<std::size_t>(shard.count))
    out.push_back(sorted[i]);
  return out;
}

std::vector<int> missing_shards(const std::vector<ShardFile>& files) {
  if (files.empty()) return {};
  std::set<int> have;
  for (const auto& f : files) have.insert(f.shard.index);
  std::vector<int> out;
  for (int i = 0; i < files.front().shard.count; ++i)
    if (!have.count(i)) out.push_back(i);
  return out;
}

namespace {

Status same_configuration(const std::vector<ShardFile>& files) {
  PTXB_TRY(RunConfig first, RunConfig::from_json(files.front().config));
  for (std::size_t i = 1; i < files.size(); ++i) {
    PTXB_TRY(RunConfig c, RunConfig::from_json(files[i].config));
    if (config_hash(c) == config_hash(first)) continue;
    return make_error(
        fmt::format("{} and {} were run with different configurations ({} differ)",
                    files.front().path, files[i].path, join(config_differences(first, c), ", ")),
        "merge only the shards of one run (same options but --shard, --gpus, "
        "--concurrency and --cpu-jobs)");
  }
  return {};
}

Status one_shard_each(const std::vector<ShardFile>& files) {
  std::map<int, std::string> seen;
  const int count = files.front().shard.count;
  for (const auto& f : files) {
    if (f.shard.count != count)
      return make_error(
          fmt::format("{} is shard {} but {} is shard {}: different shard counts",
                      files.front().path, files.front().shard.label(), f.path, f.shard.label()),
          "merge the shards of one split (the same N in --shard I/N)");
    auto [it, fresh] = seen.emplace(f.shard.index, f.path);
    if (!fresh)
      return make_error(fmt::format("{} and {} are both shard {}: they overlap", it->second, f.path,
                                    f.shard.label()),
                        "pass each shard once (a resumed shard is the same file: pass it once)");
  }
  return {};
}

}  // namespace

Status check_shard_set(const std::vector<ShardFile>& files, bool allow_partial) {
  if (files.empty()) return make_error("nothing to merge", "pass the shards' run files");
  PTXB_TRY_STATUS(same_configuration(files));
  PTXB_TRY_STATUS(one_shard_each(files));
  if (allow_partial) return {};
  const int count = files.front().shard.count;
  std::vector<std::string> gaps;
  for (int i : missing_shards(files))
    gaps.push_back(fmt::format("shard {}/{} is missing", i, count));
  for (const auto& f : files)
    if (!f.finished)
      gaps.push_back(fmt::format("{} (shard {}) did not finish", f.path, f.shard.label()));
  if (gaps.empty()) return {};
  return make_error("the shards are incomplete: " + join(gaps, "; "),
                    "run the missing shards (`ptxbench run --shard I/N ...`), finish the others "
                    "(`ptxbench run --resume FILE`), or pass --allow-partial");
}

}  // namespace ptxbench::run
