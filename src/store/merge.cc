#include "store/merge.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <string>

#include "core/interrupt.h"
#include "core/text.h"
#include "store/db.h"
#include "store/store.h"

namespace ptxbench::store {
namespace {

namespace fs = std::filesystem;

// An SQL identifier, quoted.
std::string q(std::string_view name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

struct ForeignKey {
  std::string from;   // this table's column
  std::string table;  // the table it refers to
};

// One table of the schema, as SQLite describes it.
struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::string pk;  // the INTEGER PRIMARY KEY column (a rowid alias: renumbered), or empty
  std::vector<ForeignKey> fks;
  std::vector<std::string> unique;  // the columns of its first UNIQUE or PRIMARY KEY index
};

Result<std::vector<std::string>> column_list(Db& db, std::string_view sql, const std::string& arg,
                                             int column) {
  PTXB_TRY(Stmt s, db.prepare(sql));
  s.bind(1, arg);
  std::vector<std::string> out;
  while (true) {
    PTXB_TRY(bool row, s.step());
    if (!row) return out;
    out.push_back(s.text(column));
  }
}

Result<Table> describe(Db& db, const std::string& name) {
  Table t{name, {}, {}, {}, {}};
  PTXB_TRY(Stmt info, db.prepare("SELECT name, upper(type), pk FROM pragma_table_info(?, 'main') "
                                 "ORDER BY cid"));
  info.bind(1, name);
  int pk_columns = 0;
  std::string pk, pk_type;
  while (true) {
    PTXB_TRY(bool row, info.step());
    if (!row) break;
    t.columns.push_back(info.text(0));
    if (info.int64(2) > 0) ++pk_columns, pk = info.text(0), pk_type = info.text(1);
  }
  if (pk_columns == 1 && pk_type == "INTEGER") t.pk = pk;
  PTXB_TRY(Stmt fk, db.prepare("SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?, "
                               "'main') ORDER BY id, seq"));
  fk.bind(1, name);
  while (true) {
    PTXB_TRY(bool row, fk.step());
    if (!row) break;
    t.fks.push_back({fk.text(0), fk.text(1)});
  }
  PTXB_TRY(std::vector<std::string> indexes,
           column_list(db,
                       "SELECT name FROM pragma_index_list(?, 'main') WHERE \"unique\" = 1 AND "
                       "origin IN ('u', 'pk') ORDER BY seq DESC",
                       name, 0));
  if (!indexes.empty()) {
    PTXB_TRY(t.unique, column_list(db,
                                   "SELECT name FROM pragma_index_info(?, 'main') ORDER BY "
                                   "seqno",
                                   indexes.front(), 0));
  }
  return t;
}

// The schema's CREATE statements (tables, indexes, ...), in the order they were made.
Result<std::vector<std::string>> schema_sql(Db& db, std::string_view schema) {
  PTXB_TRY(Stmt s, db.prepare("SELECT sql FROM " + std::string(schema) +
                              ".sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE "
                              "'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"));
  std::vector<std::string> out;
  while (true) {
    PTXB_TRY(bool row, s.step());
    if (!row) return out;
    out.push_back(s.text(0));
  }
}

// The tables, each after those its foreign keys refer to.
Result<std::vector<Table>> tables_in_order(Db& db) {
  PTXB_TRY(std::vector<std::string> names,
           column_list(db,
                       "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT "
                       "LIKE ? ESCAPE '\\' ORDER BY rowid",
                       "sqlite\\_%", 0));
  std::vector<Table> pending, out;
  for (const auto& n : names) {
    PTXB_TRY(Table t, describe(db, n));
    pending.push_back(std::move(t));
  }
  std::set<std::string> placed;
  while (!pending.empty()) {
    auto ready = std::find_if(pending.begin(), pending.end(), [&](const Table& t) {
      return std::all_of(t.fks.begin(), t.fks.end(), [&](const ForeignKey& f) {
        return f.table == t.name || placed.count(f.table) ||
               std::find(names.begin(), names.end(), f.table) == names.end();
      });
    });
    if (ready == pending.end())
      return make_error("the run file's tables refer to each other in a cycle; cannot merge");
    placed.insert(ready->name);
    out.push_back(std::move(*ready));
    pending.erase(ready);
  }
  return out;
}

std::string stage(const std::string& table) {
  return "temp." + q("merge_rows_" + table);
}
std::string id_map(const std::string& table) {
  return "temp." + q("merge_ids_" + table);
}

// A column's value in the merged file: a foreign key follows its row's new id.
std::string mapped(const Table& t, const std::string& column, const std::set<std::string>& maps) {
  for (const auto& f : t.fks)
    if (f.from == column && maps.count(f.table))
      return fmt::format("(SELECT m.new FROM {} m WHERE m.src = s.merge_src_ AND m.old = s.{})",
                         id_map(f.table), q(column));
  return "s." + q(column);
}

// Rows in plan order: by the (new) rows they refer to, then their unique key, then input.
std::string order_of(const Table& t, const std::set<std::string>& maps) {
  std::vector<std::string> keys;
  std::set<std::string> used;
  for (const auto& f : t.fks)
    if (used.insert(f.from).second) keys.push_back(mapped(t, f.from, maps));
  for (const auto& c : t.unique)
    if (used.insert(c).second) keys.push_back(mapped(t, c, maps));
  keys.push_back("s.merge_src_");
  keys.push_back(t.pk.empty() ? "s.rowid" : "s." + q(t.pk));
  return join(keys, ", ");
}

// Copies one table's staged rows into the merged file, renumbering its ids.
Status copy_table(Db& db, const Table& t, std::set<std::string>& maps) {
  std::vector<std::string> cols, values;
  for (const auto& c : t.columns) {
    if (c == t.pk) continue;
    cols.push_back(q(c));
    values.push_back(mapped(t, c, maps));
  }
  const std::string order = order_of(t, maps);
  if (t.pk.empty())
    return db.exec(fmt::format("INSERT INTO main.{} ({}) SELECT {} FROM {} s ORDER BY {}",
                               q(t.name), join(cols, ", "), join(values, ", "), stage(t.name),
                               order));
  PTXB_TRY_STATUS(db.exec(fmt::format(
      "CREATE TEMP TABLE {} AS SELECT s.merge_src_ AS src, s.{} AS old, ROW_NUMBER() OVER "
      "(ORDER BY {}) AS new FROM {} s",
      q("merge_ids_" + t.name), q(t.pk), order, stage(t.name))));
  PTXB_TRY_STATUS(db.exec(fmt::format("CREATE UNIQUE INDEX temp.{} ON {} (src, old)",
                                      q("merge_ids_index_" + t.name), q("merge_ids_" + t.name))));
  maps.insert(t.name);
  return db.exec(fmt::format(
      "INSERT INTO main.{} ({}, {}) SELECT m.new{}{} FROM {} s JOIN {} m ON m.src = s.merge_src_ "
      "AND m.old = s.{} ORDER BY m.new",
      q(t.name), q(t.pk), join(cols, ", "), values.empty() ? "" : ", ", join(values, ", "),
      stage(t.name), id_map(t.name), q(t.pk)));
}

// The first input's run row, with the merged provenance and status; its id is every input's.
Status copy_run(Db& db, const Table& runs, const MergedRun& merged, std::set<std::string>& maps) {
  std::vector<std::string> cols;
  for (const auto& c : runs.columns) cols.push_back(q(c));
  PTXB_TRY_STATUS(
      db.exec(fmt::format("INSERT INTO main.runs ({0}) SELECT {0} FROM {1} WHERE "
                          "merge_src_ = 0 ORDER BY rowid LIMIT 1",
                          join(cols, ", "), stage("runs"))));
  PTXB_TRY(Stmt s, db.prepare(fmt::format(
                       "UPDATE main.runs SET provenance_json = ?, status = ?, created_at = (SELECT "
                       "MIN(created_at) FROM {0}), finished_at = CASE WHEN ? THEN (SELECT "
                       "MAX(finished_at) FROM {0}) END",
                       stage("runs"))));
  s.bind(1, to_text(merged.provenance)).bind(2, merged.done ? "done" : "running");
  s.bind(3, merged.done ? 1 : 0);
  PTXB_TRY_STATUS(s.run());
  PTXB_TRY_STATUS(db.exec(fmt::format(
      "CREATE TEMP TABLE {} AS SELECT merge_src_ AS src, id AS old, (SELECT id FROM main.runs) "
      "AS new FROM {}",
      q("merge_ids_runs"), stage("runs"))));
  maps.insert("runs");
  return {};
}

// Stages every input's rows in temporary tables (src = the input's position), one input
// attached at a time, after checking that its schema is the first one's.
Status stage_inputs(Db& db, const std::vector<fs::path>& inputs,
                    const std::vector<std::string>& schema, const std::vector<Table>& tables) {
  for (const auto& t : tables)
    PTXB_TRY_STATUS(
        db.exec(fmt::format("CREATE TEMP TABLE {} AS SELECT 0 AS merge_src_, * FROM "
                            "main.{} WHERE 0",
                            q("merge_rows_" + t.name), q(t.name))));
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    PTXB_TRY_STATUS(db.attach_read_only(inputs[k], "merge_in"));
    auto sql = schema_sql(db, "merge_in");
    Status st = sql.ok() ? Status{} : Status(sql.error());
    if (st.ok() && *sql != schema)
      st = make_error(inputs.front().string() + " and " + inputs[k].string() +
                          " have different store schemas (written by different ptxbench "
                          "versions)",
                      "resume the older run with this ptxbench (`ptxbench run --resume FILE` "
                      "upgrades it), or merge with the version that wrote both");
    for (std::size_t i = 0; st.ok() && i < tables.size(); ++i) {
      std::vector<std::string> cols;
      for (const auto& c : tables[i].columns) cols.push_back(q(c));
      st = db.exec(fmt::format("INSERT INTO {} (merge_src_, {}) SELECT {}, {} FROM merge_in.{}",
                               stage(tables[i].name), join(cols, ", "), k, join(cols, ", "),
                               q(tables[i].name)));
    }
    PTXB_TRY_STATUS(db.detach("merge_in"));
    PTXB_TRY_STATUS(st);
  }
  return {};
}

// Its errors name `out`, the file the user asked for, never the temporary one.
Status write_merged(const fs::path& tmp, const fs::path& out, const std::vector<fs::path>& inputs,
                    const MergedRun& merged) {
  PTXB_TRY(Db db, Db::open_attaching(tmp, /*create=*/true, out));
  PTXB_TRY_STATUS(db.attach_read_only(inputs.front(), "merge_in"));
  auto schema = schema_sql(db, "merge_in");
  PTXB_TRY_STATUS(db.detach("merge_in"));
  if (!schema.ok()) return schema.error();
  for (const auto& sql : *schema) PTXB_TRY_STATUS(db.exec(sql));
  PTXB_TRY(std::vector<Table> tables, tables_in_order(db));
  const bool has_runs =
      std::any_of(tables.begin(), tables.end(), [](const Table& t) { return t.name == "runs"; });
  if (!has_runs) return make_error(inputs.front().string() + " has no runs table");
  PTXB_TRY_STATUS(stage_inputs(db, inputs, *schema, tables));
  PTXB_TRY(Transaction tx, Transaction::begin(db));
  std::set<std::string> maps;
  for (const auto& t : tables) {
    if (t.name == "meta") {  // the first input's keys (the schema version is every input's)
      PTXB_TRY_STATUS(db.exec(fmt::format(
          "INSERT OR IGNORE INTO main.meta SELECT key, value FROM {} ORDER BY merge_src_, rowid",
          stage("meta"))));
    } else if (t.name == "runs") {
      PTXB_TRY_STATUS(copy_run(db, t, merged, maps));
    } else {
      Status st = copy_table(db, t, maps);
      if (!st.ok() && st.error().cause == ErrorCause::environment) return st;  // a full disk
      if (!st.ok())
        return make_error("cannot merge the table " + t.name + ": " + st.error().message,
                          inputs.size() > 1
                              ? "the inputs hold the same rows twice: are two of them the same run?"
                              : "use an intact copy of the run file, as `ptxbench run` wrote it");
    }
  }
  PTXB_TRY_STATUS(tx.commit());
  return db.exec("PRAGMA journal_mode=DELETE");  // one self-contained file to rename
}

void remove_with_side_files(const fs::path& p) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(p.string() + suffix, ec);
}

}  // namespace

