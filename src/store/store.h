// RunStore: one SQLite file per run (docs/store-schema.md). Every event is one
// transaction, so a crash or kill -9 leaves only whole events behind; a turn is
// written in the same transaction as the assistant message it evaluates and the
// feedback message that answers it. Safe to share between threads (one lock).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/file_lock.h"
#include "core/json.h"
#include "core/result.h"
#include "judge/disposition.h"
#include "store/status.h"

namespace ptxbench::store {

struct RunRow {
  std::int64_t id = 0;
  std::string created_at;
  Json config;
  Json provenance;
  RunStatus status = RunStatus::running;
  std::optional<std::string> finished_at;
};

struct TrajectoryKey {
  std::string model;
  std::string task;
  std::string arch;
  int sample = 0;
  auto operator<=>(const TrajectoryKey&) const = default;
  std::string to_string() const;  // "model task arch #sample"
};

struct TrajectoryRow {
  std::int64_t id = 0;
  TrajectoryKey key;
  TrajectoryStatus status = TrajectoryStatus::pending;
  std::optional<std::string> stop_reason;
};

struct MessageRow {
  int seq = 0;   // 0 system, 1 task, then assistant/user alternating
  int turn = 0;  // 0 for the first two
  std::string role;
  std::string content;
  std::string reasoning;
};

struct TurnRow {
  int turn = 0;  // 1-based
  std::optional<std::string> source;
  std::optional<std::string> source_hash;
  // The turn's verdict; stored as its name (judge::to_string: "policy" for policy_violation).
  judge::Disposition category = judge::Disposition::harness_error;
  std::string feedback;
  Json compile;  // null when the stage did not run
  Json eval;
  Json audit;
  bool correct = false;
  std::optional<bool> arch_executed;
  std::optional<double> speedup;
  bool target_reached = false;
  bool gpu_skipped = false;  // no GPU here: eval/audit recorded as skipped
  Json flags = Json::array();
  Json llm = Json::object();
  std::string created_at;  // filled by the store
};

// Everything one completed turn writes, atomically.
struct TurnEvent {
  std::int64_t trajectory_id = 0;
  MessageRow assistant;  // seq/turn filled by the store
  TurnRow turn;
  std::string feedback_message;  // the user message that answers it (usually turn.feedback)
  std::optional<std::string> stop_reason;  // set: this turn ends the trajectory (status done)
};

class RunStore {
 public:
  // A new file (an existing one is refused, so no run is overwritten). When creating it
  // fails half-way the file is removed again. A store opened to write (create, open) holds
  // an exclusive lock on its file until it is destroyed or the process ends in any way
  // (core/file_lock.h): a second writer of the same file is refused, naming the first.
  // `shown_as`, when given, is the name its errors use (a file made under a temporary name).
  static Result<RunStore> create(const std::filesystem::path& path, const Json& config,
                                 const Json& provenance,
                                 const std::filesystem::path& shown_as = {});
  // An existing run file to write to (--resume): its schema is checked through a
  // read-only open first, so a file that is not a run is refused unchanged; so is one this
  // process may not write, or whose folder it may not make the -wal in ("X is read-only",
  // with what to do; never SQLite's "attempt to write a readonly database"); then it is
  // locked (an Error "X is being written by another process (pid N: ...)" when it is). A
  // symbolic link is followed: the file it names is opened, locked and written.
  static Result<RunStore> open(const std::filesystem::path& path);
  // An existing run file to read (`show`, `sft`): nothing is ever written to it, and until
  // its schema shows it is a run nothing beside it either (Db::ReadOnly::untouched, then a
  // private copy of the file and its -wal; a run is then read with ReadOnly::latest); a write
  // through this store fails. A run whose rows are not as ptxbench writes them is refused,
  // naming the first such row ("X: turn N of trajectory M: its stored speedup is missing or
  // invalid (...): the run file is damaged"): turns or messages of a trajectory that is not
  // there, a judged turn without its compile stage, a correct one without its evaluation, a
  // speedup that is not a number above 0. (So is `open`, which opens read-only first.)
  static Result<RunStore> open_read_only(const std::filesystem::path& path);

  RunStore(RunStore&&) noexcept;
  RunStore& operator=(RunStore&&) noexcept;
  ~RunStore();

  const std::filesystem::path& path() const;
  // The run row; an Error when its configuration is not a JSON object (a damaged file).
  Result<RunRow> run() const;
  Status finish_run();  // status done
  Status reopen_run();  // status running again (resume); upgrades an older schema first

  // Inserts (model, task, arch, sample) as pending, or returns the existing row's id.
  Result<std::int64_t> add_trajectory(const TrajectoryKey& key);
  Result<std::vector<TrajectoryRow>> trajectories() const;
  Result<TrajectoryRow> trajectory(std::int64_t id) const;

  // Writes the system and task messages (seq 0 and 1) unless present, and marks the
  // trajectory running; one transaction.
  Status start_trajectory(std::int64_t id, const MessageRow& system, const MessageRow& task);
  // One transaction: assistant message, turn row, feedback message, and (with a stop
  // reason) the trajectory's end. Refuses a turn that is already stored.
  Status record_turn(const TurnEvent& event);
  // Ends a trajectory without a new turn (budget reached at resume, agent ended, error).
  // `status`: done or failed.
  Status finish_trajectory(std::int64_t id, TrajectoryStatus status,
                           const std::string& stop_reason);

  Result<std::vector<MessageRow>> messages(std::int64_t trajectory_id) const;
  Result<std::vector<TurnRow>> turns(std::int64_t trajectory_id) const;

 private:
  struct Impl;
  explicit RunStore(std::unique_ptr<Impl> impl);
  static Result<RunStore> create_new(const std::filesystem::path& path, const Json& config,
                                     const Json& provenance, FileLock lock,
                                     const std::filesystem::path& shown_as);
  std::unique_ptr<Impl> impl_;
};

// Current UTC time as ISO 8601 with milliseconds ("2026-11-29T08:46:12.123Z").
std::string utc_now();

}  // namespace ptxbench::store
