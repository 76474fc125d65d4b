// Teacher repair mining (`ptxbench sft mine`): select failing turns from run stores,
// stratified as the export balances them, and start for each a new trajectory with a
// teacher model whose first user message holds the task, the wrong kernel and the
// feedback it got, with the instruction to fix it with the minimal change. The
// trajectories go to one store (MINE.db), with each one's seed in its sft_seeds table
// (seeds.h); `ptxbench sft fixit MINE.db` then turns the repairs into 5-message rows
// made of the ORIGINAL system, task, wrong kernel and feedback, and the teacher's repair.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "llm/chat.h"
#include "sft/corpus.h"
#include "sft/coverage.h"
#include "sft/options.h"
#include "sft/seeds.h"
#include "store/store.h"

namespace ptxbench::sft {

struct SeedJob {
  int sample = 0;  // the teacher trajectory's sample number in MINE.db
  Seed seed;
  std::vector<llm::Message> opening;  // system (the original) and the repair request
};

// Failing turns of the on-policy trajectories (teacher trajectories are not re-mined),
// deduplicated by the normalised wrong kernel, balanced per task by (category, turn)
// with options.per_task_cap and options.seed. Coverage stages: failing, deduplicated,
// balanced. `limit` > 0 keeps the first `limit` in the balanced order.
std::vector<SeedJob> select_seeds(const Corpus& corpus, const Options& options, int limit,
                                  Coverage& coverage);

// The first user message of a teacher trajectory.
std::string repair_request(const Seed& seed);

// The session seam: runs one trajectory of the multi-turn loop (compile, check, time,
// audit, feedback) with a given opening, writing every turn to `store` under `key`.
class RepairRunner {
 public:
  virtual ~RepairRunner() = default;
  // Returns when the trajectory has ended (target reached, turn budget, agent error
  // recorded in the store). An Error only when it could not be run at all.
  virtual Status run(store::RunStore& store, const store::TrajectoryKey& key,
                     const std::vector<llm::Message>& opening) = 0;
};

struct MineReport {
  int selected = 0;
  int already_done = 0;  // present in MINE.db from an earlier (interrupted) mine
  int ran = 0;
  int repaired = 0;     // teacher trajectories with a correct turn that executes the targets
  int interrupted = 0;  // stopped or not started after SIGINT/SIGTERM (core/interrupt.h)
  std::vector<std::string> errors;  // trajectories that could not run
  Coverage coverage;
};

struct MineConfig {
  std::string teacher_model;  // the trajectories' model column
  int limit = 0;
  int concurrency = 1;  // teacher trajectories in flight (the runner must be thread-safe when > 1)
  Json config = Json::object();      // written to MINE.db's runs.config_json on creation
  Json provenance = Json::object();  // and runs.provenance_json
};

// Creates MINE.db (or resumes it: seeds already done are skipped; a file mined from
// other seeds is refused), records every seed, then runs them through `runner`,
// config.concurrency at a time. After SIGINT/SIGTERM (within an InterruptScope) no further
// seed starts, the ones in flight stop at their next turn boundary, and MINE.db stays open
// for a resume (the same command).
Result<MineReport> mine(const Corpus& corpus, const Options& options, const MineConfig& config,
                        const std::filesystem::path& out, RepairRunner& runner);

}  // namespace ptxbench::sft
