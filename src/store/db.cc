#include "store/db.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <utility>

#include "core/utf8.h"

namespace ptxbench::store {
namespace {

// The first 16 bytes of every SQLite 3 database file.
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

// The first 8 bytes of a rollback journal that holds a transaction (sqlite.org/fileformat.html,
// "The Rollback Journal"): a journal whose header was zeroed or that is empty holds none.
constexpr std::string_view kJournalMagic{"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7", 8};

// Whether `path`-journal holds a transaction its writer did not finish (it stopped mid-write):
// until a connection with write access rolls it back, the file itself reads as damaged.
bool hot_journal(const std::filesystem::path& path) {
  std::ifstream in(path.string() + "-journal", std::ios::binary);
  std::string head(kJournalMagic.size(), '\0');
  return in.read(head.data(), static_cast<std::streamsize>(head.size())) && head == kJournalMagic;
}

Status check_sqlite_header(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return make_error(path.string() + " is not a file",
                      "pass the .db file that `ptxbench run` wrote (see --out)");
  std::ifstream in(path, std::ios::binary);
  if (!in)  // a file this user may not read (chmod 000) is not a damaged one
    return make_error("cannot read " + path.string() + ": " + std::strerror(errno),
                      "check its permissions (ls -l), or read it as its owner");
  std::string head(kSqliteMagic.size(), '\0');
  if (!in.read(head.data(), static_cast<std::streamsize>(head.size())) || head != kSqliteMagic)
    return make_error(
        path.string() + " is not an SQLite database (" +
            (std::filesystem::file_size(path, ec) == 0 ? "it is empty" : "wrong header") + ")",
        "pass the .db file that `ptxbench run` wrote (see --out)");
  if (hot_journal(path))  // read without it, the file would look malformed (campaign 3b D54)
    return make_error(path.string() +
                          "-journal holds an unfinished transaction (its writer "
                          "stopped mid-write): " +
                          path.string() + " reads as damaged until it is rolled back",
                      "open it once with write access to roll it back, e.g. sqlite3 " +
                          path.string() + " 'pragma integrity_check'");
  return {};
}

// A file: URI for `path` with `query`; the characters a URI gives meaning to are escaped.
std::string file_uri(const std::filesystem::path& path, std::string_view query) {
  std::string uri = "file:";
  for (char c : std::filesystem::absolute(path).string()) {
    if (c == '%' || c == '?' || c == '#')
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    else
      uri += c;
  }
  return query.empty() ? uri : uri + "?" + std::string(query);
}

// SQLite's failure `rc` (extended) on `file` while doing `what` (a statement): a damaged file,
// a full disk or a file-size limit is told by its code, with the file and what to do and
// without the SQL (campaign 3b: D50, X01); anything else with the statement it came from.
Error sqlite_error(sqlite3* db, int rc, const std::string& file, std::string_view what) {
  const std::string sqlite = std::string("SQLite: ") + (db ? sqlite3_errmsg(db) : "out of memory");
  switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return make_error(file + " is damaged (" + sqlite + ")",
                        "use an intact copy of it; `sqlite3 " + file +
                            " 'pragma integrity_check'` lists the damage");
    case SQLITE_FULL:
    case SQLITE_IOERR: {
      const bool read = rc == SQLITE_IOERR_READ || rc == SQLITE_IOERR_SHORT_READ;
      Error e = read ? make_error("cannot read " + file + " (" + sqlite + ")",
                                  "check the disk it is on (dmesg may say more)")
                     : make_error("cannot write " + file +
                                      ": the disk is full or a file-size limit was reached (" +
                                      sqlite + ")",
                                  "free space on its disk, or raise the limit (ulimit -f), and "
                                  "run the command again");
      e.cause = ErrorCause::environment;
      return e;
    }
    default:
      return make_error(file + ": " + std::string(what) + ": " +
                        (db ? sqlite3_errmsg(db) : "out of memory"));
  }
}

}  // namespace

Stmt::Stmt(Stmt&& o) noexcept
    : db_(std::exchange(o.db_, nullptr)),
      s_(std::exchange(o.s_, nullptr)),
      file_(std::move(o.file_)),
      bind_rc_(o.bind_rc_) {}

Stmt& Stmt::operator=(Stmt&& o) noexcept {
  if (this != &o) {
    if (s_) sqlite3_finalize(s_);
    db_ = std::exchange(o.db_, nullptr);
    s_ = std::exchange(o.s_, nullptr);
    file_ = std::move(o.file_);
    bind_rc_ = o.bind_rc_;
  }
  return *this;
}

