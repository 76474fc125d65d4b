#include "sft/mine.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

#include "core/interrupt.h"
#include "core/parallel.h"
#include "judge/disposition.h"
#include "sft/balance.h"
#include "sft/normalize.h"

namespace ptxbench::sft {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

Seed make_seed(const Corpus& corpus, const Episode& e, const store::StoredTurn& t) {
  Seed s;
  s.origin_path = corpus.sources[e.source_index].path.string();
  s.origin_sha256 = e.source_sha;
  s.origin_trajectory = e.trajectory_id;
  s.model = e.model;
  s.task = e.task;
  s.arch = e.arch;
  s.turn = t.turn;
  s.category = std::string(judge::to_string(t.category));
  s.system = e.system;
  s.task_message = e.task_message;
  s.wrong = t.assistant;
  s.wrong_source = t.source;
  s.feedback = t.shown_feedback;
  return s;
}

bool same_origin(const Seed& a, const Seed& b) {
  return a.origin_sha256 == b.origin_sha256 && a.origin_trajectory == b.origin_trajectory &&
         a.turn == b.turn;
}

// A teacher trajectory with a passed turn (correct, target instructions executed).
bool repaired(store::RunStore& rs, std::int64_t id) {
  auto turns = rs.turns(id);
  if (!turns.ok()) return false;
  return std::any_of(turns->begin(), turns->end(), [](const store::TurnRow& t) {
    return t.category == judge::Disposition::passed;
  });
}

// The trajectory of `key` in the store, if any.
std::optional<store::TrajectoryRow> find_trajectory(store::RunStore& rs,
                                                    const store::TrajectoryKey& key) {
  auto all = rs.trajectories();
  if (!all.ok()) return std::nullopt;
  for (const auto& t : *all)
    if (t.key == key) return t;
  return std::nullopt;
}

store::TrajectoryKey key_of(const MineConfig& cfg, const SeedJob& job) {
  return store::TrajectoryKey{cfg.teacher_model, job.seed.task, job.seed.arch, job.sample};
}

}  // namespace

std::string repair_request(const Seed& s) {
  std::string kernel = s.wrong_source.empty() ? s.wrong : "```cuda\n" + s.wrong_source + "\n```";
  return s.task_message + "\n\n---\n\n## A previous attempt at this task\n\n" + kernel +
         "\n\n## What the harness reported for it (" + s.category + ")\n\n" + s.feedback +
         "\n\n## Your job\n\nFix the kernel above with the minimal change: keep everything that "
         "works, "
         "change only what the report points to, and keep using the target instructions of the "
         "task. "
         "Reply with the complete corrected kernel in one ```cuda code block.";
}

std::vector<SeedJob> select_seeds(const Corpus& corpus, const Options& o, int limit,
                                  Coverage& cov) {
  cov.add_stage("failing");
  std::map<std::string, Seed> seeds;  // example key -> seed
  std::vector<Example> xs;
  std::set<std::string> seen;
  std::vector<Example> unique;
  for (const auto& e : corpus.episodes) {
    if (e.seed) continue;
    for (const auto& t : e.turns) {
      const std::string category(judge::to_string(t.category));
      if (!contains(o.categories, category) || t.assistant.empty()) continue;
      cov.count("failing", e.task, category, t.turn);
      Example x;
      x.task = e.task;
      x.arch = e.arch;
      x.category = category;
      x.turn = t.turn;
      x.key = e.key() + "/" + std::to_string(t.turn);
      x.dedup_hash = e.task + "\n" + e.arch + "\n" +
                     normalized_hash(t.source.empty() ? t.assistant : t.source);
      seeds.emplace(x.key, make_seed(corpus, e, t));
      if (seen.insert(x.dedup_hash).second) unique.push_back(std::move(x));
    }
  }
  cov.add_stage("deduplicated");
  for (const auto& x : unique) cov.count("deduplicated", x.task, x.category, x.turn);
  xs = balance(std::move(unique), o.per_task_cap, o.seed);
  cov.add_stage("balanced");
  for (const auto& x : xs) cov.count("balanced", x.task, x.category, x.turn);
  if (limit > 0 && static_cast<int>(xs.size()) > limit) xs.resize(static_cast<std::size_t>(limit));

  std::vector<SeedJob> jobs;
  for (const auto& x : xs) {
    SeedJob j;
    j.sample = static_cast<int>(jobs.size());
    j.seed = seeds.at(x.key);
    j.opening = {llm::Message{"system", j.seed.system, ""},
                 llm::Message{"user", repair_request(j.seed), ""}};
    jobs.push_back(std::move(j));
  }
  return jobs;
}

