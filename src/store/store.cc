#include "store/store.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <mutex>

#include "core/json.h"
#include "store/damage.h"
#include "store/db.h"
#include "store/schema.h"
#include "store/store_impl.h"

namespace ptxbench::store {

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
