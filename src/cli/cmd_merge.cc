// `ptxbench merge A.db B.db ... --out M.db`: the shards of one run (`run --shard I/N`, one per
// Slurm array task or Kubernetes index) joined into one run file that `show`, `sft` and the
// reports read as they read an unsharded run of the same plan (docs/scale-out.md).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "cli/command.h"
#include "cli/report_outputs.h"
#include "core/interrupt.h"
#include "core/utf8.h"
#include "run/shard.h"
#include "store/merge.h"
#include "store/store.h"

namespace ptxbench::cli {
namespace {

namespace fs = std::filesystem;

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string out;
  bool allow_partial = false;
};

// One input as merge sees it, with its provenance for the merged file's.
struct Input {
  run::ShardFile file;
  Json provenance;
  std::size_t trajectories = 0;
};

Result<Input> read_merge_input(const std::string& path) {
  PTXB_TRY(store::RunStore s, store::RunStore::open_read_only(path));
  PTXB_TRY(store::RunRow row, s.run());
  PTXB_TRY(run::Shard shard, run::Shard::from_provenance(row.provenance));
  PTXB_TRY(std::vector<store::TrajectoryRow> t, s.trajectories());
  return Input{
      {path, row.config, shard, row.status == store::RunStatus::done}, row.provenance, t.size()};
}

Status check_paths(const MergeOptions& o) {
  std::error_code ec;
  if (fs::is_directory(o.out, ec))
    return make_error("--out " + o.out + " is a folder; it names the merged run file to create",
                      "e.g. --out " + (fs::path(o.out) / "merged.db").string());
  if (fs::exists(o.out, ec))
    return make_error(o.out + " already exists",
                      "choose another --out; ptxbench does not overwrite files");
  for (std::size_t i = 0; i < o.inputs.size(); ++i) {
    if (!fs::exists(o.inputs[i], ec))
      return make_error(o.inputs[i] + " does not exist",
                        "pass the run files that `ptxbench run --shard I/N` wrote");
    for (std::size_t j = 0; j < i; ++j)
      if (fs::equivalent(o.inputs[i], o.inputs[j], ec))
        return make_error(o.inputs[j] + " is given twice", "pass each shard's file once");
    if (fs::equivalent(o.inputs[i], o.out, ec))
      return make_error("--out " + o.out + " is one of the inputs", "choose another --out");
  }
  return check_output_place("--out", o.out, o.inputs);
}

// The merged provenance: what every shard agrees on (version, commit, toolchain, pipeline)
// at the top, each shard's own under "merged_from", and the merge itself under "merge".
Json merged_provenance(const std::vector<Input>& inputs, const std::vector<int>& missing,
                       const Context& ctx) {
  Json common = inputs.front().provenance.is_object() ? inputs.front().provenance : Json::object();
  common.erase("shard");
  Json shards = Json::array();
  for (const auto& in : inputs) {
    for (auto it = common.begin(); it != common.end();) {
      const Json& p = in.provenance;
      if (p.is_object() && p.contains(it.key()) && p.at(it.key()) == it.value())
        ++it;
      else
        it = common.erase(it);
    }
    shards.push_back(Json{{"file", fs::absolute(in.file.path).string()},
                          {"shard", in.file.shard.label()},
                          {"finished", in.file.finished},
                          {"trajectories", in.trajectories},
                          {"provenance", in.provenance}});
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  common["merge"] = Json{{"ptxbench", PTXBENCH_VERSION},
                         {"host", host},
                         {"argv", ctx.argv},
                         {"shard_count", inputs.front().file.shard.count},
                         {"missing_shards", missing}};
  common["merged_from"] = shards;
  return common;
}

int merge_fail(Context& ctx, const Error& e) {
  ctx.err << "ptxbench merge: " << to_console_text(e.to_string()) << "\n";
  if (const int sig = interrupt_signal(); sig != 0) return interrupted_exit_code(sig);
  return exit_code_for(e, exit_code::bad_input);
}

int merge(const MergeOptions& o, Context& ctx) {
  // Ctrl-C or kill: the merge stops before it publishes --out, and its temporary file goes.
  InterruptScope interrupts;
  if (auto st = check_paths(o); !st.ok()) return merge_fail(ctx, st.error());
  std::vector<Input> inputs;
  for (const auto& p : o.inputs) {
    auto in = read_merge_input(p);
    if (!in.ok()) return merge_fail(ctx, in.error());
    inputs.push_back(std::move(*in));
  }
  // In shard order, whatever the order given: the merged run row is shard 0's.
  std::stable_sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) {
    return a.file.shard.index < b.file.shard.index;
  });
  std::vector<run::ShardFile> files;
  std::vector<fs::path> paths;
  std::size_t trajectories = 0;
  for (const auto& in : inputs) {
    files.push_back(in.file);
    paths.emplace_back(in.file.path);
    trajectories += in.trajectories;
  }
  if (auto st = run::check_shard_set(files, o.allow_partial); !st.ok())
    return merge_fail(ctx, st.error());
  const std::vector<int> missing = run::missing_shards(files);
  const bool done = missing.empty() && std::all_of(files.begin(), files.end(),
                                                   [](const auto& f) { return f.finished; });
  store::MergedRun merged{merged_provenance(inputs, missing, ctx), done};
  if (auto st = make_output_folder(o.out); !st.ok()) return merge_fail(ctx, st.error());
  if (auto st = store::merge_run_files(paths, o.out, merged); !st.ok())
    return merge_fail(ctx, st.error());
  const int count = files.front().shard.count;
  ctx.err << to_console_text(fmt::format(
      "ptxbench merge: {} of {} shard{} ({} trajector{}) -> {}{}\n", files.size(), count,
      count == 1 ? "" : "s", trajectories, trajectories == 1 ? "y" : "ies", o.out,
      done ? "" : " (partial: not every shard is there and finished; `show` counts what is)"));
  return exit_code::ok;
}

}  // namespace

void attach_merge(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<MergeOptions>();
  sub.footer(with_help_footer(
      "The inputs are the run files of one run's shards (`ptxbench run --shard I/N`, or one "
      "per Slurm array task / Kubernetes index). Refused: files of different configurations "
      "(all options but --shard, --gpus, --concurrency and --cpu-jobs), a shard given twice or "
      "of another split, and, without --allow-partial, a missing or unfinished shard (named). "
      "Every table and column is copied as stored; the merged file is written beside --out "
      "and renamed into place when complete. docs/scale-out.md"));
  sub.add_option("RUN", o->inputs, "the shards' run files")->required();
  sub.add_option("--out", o->out, "the merged run file to create")->required();
  sub.add_flag("--allow-partial", o->allow_partial,
               "merge even when shards are missing or unfinished (the result is marked running)");
  sub.callback([o, &ctx] { ctx.exit_code = merge(*o, ctx); });
}

}  // namespace ptxbench::cli