Stmt::~Stmt() {
  if (s_) sqlite3_finalize(s_);
}

Stmt& Stmt::bind(int i, std::int64_t v) {
  int rc = sqlite3_bind_int64(s_, i, v);
  if (rc != SQLITE_OK && bind_rc_ == 0) bind_rc_ = i;
  return *this;
}

Stmt& Stmt::bind(int i, double v) {
  int rc = sqlite3_bind_double(s_, i, v);
  if (rc != SQLITE_OK && bind_rc_ == 0) bind_rc_ = i;
  return *this;
}

// Text columns hold UTF-8 (SQLite is told so): bytes that are not (a tool's output, a
// candidate's source) are stored with U+FFFD in their place (core/utf8.h).
Stmt& Stmt::bind(int i, std::string_view v) {
  const std::string text = to_valid_utf8(v);
  int rc = sqlite3_bind_text64(s_, i, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_rc_ == 0) bind_rc_ = i;
  return *this;
}

Stmt& Stmt::bind_null(int i) {
  int rc = sqlite3_bind_null(s_, i);
  if (rc != SQLITE_OK && bind_rc_ == 0) bind_rc_ = i;
  return *this;
}

Error Stmt::bind_error(int i) const {
  return make_error("binding parameter " + std::to_string(i) + " of `" + sqlite3_sql(s_) +
                    "` failed");
}

Result<bool> Stmt::step() {
  if (bind_rc_ != 0) return bind_error(bind_rc_);
  int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return sqlite_error(db_, sqlite3_extended_errcode(db_), file_,
                      std::string("`") + sqlite3_sql(s_) + "`");
}

Status Stmt::run() {
  while (true) {
    PTXB_TRY(bool row, step());
    if (!row) return {};
  }
}

bool Stmt::is_null(int c) const {
  return sqlite3_column_type(s_, c) == SQLITE_NULL;
}
std::int64_t Stmt::int64(int c) const {
  return sqlite3_column_int64(s_, c);
}
double Stmt::real(int c) const {
  return sqlite3_column_double(s_, c);
}

std::string Stmt::text(int c) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, c));
  int n = sqlite3_column_bytes(s_, c);
  return p ? std::string(p, static_cast<std::size_t>(n)) : std::string();
}

std::optional<std::string> Stmt::opt_text(int c) const {
  if (is_null(c)) return std::nullopt;
  return text(c);
}
std::optional<double> Stmt::opt_real(int c) const {
  if (is_null(c)) return std::nullopt;
  return real(c);
}
std::optional<std::int64_t> Stmt::opt_int64(int c) const {
  if (is_null(c)) return std::nullopt;
  return int64(c);
}

Result<Db> Db::open(const std::filesystem::path& path, bool create,
                    const std::filesystem::path& name) {
  return open_with(path, create, /*uri=*/false, name);
}

Result<Db> Db::open_attaching(const std::filesystem::path& path, bool create,
                              const std::filesystem::path& name) {
  return open_with(path, create, /*uri=*/true, name);
}

Result<Db> Db::open_with(const std::filesystem::path& path, bool create, bool uri,
                         const std::filesystem::path& name) {
  sqlite3* raw = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  const std::string target = uri ? file_uri(path, "") : path.string();
  int rc = sqlite3_open_v2(target.c_str(), &raw, flags | (uri ? SQLITE_OPEN_URI : 0), nullptr);
  Db db(raw, path);
  if (!name.empty()) db.set_name(name);
  if (rc != SQLITE_OK)
    return make_error(
        "cannot open " + db.name().string() + ": " + (raw ? sqlite3_errmsg(raw) : "out of memory"),
        create ? "check that its folder exists and is writable"
               : "check the path; `ptxbench run --out FILE` creates a run database");
  sqlite3_busy_timeout(raw, 10000);
  PTXB_TRY_STATUS(db.exec("PRAGMA journal_mode=WAL"));
  PTXB_TRY_STATUS(db.exec("PRAGMA synchronous=FULL"));
  PTXB_TRY_STATUS(db.exec("PRAGMA foreign_keys=ON"));
  return db;
}

