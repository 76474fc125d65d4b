// The per-task summary of a run, as in the paper: at turn budgets T (default 1, 4, 8)
// the correctness rate (trajectories with a correct turn within the first T), the
// correct-with-arch rate (a correct turn whose target families executed), the best
// speedup (over correct turns), and fast_p (share of trajectories with a turn that is
// correct, executes its target families and is faster than p x the library).
// Computed here once from plain data; reporters only print it.
// A trajectory that failed (its endpoint never answered, a store error) has no score: it
// is counted as failed and left out of every rate, so a dead endpoint never reads as a
// model that scored 0. Without a GPU the rates are unknown; what was established
// statically is summarised instead: compiled, and the target families found in the SASS.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "judge/disposition.h"
#include "report/cost.h"
#include "store/store.h"
#include "store/stored_turn.h"

namespace ptxbench::report {

struct TrajectoryData {
  store::TrajectoryKey key;
  store::TrajectoryStatus status = store::TrajectoryStatus::pending;
  std::string stop_reason;
  std::vector<store::StoredTurn> turns;  // ascending turn (store/stored_turn.h)
};

struct RunData {
  std::string path;
  std::string created_at;
  store::RunStatus status = store::RunStatus::running;
  Json config;
  Json provenance;
  std::vector<int> budgets = {1, 4, 8};
  std::vector<double> fast_p = {0.5, 0.8, 1.0, 1.2};
  std::vector<TrajectoryData> trajectories;
};

Result<RunData> load_run(const store::RunStore& store);
// The run file at `path`, opened read-only (store::RunStore::open_read_only's errors).
Result<RunData> load_run_file(const std::string& path);

struct BudgetStats {
  int budget = 0;
  double correct_rate = 0;
  double arch_rate = 0;
  std::optional<double> best_speedup;  // over correct turns within the budget
  std::vector<double> fast;            // one per RunData::fast_p
};

// What happened to a group's GPU stages (correctness check, timing, run-time audit).
enum class GpuStages {
  run,          // some compiled turn was evaluated on a GPU
  skipped,      // turns compiled, but there was no GPU for them: static evidence only
  not_reached,  // no turn compiled (no code, policy, compile errors): nothing to run
};
std::string_view to_string(GpuStages s);  // "run", "skipped", "not_reached" (JSON)

struct GroupSummary {
  std::string model;
  std::string task;  // "all" for the model/arch total
  std::string arch;
  int trajectories = 0;
  int failed = 0;           // status failed: no score, left out of the rates
  int unfinished = 0;       // still running, or stopped by an interrupt: not scored yet
  int scored = 0;           // finished trajectories: the rates' denominator
  int finished = 0;         // status done
  int turns = 0;            // stored turns
  int target_reached = 0;   // trajectories that reached the speedup target
  double compile_rate = 0;  // scored trajectories with a turn that compiled (none scored: 0,
                            // and null in JSON)
  GpuStages gpu_stages = GpuStages::not_reached;
  // Static evidence (what a run without a GPU establishes):
  double targets_in_sass_rate = 0;            // scored trajectories with a compiled turn whose
                                              // SASS has the target families (by the task's rule)
  std::optional<int> first_targets_turn;      // the earliest such turn
  std::vector<std::string> families_in_sass;  // target families present in some turn's SASS
  std::vector<BudgetStats> at;                // one per budget
  std::map<std::string, int> categories;      // turn counts per category
  CostSummary cost;  // tokens, times and GPU-seconds, per correct (+arch) kernel (cost.h)
};

struct Summary {
  std::string path;
  std::string created_at;
  store::RunStatus status = store::RunStatus::running;
  std::vector<int> budgets;
  std::vector<double> fast_p;
  std::vector<GroupSummary>
      groups;  // per (model, arch, task), then the "all" row per (model, arch)
};

// `prices`: dollars in each group's cost when given.
Summary summarize(const RunData& run, const Prices& prices = {});
Json to_json(const Summary& s);

}  // namespace ptxbench::report
