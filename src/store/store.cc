#include "store/store.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <mutex>

#include "core/file_lock.h"
#include "core/fs.h"
#include "core/json.h"
#include "store/damage.h"
#include "store/db.h"
#include "store/schema.h"

namespace ptxbench::store {

struct RunStore::Impl {
  // A writer's lock on its file (core/file_lock.h). Declared before `db`, so that it is
  // released after the connection is closed.
  std::optional<FileLock> lock;
  Db db;
  mutable std::mutex mu;
  explicit Impl(Db d, std::optional<FileLock> l = std::nullopt)
      : lock(std::move(l)), db(std::move(d)) {}
};

namespace {

std::optional<std::string> json_or_null(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return to_text(j);
}

Status insert_message(Db& db, std::int64_t traj, const MessageRow& m) {
  PTXB_TRY(Stmt s,
           db.prepare("INSERT INTO messages (trajectory_id, seq, turn, role, content, reasoning) "
                      "VALUES (?, ?, ?, ?, ?, ?)"));
  s.bind(1, traj)
      .bind(2, m.seq)
      .bind(3, m.turn)
      .bind(4, m.role)
      .bind(5, m.content)
      .bind(6, m.reasoning);
  return s.run();
}

Result<int> next_seq(Db& db, std::int64_t traj) {
  PTXB_TRY(Stmt s,
           db.prepare("SELECT COALESCE(MAX(seq) + 1, 0) FROM messages WHERE trajectory_id = ?"));
  s.bind(1, traj);
  PTXB_TRY(bool row, s.step());
  PTXB_CHECK(row, "MAX() returns a row");
  return static_cast<int>(s.int64(0));
}

Status insert_turn(Db& db, std::int64_t traj, const TurnRow& t, const std::string& now) {
  PTXB_TRY(Stmt s,
           db.prepare(
               "INSERT INTO turns (trajectory_id, turn, source, source_hash, category, feedback, "
               "compile_json, "
               "eval_json, audit_json, correct, arch_executed, speedup, target_reached, "
               "gpu_stages, flags_json, "
               "llm_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  std::optional<std::int64_t> arch;
  if (t.arch_executed) arch = *t.arch_executed ? 1 : 0;
  s.bind(1, traj)
      .bind(2, t.turn)
      .bind(3, t.source)
      .bind(4, t.source_hash)
      .bind(5, std::string(judge::to_string(t.category)));
  s.bind(6, t.feedback).bind(7, json_or_null(t.compile)).bind(8, json_or_null(t.eval));
  s.bind(9, json_or_null(t.audit)).bind(10, t.correct ? 1 : 0).bind(11, arch).bind(12, t.speedup);
  s.bind(13, t.target_reached ? 1 : 0).bind(14, t.gpu_skipped ? "skipped" : "run");
  s.bind(15, to_text(t.flags)).bind(16, to_text(t.llm)).bind(17, now);
  return s.run();
}

Status set_trajectory_end(Db& db, std::int64_t id, TrajectoryStatus status,
                          const std::string& reason) {
  PTXB_TRY(
      Stmt s,
      db.prepare(
          "UPDATE trajectories SET status = ?, stop_reason = ?, finished_at = ? WHERE id = ?"));
  s.bind(1, std::string(to_string(status))).bind(2, reason).bind(3, utc_now()).bind(4, id);
  return s.run();
}

Result<TrajectoryRow> read_trajectory(const Stmt& s, const std::filesystem::path& file) {
  TrajectoryRow r;
  r.id = s.int64(0);
  r.key = {s.text(1), s.text(2), s.text(3), static_cast<int>(s.int64(4))};
  const auto status = trajectory_status_from_string(s.text(5));
  if (!status)  // refused when the file is opened (damage.cc); a file changed since
    return damaged(file,
                   "trajectory " + std::to_string(r.id) + ": its " + unknown_status(s.text(5)));
  r.status = *status;
  r.stop_reason = s.opt_text(6);
  return r;
}

constexpr std::string_view kTrajectoryColumns =
    "SELECT id, model, task, arch, sample, status, stop_reason FROM trajectories";

}  // namespace

std::string TrajectoryKey::to_string() const {
  return fmt::format("{} {} {} #{}", model, task, arch, sample);
}

std::string utc_now() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03d}Z", buf, ms);
}

RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::RunStore(RunStore&&) noexcept = default;
RunStore& RunStore::operator=(RunStore&&) noexcept = default;
RunStore::~RunStore() = default;

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

const std::filesystem::path& RunStore::path() const {
  return impl_->db.path();
}

Result<RunRow> RunStore::run() const {
  std::lock_guard lock(impl_->mu);
  PTXB_TRY(Stmt s, impl_->db.prepare("SELECT id, created_at, config_json, provenance_json, status, "
                                     "finished_at FROM runs WHERE id = 1"));
  PTXB_TRY(bool row, s.step());
  if (!row)
    return make_error(path().string() + " holds no run", "pass a file written by `ptxbench run`");
  RunRow r;
  r.id = s.int64(0);
  r.created_at = s.text(1);
  PTXB_TRY(r.config, stored_settings(s.opt_text(2), path()));
  PTXB_TRY(r.provenance, stored_json(s.text(3), path(), "the run's provenance"));
  const auto status = run_status_from_string(s.text(4));
  if (!status)  // refused when the file is opened (damage.cc); a file changed since
    return damaged(path(), "the run's " + unknown_status(s.text(4)));
  r.status = *status;
  r.finished_at = s.opt_text(5);
  return r;
}

Status RunStore::finish_run() {
  std::lock_guard lock(impl_->mu);
  PTXB_TRY(Stmt s,
           impl_->db.prepare("UPDATE runs SET status = 'done', finished_at = ? WHERE id = 1"));
  s.bind(1, utc_now());
  return s.run();
}

Status RunStore::reopen_run() {
  std::lock_guard lock(impl_->mu);
  PTXB_TRY_STATUS(upgrade_schema(impl_->db));
  return impl_->db.exec("UPDATE runs SET status = 'running', finished_at = NULL WHERE id = 1");
}

Result<std::int64_t> RunStore::add_trajectory(const TrajectoryKey& k) {
  std::lock_guard lock(impl_->mu);
  Db& db = impl_->db;
  PTXB_TRY(
      Stmt ins,
      db.prepare("INSERT OR IGNORE INTO trajectories (run_id, model, task, arch, sample, status) "
                 "VALUES (1, ?, ?, ?, ?, 'pending')"));
  ins.bind(1, k.model).bind(2, k.task).bind(3, k.arch).bind(4, k.sample);
  PTXB_TRY_STATUS(ins.run());
  PTXB_TRY(Stmt q,
           db.prepare("SELECT id FROM trajectories WHERE run_id = 1 AND model = ? AND task = ? AND "
                      "arch = ? AND sample = ?"));
  q.bind(1, k.model).bind(2, k.task).bind(3, k.arch).bind(4, k.sample);
  PTXB_TRY(bool row, q.step());
  PTXB_CHECK(row, "the trajectory row was just inserted");
  return q.int64(0);
}

Result<std::vector<TrajectoryRow>> RunStore::trajectories() const {
  std::lock_guard lock(impl_->mu);
  PTXB_TRY(Stmt s, impl_->db.prepare(std::string(kTrajectoryColumns) + " ORDER BY id"));
  std::vector<TrajectoryRow> out;
  while (true) {
    PTXB_TRY(bool row, s.step());
    if (!row) break;
    PTXB_TRY(TrajectoryRow t, read_trajectory(s, path()));
    out.push_back(std::move(t));
  }
  return out;
}

Result<TrajectoryRow> RunStore::trajectory(std::int64_t id) const {
  std::lock_guard lock(impl_->mu);
  PTXB_TRY(Stmt s, impl_->db.prepare(std::string(kTrajectoryColumns) + " WHERE id = ?"));
  s.bind(1, id);
  PTXB_TRY(bool row, s.step());
  if (!row)
    return make_error("no trajectory with id " + std::to_string(id) + " in " + path().string());
  return read_trajectory(s, path());
}

Status RunStore::start_trajectory(std::int64_t id, const MessageRow& system,
                                  const MessageRow& task) {
  std::lock_guard lock(impl_->mu);
  Db& db = impl_->db;
  PTXB_TRY(Transaction tx, Transaction::begin(db));
  PTXB_TRY(int seq, next_seq(db, id));
  if (seq == 0) {
    PTXB_TRY_STATUS(insert_message(db, id, MessageRow{0, 0, "system", system.content, ""}));
    PTXB_TRY_STATUS(insert_message(db, id, MessageRow{1, 0, "user", task.content, ""}));
  }
  PTXB_TRY(Stmt s, db.prepare("UPDATE trajectories SET status = 'running', "
                              "started_at = COALESCE(started_at, ?) WHERE id = ?"));
  s.bind(1, utc_now()).bind(2, id);
  PTXB_TRY_STATUS(s.run());
  return tx.commit();
}

Status RunStore::record_turn(const TurnEvent& e) {
  std::lock_guard lock(impl_->mu);
  Db& db = impl_->db;
  PTXB_TRY(Transaction tx, Transaction::begin(db));
  PTXB_TRY(int seq, next_seq(db, e.trajectory_id));
  int expected = 2 + 2 * (e.turn.turn - 1);
  if (seq != expected)
    return make_error(
        fmt::format("trajectory {}: turn {} would be message {}, but the next message is {}",
                    e.trajectory_id, e.turn.turn, expected, seq),
        "the run file was changed by something other than ptxbench");
  MessageRow a = e.assistant;
  a.seq = seq;
  a.turn = e.turn.turn;
  a.role = "assistant";
  PTXB_TRY_STATUS(insert_message(db, e.trajectory_id, a));
  std::string now = utc_now();
  PTXB_TRY_STATUS(insert_turn(db, e.trajectory_id, e.turn, now));
  PTXB_TRY_STATUS(insert_message(db, e.trajectory_id,
                                 MessageRow{seq + 1, e.turn.turn, "user", e.feedback_message, ""}));
  if (e.stop_reason)
    PTXB_TRY_STATUS(
        set_trajectory_end(db, e.trajectory_id, TrajectoryStatus::done, *e.stop_reason));
  return tx.commit();
}

Status RunStore::finish_trajectory(std::int64_t id, TrajectoryStatus status,
                                   const std::string& stop_reason) {
  PTXB_CHECK(status == TrajectoryStatus::done || status == TrajectoryStatus::failed,
             "finish_trajectory: status is done or failed");
  std::lock_guard lock(impl_->mu);
  return set_trajectory_end(impl_->db, id, status, stop_reason);
}

Result<std::vector<MessageRow>> RunStore::messages(std::int64_t trajectory_id) const {
  std::lock_guard lock(impl_->mu);
  PTXB_TRY(Stmt s, impl_->db.prepare("SELECT seq, turn, role, content, reasoning FROM messages "
                                     "WHERE trajectory_id = ? ORDER BY seq"));
  s.bind(1, trajectory_id);
  std::vector<MessageRow> out;
  while (true) {
    PTXB_TRY(bool row, s.step());
    if (!row) break;
    out.push_back({static_cast<int>(s.int64(0)), static_cast<int>(s.int64(1)), s.text(2), s.text(3),
                   s.text(4)});
  }
  return out;
}

Result<std::vector<TurnRow>> RunStore::turns(std::int64_t trajectory_id) const {
  std::lock_guard lock(impl_->mu);
  PTXB_TRY(Stmt s, impl_->db.prepare("SELECT turn, source, source_hash, category, feedback, "
                                     "compile_json, eval_json, audit_json, correct, "
                                     "arch_executed, speedup, target_reached, gpu_stages, "
                                     "flags_json, llm_json, created_at FROM turns "
                                     "WHERE trajectory_id = ? ORDER BY turn"));
  s.bind(1, trajectory_id);
  std::vector<TurnRow> out;
  while (true) {
    PTXB_TRY(bool row, s.step());
    if (!row) break;
    TurnRow t;
    t.turn = static_cast<int>(s.int64(0));
    t.source = s.opt_text(1);
    t.source_hash = s.opt_text(2);
    const auto category = judge::disposition_from_string(s.text(3));
    if (!category)  // refused when the file is opened (damage.cc); a file changed since
      return damaged(path(), "turn " + std::to_string(t.turn) + " of trajectory " +
                                 std::to_string(trajectory_id) + ": " + unknown_verdict(s.text(3)));
    t.category = *category;
    t.feedback = s.text(4);
    const std::string where = "turn " + std::to_string(t.turn) + " of trajectory " +
                              std::to_string(trajectory_id) + ": its stored ";
    PTXB_TRY(t.compile, stored_json(s.opt_text(5), path(), where + "compile stage"));
    PTXB_TRY(t.eval, stored_json(s.opt_text(6), path(), where + "evaluation"));
    PTXB_TRY(t.audit, stored_json(s.opt_text(7), path(), where + "audit"));
    t.correct = s.int64(8) != 0;
    if (auto a = s.opt_int64(9)) t.arch_executed = *a != 0;
    t.speedup = s.opt_real(10);
    t.target_reached = s.int64(11) != 0;
    t.gpu_skipped = s.text(12) == "skipped";
    PTXB_TRY(t.flags, stored_json(s.text(13), path(), where + "flags"));
    PTXB_TRY(t.llm, stored_json(s.text(14), path(), where + "model usage"));
    t.created_at = s.text(15);
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ptxbench::store
