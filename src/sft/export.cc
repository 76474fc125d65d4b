#include "sft/export.h"

#include <system_error>

#include "core/fs.h"
#include "core/interrupt.h"
#include "core/sha256.h"
#include "sft/rows.h"

namespace ptxbench::sft {
namespace {

struct Written {
  std::string name;
  std::string sha256;
  std::size_t lines = 0;
  std::size_t bytes = 0;
};

Result<Written> write_lines(const std::filesystem::path& dir, const std::string& name,
                            const std::vector<Example>& xs, Json (*row)(const Example&)) {
  std::string text;
  for (const auto& x : xs) text += to_text(row(x)) + "\n";
  PTXB_TRY_STATUS(write_file_atomic(dir / name, text));
  return Written{name, sha256_hex(text), xs.size(), text.size()};
}

Json meta_row(const Example& x) {
  return x.meta();
}

// What an export makes in its folder, removed again unless it completes (an export stopped by
// an error, Ctrl-C or kill leaves no half-written folder: campaign 3b X21): the files it added
// and the folder when it made it. Files that were there before (an earlier export written over
// with --force) are left.
class Unfinished {
 public:
  explicit Unfinished(std::filesystem::path dir) : dir_(std::move(dir)) {
    std::error_code ec;
    made_dir_ = !std::filesystem::exists(dir_, ec);
    for (const auto& name : export_file_names())
      if (!std::filesystem::exists(dir_ / name, ec)) added_.push_back(dir_ / name);
  }
  Unfinished(const Unfinished&) = delete;
  Unfinished& operator=(const Unfinished&) = delete;
  ~Unfinished() {
    if (done_) return;
    std::error_code ec;
    for (const auto& f : added_) std::filesystem::remove(f, ec);
    if (made_dir_) std::filesystem::remove(dir_, ec);  // only when empty
  }
  void done() { done_ = true; }

 private:
  std::filesystem::path dir_;
  bool made_dir_ = false, done_ = false;
  std::vector<std::filesystem::path> added_;
};

// Between two files: an Error once the command's InterruptScope has seen Ctrl-C or kill.
Status not_interrupted(const std::filesystem::path& dir) {
  if (const int sig = interrupt_signal(); sig != 0)
    return make_error(std::string("interrupted (") + interrupt_name(sig) +
                      "): nothing was written to " + dir.string());
  return {};
}

}  // namespace

std::vector<std::string> export_file_names() {
  std::vector<std::string> out;
  for (const char* prefix : {"train", "heldout"})
    for (const char* format : {".jsonl", "_prompt_completion.jsonl", "_meta.jsonl"})
      out.push_back(std::string(prefix) + format);
  out.push_back("manifest.json");
  return out;
}

Json sources_json(const Corpus& corpus) {
  Json out = Json::array();
  for (const auto& s : corpus.sources)
    out.push_back(Json{{"path", s.path.string()},
                       {"sha256", s.sha256},
                       {"bytes", s.bytes},
                       {"run_created_at", s.run_created_at},
                       {"provenance", s.provenance},
                       {"trajectories", s.trajectories},
                       {"mined_trajectories", s.mined_trajectories},
                       {"turns", s.turns}});
  return out;
}

Result<ExportResult> export_dataset(const Corpus& corpus, const Options& options,
                                    const std::filesystem::path& out_dir,
                                    const std::string& version) {
  PTXB_TRY_STATUS(options.validate());
  Unfinished unfinished(out_dir);
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec)
    return make_error("cannot create " + out_dir.string() + ": " + ec.message(),
                      "pass a writable --out folder");

  ExportResult r{build_dataset(corpus, options), Json::object()};
  std::vector<Written> files;
  for (const auto& [prefix, rows] :
       {std::pair<std::string, const std::vector<Example>*>{"train", &r.dataset.train},
        {"heldout", &r.dataset.heldout}}) {
    PTXB_TRY_STATUS(not_interrupted(out_dir));
    PTXB_TRY(Written a, write_lines(out_dir, prefix + ".jsonl", *rows, messages_row));
    PTXB_TRY(Written b, write_lines(out_dir, prefix + "_prompt_completion.jsonl", *rows,
                                    prompt_completion_row));
    PTXB_TRY(Written c, write_lines(out_dir, prefix + "_meta.jsonl", *rows, meta_row));
    files.insert(files.end(), {a, b, c});
  }
  Json outputs = Json::object();
  for (const auto& f : files)
    outputs[f.name] = Json{{"sha256", f.sha256}, {"rows", f.lines}, {"bytes", f.bytes}};

  const Dataset& d = r.dataset;
  r.manifest = Json{
      {"ptxbench_version", version},
      {"mode", to_string(options.mode)},
      {"sources", sources_json(corpus)},
      {"options", options.to_json()},
      {"counts", d.coverage.to_json()["totals"]},
      {"dropped", d.dropped},
      {"heldout_tasks_without_rows", d.heldout_tasks_absent},
      {"coverage", d.coverage.to_json()},
      {"formats",
       {{"train.jsonl",
         "{\"messages\": [...]} chat rows; assistant messages carry \"weight\": 1 on the last "
         "(trained) and 0 on the others (context)"},
        {"train_prompt_completion.jsonl",
         "{\"prompt\": [...], \"completion\": [last message]} (TRL)"},
        {"train_meta.jsonl", "line i describes row i: task, category, turns, speedup, provenance"},
        {"heldout*", "the same three formats for the held-out tasks"}}},
      {"outputs", outputs}};
  PTXB_TRY_STATUS(not_interrupted(out_dir));
  PTXB_TRY_STATUS(write_file_atomic(out_dir / "manifest.json", to_text(r.manifest, 2) + "\n"));
  unfinished.done();
  return r;
}

}  // namespace ptxbench::sft
