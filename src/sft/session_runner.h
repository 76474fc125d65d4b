// The RepairRunner that `ptxbench sft mine` uses: one teacher trajectory through the
// session's multi-turn loop (run/loop.h), whose opening is the repair request
// instead of the task prompt. Everything else (compile, check, time, audit, feedback,
// resume, the store's transactions) is the loop's.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "run/config.h"
#include "run/loop.h"
#include "run/pipeline.h"
#include "run/slots.h"
#include "sft/mine.h"
#include "task/spec.h"

namespace ptxbench::sft {

class SessionRepairRunner final : public RepairRunner {
 public:
  // `config` gives the teacher endpoint, the turn budget and the speedup target (a
  // trajectory stops at its first turn that reaches it). `tasks` are the specs the
  // seeds may name.
  SessionRepairRunner(run::RunConfig config, const std::vector<task::TaskSpec>& tasks,
                      run::CandidatePipeline& pipeline, run::ClientFactory& clients,
                      run::ExtractFn extract);

  Status run(store::RunStore& store, const store::TrajectoryKey& key,
             const std::vector<llm::Message>& opening) override;

 private:
  run::RunConfig config_;
  std::map<std::string, task::TaskSpec> tasks_;
  run::CandidatePipeline& pipeline_;
  run::ClientFactory& clients_;
  run::ExtractFn extract_;
  run::StageSlots slots_;
};

}  // namespace ptxbench::sft