Status merge_run_files(const std::vector<fs::path>& inputs, const fs::path& out,
                       const MergedRun& merged) {
  if (inputs.empty()) return make_error("nothing to merge", "pass the shards' run files");
  std::error_code ec;
  if (fs::exists(out, ec))
    return make_error(out.string() + " already exists",
                      "choose another --out; ptxbench does not overwrite files");
  for (const auto& in : inputs) PTXB_TRY_STATUS(RunStore::open_read_only(in));
  const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
  const fs::path tmp =
      dir / fmt::format(".{}.merging-{}", out.filename().string(), static_cast<long>(getpid()));
  remove_with_side_files(tmp);  // a merge of this process id that was killed
  Status st = write_merged(tmp, out, inputs, merged);
  if (st.ok() && interrupted())  // Ctrl-C (the caller's InterruptScope): nothing is published
    st = make_error(fmt::format("interrupted ({}): nothing was written to {}",
                                interrupt_name(interrupt_signal()), out.string()));
  // link() never replaces a file made meanwhile; where a file system has no hard links, rename.
  if (st.ok() && ::link(tmp.c_str(), out.c_str()) != 0) {
    const int err = errno;
    if ((err == EPERM || err == EOPNOTSUPP || err == EXDEV) && !fs::exists(out, ec))
      fs::rename(tmp, out, ec);
    else
      ec = std::error_code(err, std::generic_category());
    if (ec)
      st = make_error(fmt::format("cannot create {}: {}", out.string(), ec.message()),
                      err == EEXIST ? "choose another --out" : "check the folder");
  }
  remove_with_side_files(tmp);
  return st;
}

}  // namespace ptxbench::store
