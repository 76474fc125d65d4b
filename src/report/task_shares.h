// Two runs of the same tasks, task by task (`ptxbench show A B`): for each (task, arch) and
// for all tasks of an arch, the share of each run's turns whose reply had a code block,
// failed to compile, was correct, and was correct with the target instructions executing,
// and the turns per category. Used to compare a model before and after fine-tuning
// (scripts/fixit-e2e.sh), where the turns need not match one by one.
// Correctness is only known where the GPU stages ran: a run without a GPU leaves every
// compiled turn not_evaluated, and its correct shares are unknown, not zero.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/json.h"
#include "report/summary.h"

namespace ptxbench::report {

// Counts over one run's turns of one (task, arch) or of all tasks of an arch.
struct TurnShares {
  int turns = 0;
  int with_code = 0;          // a code block was found (category other than no_code)
  int compile_errors = 0;     // category compile_error
  int correct = 0;            // passed or passed_missing_instructions
  int correct_with_arch = 0;  // correct, and the target instruction families executed
  // run: some compiled turn went through the GPU stages; skipped: compiled turns, but no
  // GPU for them (correctness unknown); not_reached: nothing compiled (none can be correct).
  GpuStages gpu_stages = GpuStages::not_reached;
  bool correctness_known() const { return gpu_stages != GpuStages::skipped; }
};

struct TaskShares {
  std::string task;  // "all": every task of the arch
  std::string arch;
  TurnShares before, after;
  std::map<std::string, std::pair<int, int>> categories;  // category -> (before, after) turns
};

// One row per (task, arch) present in either run, sorted, then one "all" row per arch.
// Every model of a run counts (a run of one model is the usual case).
std::vector<TaskShares> task_shares(const RunData& before, const RunData& after);

// "62%" (rounded), or "-" where there are no turns; correct shares print "n/e" (not
// evaluated) where correctness is unknown.
std::string share_text(int n, int turns);

// The table (one line per row: turns and the four shares, before -> after), then the
// turns per category of each row. Text from the runs is escaped for the console.
void print_task_shares(std::ostream& out, const std::vector<TaskShares>& rows);

// [{task, arch, before: {turns, with_code, compile_errors, correct, correct_with_arch,
//   gpu_stages, shares: {with_code, compile_error, correct, correct_with_arch}}, after,
//   categories: {category: {before, after}}}]; a share is null where it is unknown (no
//   turns, or correctness not evaluated).
Json to_json(const std::vector<TaskShares>& rows);

}  // namespace ptxbench::report
