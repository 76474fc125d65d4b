#include "sft/session_runner.h"

namespace ptxbench::sft {

SessionRepairRunner::SessionRepairRunner(run::RunConfig config,
                                         const std::vector<task::TaskSpec>& tasks,
                                         run::CandidatePipeline& pipeline,
                                         run::ClientFactory& clients, run::ExtractFn extract)
    : config_(std::move(config)),
      pipeline_(pipeline),
      clients_(clients),
      extract_(std::move(extract)),
      slots_(config_.cpu_jobs, config_.gpus) {
  for (const auto& t : tasks) tasks_.emplace(t.name, t);
}

Status SessionRepairRunner::run(store::RunStore& store, const store::TrajectoryKey& key,
                                const std::vector<llm::Message>& opening) {
  auto spec = tasks_.find(key.task);
  if (spec == tasks_.end())
    return make_error("the seed's task '" + key.task + "' is not in the task suite",
                      "mine with the ptxbench version (tasks/) that wrote the run");
  if (opening.size() != 2 || opening[0].role != "system" || opening[1].role != "user")
    return make_error("a repair opening must be a system and a user message");
  PTXB_TRY(std::int64_t id, store.add_trajectory(key));
  PTXB_TRY(store::TrajectoryRow row, store.trajectory(id));
  run::LoopDeps deps{store,
                     pipeline_,
                     clients_,
                     [&opening](const task::TaskSpec&, const std::string&,
                                const std::string&) -> Result<run::PromptMessages> {
                       return run::PromptMessages{opening[0].content, opening[1].content};
                     },
                     extract_,
                     nullptr};
  auto outcome = run::run_trajectory(row, spec->second, config_, slots_, deps);
  if (!outcome.ok()) return outcome.error();
  if (outcome->status == run::TrajectoryEnd::failed) return make_error(outcome->stop_reason);
  if (outcome->status == run::TrajectoryEnd::interrupted) return make_error("interrupted");
  return {};
}

}  // namespace ptxbench::sft
