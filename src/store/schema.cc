#include "store/schema.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace ptxbench::store {
namespace {

constexpr std::string_view kTables = R"sql(
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  id              INTEGER PRIMARY KEY,
  created_at      TEXT NOT NULL,
  config_json     TEXT NOT NULL,
  provenance_json TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('running', 'done')),
  finished_at     TEXT
);
CREATE TABLE IF NOT EXISTS trajectories (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  model       TEXT NOT NULL,
  task        TEXT NOT NULL,
  arch        TEXT NOT NULL,
  sample      INTEGER NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
  stop_reason TEXT,
  started_at  TEXT,
  finished_at TEXT,
  UNIQUE (run_id, model, task, arch, sample)
);
CREATE TABLE IF NOT EXISTS messages (
  id            INTEGER PRIMARY KEY,
  trajectory_id INTEGER NOT NULL REFERENCES trajectories(id),
  seq           INTEGER NOT NULL,
  turn          INTEGER NOT NULL,
  role          TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
  content       TEXT NOT NULL,
  reasoning     TEXT NOT NULL DEFAULT '',
  UNIQUE (trajectory_id, seq)
);
)sql";

// The turns table under `name`: its category is a judge::Disposition name. Version 1 had
// the same table without 'task_suite_error'.
std::string turns_table(std::string_view name) {
  return "CREATE TABLE IF NOT EXISTS " + std::string(name) + R"sql( (
  id             INTEGER PRIMARY KEY,
  trajectory_id  INTEGER NOT NULL REFERENCES trajectories(id),
  turn           INTEGER NOT NULL CHECK (turn >= 1),
  source         TEXT,
  source_hash    TEXT,
  category       TEXT NOT NULL CHECK (category IN ('no_code', 'policy', 'compile_error',
                   'runtime_error', 'timeout', 'incorrect', 'passed_missing_instructions',
                   'passed', 'not_evaluated', 'harness_error', 'task_suite_error')),
  feedback       TEXT NOT NULL,
  compile_json   TEXT,
  eval_json      TEXT,
  audit_json     TEXT,
  correct        INTEGER NOT NULL CHECK (correct IN (0, 1)),
  arch_executed  INTEGER CHECK (arch_executed IN (0, 1)),
  speedup        REAL,
  target_reached INTEGER NOT NULL DEFAULT 0 CHECK (target_reached IN (0, 1)),
  gpu_stages     TEXT NOT NULL DEFAULT 'run' CHECK (gpu_stages IN ('run', 'skipped')),
  flags_json     TEXT NOT NULL DEFAULT '[]',
  llm_json       TEXT NOT NULL DEFAULT '{}',
  created_at     TEXT NOT NULL,
  UNIQUE (trajectory_id, turn)
);
)sql";
}

constexpr std::string_view kTurnsIndex =
    "CREATE INDEX IF NOT EXISTS turns_by_category ON turns (category);";

// Every table and column ptxbench reads (the tables above; the same in versions 1 and 2).
struct TableColumns {
  std::string_view table;
  std::vector<std::string_view> columns;
};
const std::vector<TableColumns>& expected_columns() {
  static const std::vector<TableColumns> tables = {
      {"meta", {"key", "value"}},
      {"runs", {"id", "created_at", "config_json", "provenance_json", "status", "finished_at"}},
      {"trajectories",
       {"id", "run_id", "model", "task", "arch", "sample", "status", "stop_reason", "started_at",
        "finished_at"}},
      {"messages", {"id", "trajectory_id", "seq", "turn", "role", "content", "reasoning"}},
      {"turns",
       {"id", "trajectory_id", "turn", "source", "source_hash", "category", "feedback",
        "compile_json", "eval_json", "audit_json", "correct", "arch_executed", "speedup",
        "target_reached", "gpu_stages", "flags_json", "llm_json", "created_at"}},
  };
  return tables;
}

// A file that says it is a run (its meta table's schema_version) but lacks part of one: a
// table, a column, its run row (issue 38: "no such table" from deep inside a command).
Error incomplete(const Db& db, const std::string& what) {
  Error e = make_error(db.path().string() + " is not a complete ptxbench run file (" + what +
                           "): the run file is damaged, or was changed by another program",
                       "use an intact copy of the run file, as `ptxbench run` wrote it; "
                       "`ptxbench rejudge` cannot repair it");
  e.cause = ErrorCause::damaged_input;
  return e;
}

