#include "sft/corpus.h"

#include <algorithm>
#include <string_view>
#include <system_error>

#include "core/fs.h"
#include "core/sha256.h"
#include "store/db.h"
#include "store/store.h"

namespace ptxbench::sft {
namespace {

// The content hash of a store, taken after folding its write-ahead log into the main
// file so that the hash covers every committed row.
Result<std::string> store_sha256(store::Db& db) {
  (void)db.exec("PRAGMA wal_checkpoint(TRUNCATE)");  // best effort: a busy writer keeps its log
  PTXB_TRY(std::string bytes, read_file(db.path()));
  return sha256_hex(bytes);
}

std::string given_twice(const std::filesystem::path& a, const std::filesystem::path& b,
                        std::string_view why) {
  if (a == b) return a.string() + " is given twice";
  return a.string() + " and " + b.string() + " " + std::string(why);
}

Status load_one(const std::filesystem::path& path, int index, Corpus& corpus) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return make_error(path.string() + ": no such run store",
                      "pass a RUN.db written by `ptxbench run` or `ptxbench sft mine`");
  PTXB_TRY(store::RunStore rs, store::RunStore::open_read_only(path));
  PTXB_TRY(store::Db db, store::Db::open_read_only(path));
  PTXB_TRY(auto seeds, read_seeds(db));

  SourceInfo info;
  info.path = path;
  PTXB_TRY(info.sha256, store_sha256(db));
  info.bytes = std::filesystem::file_size(path, ec);
  PTXB_TRY(store::RunRow run, rs.run());
  info.run_created_at = run.created_at;
  info.provenance = run.provenance;

  PTXB_TRY(auto trajectories, rs.trajectories());
  std::sort(trajectories.begin(), trajectories.end(),
            [](const auto& a, const auto& b) { return a.id < b.id; });
  for (const auto& t : trajectories) {
    PTXB_TRY(auto messages, rs.messages(t.id));
    Episode e;
    e.source_index = index;
    e.source_sha = info.sha256;
    e.trajectory_id = t.id;
    e.model = t.key.model;
    e.task = t.key.task;
    e.arch = t.key.arch;
    e.sample = t.key.sample;
    for (const auto& m : messages) {
      if (m.seq == 0) e.system = m.content;
      if (m.seq == 1) e.task_message = m.content;
    }
    PTXB_TRY(e.turns, store::stored_turns(rs, t.id));
    if (auto s = seeds.find(SeedKey{e.task, e.arch, e.sample}); s != seeds.end()) {
      e.seed = s->second;
      ++info.mined_trajectories;
    }
    ++info.trajectories;
    info.turns += static_cast<int>(e.turns.size());
    corpus.episodes.push_back(std::move(e));
  }
  corpus.sources.push_back(std::move(info));
  return {};
}

// A store named twice (the same file, or a byte-for-byte copy of it) would give every
// trajectory twice: refused, naming both arguments. The same file is caught before any
// is read.
Status check_same_file(const std::vector<std::filesystem::path>& stores) {
  for (std::size_t i = 0; i < stores.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (std::error_code ec; std::filesystem::equivalent(stores[j], stores[i], ec))
        return make_error(given_twice(stores[j], stores[i], "are the same file"),
                          "name each run store once");
  return {};
}

Status check_same_content(const Corpus& corpus) {
  const auto& s = corpus.sources;
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (s[j].sha256 == s[i].sha256)
        return make_error(given_twice(s[j].path, s[i].path, "hold the same run (identical bytes)"),
                          "name each run store once (a copy of a store adds nothing)");
  return {};
}

}  // namespace

std::string Episode::key() const {
  return source_sha.substr(0, 12) + "/" + std::to_string(trajectory_id);
}

Result<Corpus> load_corpus(const std::vector<std::filesystem::path>& stores) {
  if (stores.empty()) return make_error("no run store given", "pass one or more RUN.db files");
  PTXB_TRY_STATUS(check_same_file(stores));
  Corpus corpus;
  for (std::size_t i = 0; i < stores.size(); ++i) {
    auto st = load_one(stores[i], static_cast<int>(i), corpus);
    if (!st.ok()) {  // named once: the store's own errors begin with its path
      const std::string& message = st.error().message;
      const std::string name = stores[i].string();
      return make_error(message.starts_with(name) ? message : name + ": " + message,
                        st.error().hint);
    }
  }
  PTXB_TRY_STATUS(check_same_content(corpus));
  return corpus;
}

}  // namespace ptxbench::sft
