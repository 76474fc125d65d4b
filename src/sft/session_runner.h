// The RepairRunner that `ptxbench sft mine` uses: one teacher trajectory through the
// session's multi-turn loop (session/loop.h), whose opening is the repair request
// instead of the task prompt. Everything else (compile, check, time, audit, feedback,
// resume, the store's transactions) is the loop's.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "session/config.h"
#include "session/loop.h"
#include "session/pipeline.h"
#include "session/slots.h"
#include "sft/mine.h"
#include "task/spec.h"

namespace ptxbench::sft {

class SessionRepairRunner final : public RepairRunner {
 public:
  // `config` gives the teacher endpoint, the turn budget and the speedup target (a
  // trajectory stops at its first turn that reaches it). `tasks` are the specs the
  // seeds may name.
  SessionRepairRunner(session::RunConfig config, const std::vector<task::TaskSpec>& tasks,
                      session::CandidatePipeline& pipeline, session::ClientFactory& clients,
                      session::ExtractFn extract);

  Status run(store::RunStore& store, const store::TrajectoryKey& key,
             const std::vector<llm::Message>& opening) override;

 private:
  session::RunConfig config_;
  std::map<std::string, task::TaskSpec> tasks_;
  session::CandidatePipeline& pipeline_;
  session::ClientFactory& clients_;
  session::ExtractFn extract_;
  session::StageSlots slots_;
};

}  // namespace ptxbench::sft
