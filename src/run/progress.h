// What the loop tells a progress display (report/progress.h implements it).
// Calls come from many trajectory threads at once; implementations lock.
#pragma once

#include <string>

#include "judge/disposition.h"
#include "store/store.h"

namespace ptxbench::run {

struct ProgressEvent {
  enum class Kind { started, turn_done, finished };
  Kind kind = Kind::started;
  store::TrajectoryKey key;
  int turn = 0;  // turn_done: the turn; started: turns already stored (resume)
  judge::Disposition category = judge::Disposition::harness_error;  // turn_done
  bool correct = false;
  bool target_reached = false;
  store::TrajectoryStatus status = store::TrajectoryStatus::done;  // finished: done | failed
  std::string stop_reason;                                         // finished
};

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // Before any trajectory runs: how many there are and how many were already done.
  virtual void plan(int trajectories, int already_done, int max_turns) = 0;
  virtual void on_event(const ProgressEvent& e) = 0;
};

}  // namespace ptxbench::run
