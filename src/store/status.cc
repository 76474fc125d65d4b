#include "store/status.h"

namespace ptxbench::store {

std::string_view to_string(RunStatus s) {
  switch (s) {
    case RunStatus::running:
      return "running";
    case RunStatus::done:
      return "done";
  }
  return "running";
}

std::string_view to_string(TrajectoryStatus s) {
  switch (s) {
    case TrajectoryStatus::pending:
      return "pending";
    case TrajectoryStatus::running:
      return "running";
    case TrajectoryStatus::done:
      return "done";
    case TrajectoryStatus::failed:
      return "failed";
  }
  return "running";
}

std::optional<RunStatus> run_status_from_string(std::string_view s) {
  for (RunStatus v : kRunStatuses)
    if (to_string(v) == s) return v;
  return std::nullopt;
}

std::optional<TrajectoryStatus> trajectory_status_from_string(std::string_view s) {
  for (TrajectoryStatus v : kTrajectoryStatuses)
    if (to_string(v) == s) return v;
  return std::nullopt;
}

}  // namespace ptxbench::store
