// The stored states of a run and of its trajectories (runs.status, trajectories.status): enums
// across the store's boundary, written and read by their names (the tables' CHECKs list them).
#pragma once

#include <optional>
#include <string_view>

namespace ptxbench::store {

enum class RunStatus {
  running,  // being written, or stopped before its end (a killed or interrupted run)
  done,     // every trajectory ended; finished_at set
};

enum class TrajectoryStatus {
  pending,  // added to the plan, not started
  running,  // started, not ended (a killed or interrupted run leaves it so)
  done,     // ended by a stop reason (target reached, turn budget, script end)
  failed,   // ended by an error (an endpoint that never answered, ...): no score
};

inline constexpr RunStatus kRunStatuses[] = {RunStatus::running, RunStatus::done};
inline constexpr TrajectoryStatus kTrajectoryStatuses[] = {
    TrajectoryStatus::pending, TrajectoryStatus::running, TrajectoryStatus::done,
    TrajectoryStatus::failed};

// Switches: a status added without its name is a compile error (-Wswitch).
std::string_view to_string(RunStatus s);
std::string_view to_string(TrajectoryStatus s);
std::optional<RunStatus> run_status_from_string(std::string_view s);
std::optional<TrajectoryStatus> trajectory_status_from_string(std::string_view s);

}  // namespace ptxbench::store
