// A thin RAII layer over SQLite3: a connection, prepared statements and transactions.
// Every failure is an Error carrying SQLite's message and naming the file; nothing here throws.
// A damaged file ("X is damaged (SQLite: ...)"), a full disk or file-size limit ("cannot write
// X: ...", ErrorCause::environment) are told by SQLite's result code, without the SQL.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ptxbench::store {

class Stmt {
 public:
  Stmt(Stmt&&) noexcept;
  Stmt& operator=(Stmt&&) noexcept;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt();

  // Parameters are 1-based, as in SQLite.
  Stmt& bind(int i, std::int64_t v);
  Stmt& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Stmt& bind(int i, double v);
  Stmt& bind(int i, std::string_view v);
  Stmt& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
  Stmt& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
  Stmt& bind_null(int i);
  template <class T>
  Stmt& bind(int i, const std::optional<T>& v) {
    return v ? bind(i, *v) : bind_null(i);
  }

  // true: a row is ready; false: done. Errors carry the statement's SQL.
  Result<bool> step();
  // Runs to completion, ignoring rows.
  Status run();

  // Columns are 0-based, as in SQLite.
  bool is_null(int c) const;
  std::int64_t int64(int c) const;
  double real(int c) const;
  std::string text(int c) const;
  std::optional<std::string> opt_text(int c) const;
  std::optional<double> opt_real(int c) const;
  std::optional<std::int64_t> opt_int64(int c) const;

 private:
  friend class Db;
  Stmt(sqlite3* db, sqlite3_stmt* s, std::string file) : db_(db), s_(s), file_(std::move(file)) {}
  Error bind_error(int i) const;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* s_ = nullptr;
  std::string file_;  // the file its errors name (Db::name)
  int bind_rc_ = 0;   // the first failed bind, reported by step()
};

class Db {
 public:
  // Opens (creating when `create`) the file; sets WAL, synchronous=FULL, foreign keys
  // and a busy timeout. Only for a file that this program writes (a run it created, or
  // one whose schema a read-only open has checked first).
  // `name`, when given, is the name its errors use (Db::name).
  static Result<Db> open(const std::filesystem::path& path, bool create,
                         const std::filesystem::path& name = {});
  // The same for a file that will attach others (attach_read_only): opened by a file: URI,
  // so that SQLite reads the attached files' URIs as such.
  static Result<Db> open_attaching(const std::filesystem::path& path, bool create,
                                   const std::filesystem::path& name = {});
  // How a read-only open treats the write-ahead log (`-wal`) and its index (`-shm`).
  enum class ReadOnly {
    // A file known to be ptxbench's (its schema checked): without a `-wal` immutable (also
    // when the `-wal` is no write-ahead log SQLite would read: garbage, empty); with one (a
    // run in progress, or a killed one) read-only, so the writer's latest commits are seen
    // (SQLite may make or update the `-shm`).
    latest,
    // A file not yet known to be ptxbench's: immutable. Nothing beside it is read, made or
    // written; commits still only in its `-wal` are not seen.
    untouched,
  };
  // Opens an existing file for reading only, so that nothing the caller does can change
  // the file itself: a file that is not an SQLite database (empty, truncated, another
  // format) is refused before SQLite sees it; no pragma is set.
  static Result<Db> open_read_only(const std::filesystem::path& path,
                                   ReadOnly how = ReadOnly::latest);
  Db(Db&&) noexcept;
  Db& operator=(Db&&) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  Status exec(std::string_view sql);
  // ATTACH `path` as schema `alias`, read-only as open_read_only(path, ReadOnly::latest)
  // reads it (only for a file known to be a run). Needs a Db from open_attaching.
  Status attach_read_only(const std::filesystem::path& path, std::string_view alias);
  Status detach(std::string_view alias);
  Result<Stmt> prepare(std::string_view sql);
  std::int64_t last_insert_rowid() const;
  const std::filesystem::path& path() const { return path_; }
  // The file its errors name: path() unless set (a file written under a temporary name, to
  // be renamed to the one the user gave, is named as that one).
  const std::filesystem::path& name() const { return name_; }
  void set_name(std::filesystem::path name) { name_ = std::move(name); }

 private:
  static Result<Db> open_with(const std::filesystem::path& path, bool create, bool uri,
                              const std::filesystem::path& name);
  Db(sqlite3* db, std::filesystem::path p) : db_(db), path_(p), name_(std::move(p)) {}
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
  std::filesystem::path name_;
};

// BEGIN IMMEDIATE on creation; ROLLBACK on destruction unless commit() succeeded.
class Transaction {
 public:
  static Result<Transaction> begin(Db& db);
  Transaction(Transaction&& o) noexcept : db_(o.db_) { o.db_ = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  ~Transaction();
  Status commit();

 private:
  explicit Transaction(Db* db) : db_(db) {}
  Db* db_;
};

}  // namespace ptxbench::store
