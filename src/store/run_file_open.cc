// Making and opening a run file (store.h: RunStore::create, open, open_read_only): a new file
// is made and locked at once; an existing one is checked to be a run, without writing to it,
// before anything else, and checked writable before a writer takes its lock.
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "core/file_lock.h"
#include "core/fs.h"
#include "core/json.h"
#include "store/damage.h"
#include "store/db.h"
#include "store/schema.h"
#include "store/store.h"
#include "store/store_impl.h"

namespace ptxbench::store {

Result<RunStore> RunStore::create(const std::filesystem::path& path, const Json& config,
                                  const Json& provenance, const std::filesystem::path& shown_as) {
  std::error_code ec;
  auto exists = [&] {
    return make_error(
        path.string() + " already exists",
        "pass --resume " + path.string() + " to continue that run, or choose another --out");
  };
  if (std::filesystem::exists(path, ec)) return exists();
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  // Made and locked at once: of two processes creating it, one gets "already exists".
  auto lock = FileLock::create(path);
  if (!lock.ok()) return std::filesystem::exists(path, ec) ? exists() : lock.error();
  auto made = create_new(path, config, provenance, std::move(*lock), shown_as);
  if (!made.ok())
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
      std::filesystem::remove(path.string() + suffix, ec);
  return made;
}

Result<RunStore> RunStore::create_new(const std::filesystem::path& path, const Json& config,
                                      const Json& provenance, FileLock lock,
                                      const std::filesystem::path& shown_as) {
  PTXB_TRY(Db db, Db::open(path, /*create=*/true, shown_as));
  PTXB_TRY(Transaction tx, Transaction::begin(db));
  PTXB_TRY_STATUS(create_schema(db));
  PTXB_TRY(Stmt s,
           db.prepare("INSERT INTO runs (id, created_at, config_json, provenance_json, status) "
                      "VALUES (1, ?, ?, ?, 'running')"));
  s.bind(1, utc_now()).bind(2, to_text(config)).bind(3, to_text(provenance));
  PTXB_TRY_STATUS(s.run());
  PTXB_TRY_STATUS(tx.commit());
  return RunStore(std::make_unique<Impl>(std::move(db), std::move(lock)));
}

namespace {

// 0 when this process may access `p` as `mode` says, else why not (errno).
int denied(const std::filesystem::path& p, int mode) {
  return ::access(p.c_str(), mode) == 0 ? 0 : errno;
}

// Whether this process may write `path` and what SQLite makes beside it (its -wal and -shm, or
// the folder to make them in): SQLite would say only "attempt to write a readonly database",
// after it has begun (issue 38). Root may write a file whatever its mode says.

Status check_writable(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string copy_hint = "resume a writable copy: cp " + path.string() +
                                " copy.db, then `ptxbench run --resume copy.db`";
  auto refused = [&](int err, const std::string& what, const std::string& fix) {
    if (err == EROFS)
      return make_error(path.string() + " is on a read-only file system; resuming writes to it",
                        copy_hint);
    return make_error(what, fix + "; or " + copy_hint);
  };
  if (const int err = denied(path, W_OK))
    return refused(
        err, path.string() + " is read-only (this user may not write it); resuming writes to it",
        "chmod u+w " + path.string() + " makes it writable");
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  for (const char* suffix : {"-wal", "-shm"}) {
    const fs::path side = path.string() + suffix;
    std::error_code ec;
    if (fs::exists(side, ec)) {
      if (const int err = denied(side, W_OK))
        return refused(err,
                       side.string() + " (beside the run file) is read-only; resuming writes to it",
                       "chmod u+w " + side.string() + " makes it writable");
    } else if (const int err = denied(folder, W_OK | X_OK)) {
      return refused(err,
                     "this user may not write in the folder " + folder.string() +
                         ", and resuming " + path.string() + " makes " + side.filename().string() +
                         " in it",
                     "make the folder writable");
    }
  }
  return {};
}

}  // namespace

Result<RunStore> RunStore::open(const std::filesystem::path& given) {
  // A link is followed to its file: the lock, SQLite's journal and the writes are the file's
  // (the lock refuses to follow one, so `run --resume LINK` said "Too many levels of symbolic
  // links": campaign 5, RS08).
  std::error_code ec;
  const std::filesystem::path path =
      std::filesystem::is_symlink(given, ec) ? std::filesystem::canonical(given, ec) : given;
  if (ec)
    return make_error("cannot follow the symbolic link " + given.string() + ": " + ec.message(),
                      "pass the run file itself");
  PTXB_TRY_STATUS(open_read_only(path));  // a run file, checked without writing to it
  PTXB_TRY_STATUS(check_writable(path));
  PTXB_TRY(FileLock lock, FileLock::lock(path));  // no other process writes it meanwhile
  PTXB_TRY(Db db, Db::open(path, /*create=*/false));
  PTXB_TRY_STATUS(check_schema(db));
  return RunStore(std::make_unique<Impl>(std::move(db), std::move(lock)));
}

namespace {

// The largest file + log copied to look for a run's schema in the log (a run's first commits).
constexpr std::uintmax_t kMaxLogCheckBytes = 256u << 20;

// Whether `path` with its -wal holds a run's schema, read from a private copy of both: SQLite
// itself never opens the originals, since in place it opens a log read-write even for a
// read-only connection, and as root gives it (and the -shm) the database file's owner. Its
// errors name the copy: the caller reports the original's.
Status schema_in_copy_with_log(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const fs::path wal = path.string() + "-wal";
  std::error_code ec1, ec2;
  const std::uintmax_t bytes = fs::file_size(path, ec1) + fs::file_size(wal, ec2);
  if (ec1 || ec2 || bytes > kMaxLogCheckBytes)
    return make_error(path.string() +
                          " is not a ptxbench run database (no run schema in the "
                          "file, and its write-ahead log cannot be checked)",
                      "pass the .db file that `ptxbench run` wrote (see --out)");
  PTXB_TRY(TempDir dir, TempDir::create("ptxbench-store-check-"));
  const fs::path copy = dir.path() / "copy.db";
  fs::copy_file(path, copy, ec1);
  fs::copy_file(wal, copy.string() + "-wal", ec2);
  if (ec1 || ec2)
    return make_error("cannot copy " + path.string() +
                      " and its log to check them: " + (ec1 ? ec1 : ec2).message());
  PTXB_TRY(Db db, Db::open(copy, /*create=*/false));
  return check_schema(db);
}

}  // namespace

// A file is opened so that nothing can change it, or anything beside it, until its schema
// shows that it is a run: immutable first; when that finds no run schema but a write-ahead
// log is there (a run's first commits may be only in it), in a private copy of both (never
// through the original log). Only a run is then reopened to see a writer's latest commits
// (Db::ReadOnly::latest).
Result<RunStore> RunStore::open_read_only(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return make_error(path.string() + " does not exist",
                      "pass the .db file that `ptxbench run` wrote (see --out)");
  const bool wal = std::filesystem::exists(path.string() + "-wal", ec);
  const bool shm = std::filesystem::exists(path.string() + "-shm", ec);
  PTXB_TRY(Db db, Db::open_read_only(path, Db::ReadOnly::untouched));
  Status schema = check_schema(db);
  if (!schema.ok() && wal && shm && schema_in_copy_with_log(path).ok()) schema = {};
  PTXB_TRY_STATUS(schema);
  if (wal) {
    PTXB_TRY(db, Db::open_read_only(path, Db::ReadOnly::latest));
    PTXB_TRY_STATUS(check_schema(db));
  }
  // Rows no command could read as ptxbench wrote them: named now, before any command reads,
  // judges or writes anything (issue 38).
  PTXB_TRY_STATUS(check_rows(db));
  return RunStore(std::make_unique<Impl>(std::move(db)));
}

}  // namespace ptxbench::store
