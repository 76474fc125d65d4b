// Two runs of the same trajectories side by side (`ptxbench show A B`, `show B --compare A`):
// typically a run and its rejudge (`ptxbench rejudge`) on another GPU or by a newer judge.
// Turns are matched by (model, task, arch, sample, turn); for each, the category and speedup
// in each run. Also, task by task, the shares of each run's turns with a code block, a
// compile error, a correct result (task_shares.h): a model before and after fine-tuning.
// Computed here once; print_comparison / to_json only present it.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/json.h"
#include "report/summary.h"
#include "report/task_shares.h"

namespace ptxbench::report {

struct TurnPair {
  store::TrajectoryKey key;
  int turn = 0;
  std::optional<judge::Disposition> before, after;  // verdict; empty: the turn is not in that run
  std::optional<double> before_speedup, after_speedup;
  bool changed() const { return before != after; }
};

struct RunLabel {
  std::string path, created_at, host, git_commit, gpu;  // from the run's provenance
};

struct Comparison {
  RunLabel before, after;
  std::vector<TurnPair> turns;  // in key, turn order
  int both = 0, same = 0, only_before = 0, only_after = 0;
  std::map<std::string, std::pair<int, int>> categories;  // category -> (before, after) turns
  // (before, after) -> turns, for turns in both runs whose category changed.
  std::map<std::pair<std::string, std::string>, int> changes;
  std::vector<TaskShares> tasks;  // per (task, arch), then per arch (task_shares.h)
};

Comparison compare_runs(const RunData& before, const RunData& after);

// The header (both runs), the counts per category, the shares per task and the categories
// per task, the changes, and with `all_turns` every turn (else the changed ones). Text from the
// runs is escaped for the console.
// A turn's verdict as the comparison prints it: its stored name, or "(absent)".
std::string category_name(const std::optional<judge::Disposition>& c);

void print_comparison(std::ostream& out, const Comparison& c, bool all_turns);
Json to_json(const Comparison& c);

}  // namespace ptxbench::report