namespace {

std::uint32_t word(const unsigned char* p, bool big_endian) {
  return big_endian ? (std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 |
                       std::uint32_t{p[2]} << 8 | p[3])
                    : (std::uint32_t{p[3]} << 24 | std::uint32_t{p[2]} << 16 |
                       std::uint32_t{p[1]} << 8 | p[0]);
}

// Whether `path`-wal is a write-ahead log SQLite would read: its 32-byte header has the WAL
// magic number and a matching checksum (sqlite.org/fileformat.html, "WAL File Format"). One
// that is not (garbage, an empty file) holds no commits: SQLite ignores it, so a read goes
// without it and makes no -shm beside it (issue 38).
bool wal_in_use(const std::filesystem::path& path) {
  std::ifstream in(path.string() + "-wal", std::ios::binary);
  unsigned char h[32];
  if (!in.read(reinterpret_cast<char*>(h), sizeof h)) return false;
  const std::uint32_t magic = word(h, true);
  if (magic != 0x377f0682 && magic != 0x377f0683) return false;
  const bool big = (magic & 1) != 0;  // the checksum's byte order
  std::uint32_t s0 = 0, s1 = 0;
  for (int i = 0; i < 24; i += 8) {
    s0 += word(h + i, big) + s1;
    s1 += word(h + i + 4, big) + s0;
  }
  return s0 == word(h + 24, true) && s1 == word(h + 28, true);
}

// How a read-only open names `path` (Db::ReadOnly).
std::string read_only_uri(const std::filesystem::path& path, Db::ReadOnly how) {
  const bool live = wal_in_use(path);
  std::string_view query = "immutable=1";
  if (how == Db::ReadOnly::latest && live) query = "mode=ro";
  return file_uri(path, query);
}

}  // namespace

Result<Db> Db::open_read_only(const std::filesystem::path& path, ReadOnly how) {
  PTXB_TRY_STATUS(check_sqlite_header(path));
  std::string uri = read_only_uri(path, how);
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(uri.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  Db db(raw, path);
  if (rc != SQLITE_OK)
    return make_error(
        "cannot open " + path.string() + ": " + (raw ? sqlite3_errmsg(raw) : "out of memory"),
        "check the path and that the file is readable");
  sqlite3_busy_timeout(raw, 10000);
  return db;
}

Db::Db(Db&& o) noexcept
    : db_(std::exchange(o.db_, nullptr)), path_(std::move(o.path_)), name_(std::move(o.name_)) {}

Db& Db::operator=(Db&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close_v2(db_);
    db_ = std::exchange(o.db_, nullptr);
    path_ = std::move(o.path_);
    name_ = std::move(o.name_);
  }
  return *this;
}

Db::~Db() {
  if (db_) sqlite3_close_v2(db_);
}

Status Db::exec(std::string_view sql) {
  char* msg = nullptr;
  std::string s(sql);
  int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &msg);
  if (rc == SQLITE_OK) return {};
  sqlite3_free(msg);
  return sqlite_error(db_, sqlite3_extended_errcode(db_), name_.string(),
                      "`" + s.substr(0, 80) + "`");
}

Status Db::attach_read_only(const std::filesystem::path& path, std::string_view alias) {
  PTXB_TRY_STATUS(check_sqlite_header(path));
  PTXB_TRY(Stmt s, prepare("ATTACH DATABASE ? AS " + std::string(alias)));
  s.bind(1, read_only_uri(path, ReadOnly::latest));
  return s.run();
}

Status Db::detach(std::string_view alias) {
  return exec("DETACH DATABASE " + std::string(alias));
}

Result<Stmt> Db::prepare(std::string_view sql) {
  sqlite3_stmt* s = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &s, nullptr);
  if (rc != SQLITE_OK)
    return sqlite_error(db_, sqlite3_extended_errcode(db_), name_.string(),
                        "preparing `" + std::string(sql) + "`");
  return Stmt(db_, s, name_.string());
}

std::int64_t Db::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}

Result<Transaction> Transaction::begin(Db& db) {
  PTXB_TRY_STATUS(db.exec("BEGIN IMMEDIATE"));
  return Transaction(&db);
}

Transaction::~Transaction() {
  if (db_) (void)db_->exec("ROLLBACK");
}

Status Transaction::commit() {
  PTXB_CHECK(db_ != nullptr, "Transaction::commit() twice");
  Status s = db_->exec("COMMIT");
  if (s.ok()) db_ = nullptr;
  return s;
}

}  // namespace ptxbench::store
