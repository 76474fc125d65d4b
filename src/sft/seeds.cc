#include "sft/seeds.h"

#include "core/json.h"

namespace ptxbench::sft {

Json Seed::to_json() const {
  return Json{{"origin_path", origin_path},
              {"origin_sha256", origin_sha256},
              {"origin_trajectory", origin_trajectory},
              {"model", model},
              {"task", task},
              {"arch", arch},
              {"turn", turn},
              {"category", category},
              {"system", system},
              {"task_message", task_message},
              {"wrong", wrong},
              {"wrong_source", wrong_source},
              {"feedback", feedback}};
}

Result<Seed> Seed::from_json(const Json& j) {
  if (!j.is_object()) return make_error("an sft seed is not a JSON object");
  Seed s;
  try {
    s.origin_path = j.at("origin_path").get<std::string>();
    s.origin_sha256 = j.at("origin_sha256").get<std::string>();
    s.origin_trajectory = j.at("origin_trajectory").get<std::int64_t>();
    s.model = j.at("model").get<std::string>();
    s.task = j.at("task").get<std::string>();
    s.arch = j.at("arch").get<std::string>();
    s.turn = j.at("turn").get<int>();
    s.category = j.at("category").get<std::string>();
    s.system = j.at("system").get<std::string>();
    s.task_message = j.at("task_message").get<std::string>();
    s.wrong = j.at("wrong").get<std::string>();
    s.wrong_source = j.value("wrong_source", std::string());
    s.feedback = j.at("feedback").get<std::string>();
  } catch (const Json::exception& e) {
    return make_error(
        std::string("malformed sft seed: ") + e.what(),
        "the sft_seeds table was written by another ptxbench version; re-run `ptxbench sft mine`");
  }
  return s;
}

Status ensure_seed_table(store::Db& db) {
  return db.exec(
      "CREATE TABLE IF NOT EXISTS sft_seeds ("
      " task TEXT NOT NULL, arch TEXT NOT NULL, sample INTEGER NOT NULL,"
      " seed_json TEXT NOT NULL, PRIMARY KEY (task, arch, sample))");
}

Status put_seed(store::Db& db, int sample, const Seed& seed) {
  PTXB_TRY(
      store::Stmt s,
      db.prepare(
          "INSERT OR REPLACE INTO sft_seeds (task, arch, sample, seed_json) VALUES (?, ?, ?, ?)"));
  s.bind(1, seed.task).bind(2, seed.arch).bind(3, sample).bind(4, to_text(seed.to_json()));
  return s.run();
}

Result<std::map<SeedKey, Seed>> read_seeds(store::Db& db) {
  std::map<SeedKey, Seed> out;
  PTXB_TRY(store::Stmt has,
           db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sft_seeds'"));
  PTXB_TRY(bool present, has.step());
  if (!present) return out;
  PTXB_TRY(store::Stmt s,
           db.prepare("SELECT task, arch, sample, seed_json FROM sft_seeds ORDER BY sample"));
  while (true) {
    PTXB_TRY(bool row, s.step());
    if (!row) break;
    Json j = parse_json(s.text(3));
    PTXB_TRY(Seed seed, Seed::from_json(j));
    out.emplace(SeedKey{s.text(0), s.text(1), static_cast<int>(s.int64(2))}, std::move(seed));
  }
  return out;
}

}  // namespace ptxbench::sft