Result<MineReport> mine(const Corpus& corpus, const Options& o, const MineConfig& cfg,
                        const std::filesystem::path& out, RepairRunner& runner) {
  PTXB_TRY_STATUS(o.validate());
  if (cfg.teacher_model.empty()) return make_error("no teacher model", "pass --model");
  MineReport report;
  std::vector<SeedJob> jobs = select_seeds(corpus, o, cfg.limit, report.coverage);
  report.selected = static_cast<int>(jobs.size());

  std::error_code ec;
  const bool resume = std::filesystem::exists(out, ec);
  auto opened = resume ? store::RunStore::open(out)
                       : store::RunStore::create(out, cfg.config, cfg.provenance);
  if (!opened.ok()) {
    Error e = opened.error();  // its cause kept (a full disk is no bad input)
    if (e.message.find(out.string()) == std::string::npos)
      e.message = out.string() + ": " + e.message;
    return e;
  }
  store::RunStore rs = std::move(opened).value();
  PTXB_TRY(store::Db db, store::Db::open(out, /*create=*/false));
  PTXB_TRY_STATUS(ensure_seed_table(db));
  PTXB_TRY(auto existing, read_seeds(db));
  if (resume) PTXB_TRY_STATUS(rs.reopen_run());

  std::vector<std::pair<store::TrajectoryKey, const SeedJob*>> todo;
  for (const auto& job : jobs) {
    store::TrajectoryKey key = key_of(cfg, job);
    if (auto s = existing.find(SeedKey{key.task, key.arch, key.sample}); s != existing.end()) {
      if (!same_origin(s->second, job.seed))
        return make_error(
            out.string() + " holds teacher trajectories mined from other failing turns",
            "mine into a new --out file, or pass the same stores, --seed and filters as before");
      auto t = find_trajectory(rs, key);
      if (t &&
          t->status ==
              store::TrajectoryStatus::done) {  // a failed one (e.g. the endpoint) is tried again
        ++report.already_done;
        report.repaired += repaired(rs, t->id) ? 1 : 0;
        continue;
      }
    }
    PTXB_TRY_STATUS(put_seed(db, job.sample, job.seed));
    todo.emplace_back(std::move(key), &job);
  }

  std::mutex mu;
  parallel_for(cfg.concurrency, todo.size(), [&](std::size_t i) {
    const auto& [key, job] = todo[i];
    if (interrupted()) {
      std::lock_guard<std::mutex> lock(mu);
      ++report.interrupted;
      return;
    }
    Status st = runner.run(rs, key, job->opening);
    if (interrupted()) {  // stopped part-way (or finished just as the signal came): resume redoes
                          // it
      std::lock_guard<std::mutex> lock(mu);
      ++report.interrupted;
      return;
    }
    bool fixed = st.ok() && [&] {
      auto t = find_trajectory(rs, key);
      return t && repaired(rs, t->id);
    }();
    std::lock_guard<std::mutex> lock(mu);
    if (!st.ok()) {
      report.errors.push_back(key.to_string() + ": " + st.error().to_string());
      return;
    }
    ++report.ran;
    report.repaired += fixed ? 1 : 0;
  });
  std::sort(report.errors.begin(), report.errors.end());
  if (report.interrupted == 0) PTXB_TRY_STATUS(rs.finish_run());
  return report;
}

}  // namespace ptxbench::sft