Status check_tables(Db& db) {
  for (const TableColumns& t : expected_columns()) {
    PTXB_TRY(Stmt s, db.prepare("SELECT name FROM pragma_table_info(?)"));
    s.bind(1, t.table);
    std::set<std::string> have;
    while (true) {
      PTXB_TRY(bool row, s.step());
      if (!row) break;
      have.insert(s.text(0));
    }
    if (have.empty()) return incomplete(db, "it has no table " + std::string(t.table));
    for (std::string_view c : t.columns)
      if (have.count(std::string(c)) == 0)
        return incomplete(db,
                          "its table " + std::string(t.table) + " has no column " + std::string(c));
  }
  PTXB_TRY(Stmt run, db.prepare("SELECT COUNT(*) FROM runs WHERE id = 1"));
  PTXB_TRY(bool row, run.step());
  if (!row || run.int64(0) == 0) return incomplete(db, "its runs table holds no run");
  return {};
}

// Whether a file without its meta table (or its schema_version) was a run: it has at least two
// of a run's other tables. Another program's file may have one such name (a "runs" table).
bool has_run_table(Db& db) {
  auto s = db.prepare(
      "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('runs', "
      "'trajectories', 'messages', 'turns')");
  if (!s.ok()) return false;
  auto row = s->step();
  return row.ok() && *row && s->int64(0) >= 2;
}

bool created_by_ptxbench(Db& db) {
  auto s = db.prepare("SELECT value FROM meta WHERE key = 'created_by'");
  if (!s.ok()) return false;
  auto row = s->step();
  return row.ok() && *row && s->text(0) == "ptxbench";
}

Result<int> stored_version(Db& db) {
  auto s = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
  // An SQLite file whose pages are cut short or damaged (a truncated copy, a flipped byte): it
  // may well be a run, so it is called damaged, not foreign (issue 38).
  if (!s.ok() && (s.error().message.find("malformed") != std::string::npos ||
                  s.error().message.find("not a database") != std::string::npos))
    return make_error(db.path().string() + " is a damaged SQLite database (" + s.error().message +
                          "): truncated or corrupted, so it cannot be read",
                      "use an intact copy of the file (a truncated run file cannot be repaired)");
  if (!s.ok() && has_run_table(db)) return incomplete(db, "it has no table meta");
  if (!s.ok())
    return make_error(
        db.path().string() + " is not a ptxbench run database (" + s.error().message + ")",
        "pass a file written by `ptxbench run`");
  PTXB_TRY(bool row, s->step());
  if (!row && (created_by_ptxbench(db) || has_run_table(db)))
    return incomplete(db, "its meta table has no schema_version");
  if (!row)
    return make_error(db.path().string() +
                          " is not a ptxbench run database (its meta table has no schema_version)",
                      "pass a file written by `ptxbench run`");
  std::string v = s->text(0);
  for (int known = kOldestReadableSchemaVersion; known <= kSchemaVersion; ++known)
    if (v == std::to_string(known)) return known;
  // ptxbench writes a plain number; anything else ("1 ", "01", "x") is damage, not a version.
  const bool number = !v.empty() && v.size() < 10 && v[0] != '0' &&
                      std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!number)
    return make_error(db.path().string() + ": its stored schema_version '" + v +
                          "' is not a version number: the run file is damaged",
                      "use an intact copy of the run file");
  return make_error(
      db.path().string() + " has store schema version " + v + "; this ptxbench reads versions " +
          std::to_string(kOldestReadableSchemaVersion) + " to " + std::to_string(kSchemaVersion),
      "use the ptxbench version that wrote it");
}

}  // namespace

Status create_schema(Db& db) {
  PTXB_TRY_STATUS(db.exec(kTables));
  PTXB_TRY_STATUS(db.exec(turns_table("turns")));
  PTXB_TRY_STATUS(db.exec(kTurnsIndex));
  PTXB_TRY(Stmt s, db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?), (?, ?)"));
  s.bind(1, "schema_version").bind(2, std::to_string(kSchemaVersion));
  s.bind(3, "created_by").bind(4, "ptxbench");
  return s.run();
}

Status check_schema(Db& db) {
  auto version = stored_version(db);
  if (!version.ok()) return version.error();
  return check_tables(db);
}

Status upgrade_schema(Db& db) {
  PTXB_TRY(int version, stored_version(db));
  if (version == kSchemaVersion) return {};
  // Version 1 -> 2: the turns table's category CHECK gains 'task_suite_error'. SQLite
  // cannot change a CHECK in place, so the table is rebuilt with the same rows.
  PTXB_TRY(Transaction tx, Transaction::begin(db));
  PTXB_TRY_STATUS(db.exec(turns_table("turns_v2")));
  PTXB_TRY_STATUS(db.exec("INSERT INTO turns_v2 SELECT * FROM turns"));
  PTXB_TRY_STATUS(db.exec("DROP TABLE turns"));
  PTXB_TRY_STATUS(db.exec("ALTER TABLE turns_v2 RENAME TO turns"));
  PTXB_TRY_STATUS(db.exec(kTurnsIndex));
  PTXB_TRY(Stmt s, db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'"));
  s.bind(1, std::to_string(kSchemaVersion));
  PTXB_TRY_STATUS(s.run());
  return tx.commit();
}

}  // namespace ptxbench::store
