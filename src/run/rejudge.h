// Rejudging a stored run: every stored candidate of every trajectory is judged again through
// a CandidatePipeline (the real one: judge::Judge on this machine) and written to another run
// file with the same messages. The model's replies, the feedback it was given and its token
// usage are copied as they are (the rejudge asks no model); each turn's category, stage
// results, correctness, speedup and the feedback the new judge would give are new. A turn
// without code stays no_code. The trajectories keep their status; one that had reached its
// speedup target and no longer does says so in its stop reason.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "run/pipeline.h"
#include "run/slots.h"
#include "store/store.h"
#include "task/spec.h"

namespace ptxbench::run {

struct RejudgeTotals {
  int trajectories = 0;
  int turns = 0;             // stored turns copied
  int judged = 0;            // of them, candidates (turns with code) judged again
  int changed = 0;           // turns whose category differs from the source's
  bool interrupted = false;  // stopped by SIGINT/SIGTERM: `target` holds only whole turns
};

// One line per trajectory done, for the user ("gemm sm_90a #0: 3 turns, 1 changed").
using RejudgeNotice = std::function<void(const std::string&)>;

// Copies every trajectory of `source` into `target` (a new run file), judging each stored
// candidate again. Every (task) of `source` must be in `tasks` (the caller checks it first:
// unknown_tasks). An Error for a store failure or a run file whose messages do not match its
// turns; a candidate's failure is its verdict.
Result<RejudgeTotals> rejudge(const store::RunStore& source, store::RunStore& target,
                              const std::vector<task::TaskSpec>& tasks, CandidatePipeline& pipeline,
                              StageSlots& slots, const RejudgeNotice& notice = {});

// The tasks `source`'s trajectories name that `tasks` lacks (each once).
Result<std::vector<std::string>> unknown_tasks(const store::RunStore& source,
                                               const std::vector<task::TaskSpec>& tasks);

}  // namespace ptxbench::run
