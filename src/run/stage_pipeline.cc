#include "run/stage_pipeline.h"

namespace ptxbench::run {

namespace {

// The run loop's slots as the judge's leases: a CPU slot while compiling, one GPU
// queue's lease while evaluating and auditing (pinned to that GPU when there are several).
class SlotLeases final : public judge::Leases {
 public:
  explicit SlotLeases(StageSlots& slots) : slots_(slots) {}
  std::unique_ptr<Hold> cpu() override { return std::make_unique<CpuHold>(slots_.cpu); }
  std::unique_ptr<Hold> gpu() override { return std::make_unique<GpuHold>(slots_.gpu); }

 private:
  struct CpuHold final : Hold {
    explicit CpuHold(Semaphore& s) : lease(s) {}
    CpuLease lease;
  };
  struct GpuHold final : Hold {
    explicit GpuHold(GpuQueue& q) : lease(q.acquire()) {
      if (q.devices() > 1) device = lease.device();  // queue i evaluates on GPU i only
    }
    GpuLease lease;
  };
  StageSlots& slots_;
};

}  // namespace

StagePipeline::StagePipeline(Paths paths, ProcessRunner& runner, judge::JudgeOptions options)
    : stages_(std::make_unique<judge::ToolStages>(std::move(paths), runner)),
      options_(std::move(options)) {
  // One library plan per (task, workload, GPU) for the whole run (eval/library_choices.h).
  if (!options_.eval.library_choices)
    options_.eval.library_choices = std::make_shared<eval::LibraryChoices>();
  // One warm verifier process per GPU for the whole run (eval/verifier_host.h).
  if (!options_.eval.verifier_host)
    options_.eval.verifier_host = std::make_shared<eval::VerifierHost>();
}

TurnVerdict StagePipeline::evaluate(const std::string& source, const task::TaskSpec& task,
                                    const std::string& arch, StageSlots& slots) {
  judge::JudgeOptions o = options_;
  o.compile.arch = arch;
  SlotLeases leases(slots);
  return TurnVerdict{source, judge::Judge(*stages_).judge(task, source, o, leases),
                     static_cast<double>(o.compile.timeout.count()), o.eval.call_timeout_seconds};
}

Json StagePipeline::describe() const {
  return Json{
      {"gpu", options_.gpu},
      {"gpu_arch", !options_.gpu       ? Json(nullptr)
                   : options_.gpu_arch ? Json(std::string(task::to_string(*options_.gpu_arch)))
                                       : Json("")},
      {"eval_trials", options_.eval.trials},
      {"memcheck", options_.eval.memcheck},
      // Base input sets: every candidate its own, or (--shared-inputs) the run's, from
      // one secret seed recorded per candidate as eval.input_seed.
      {"inputs", options_.eval.input_seed ? "per_run" : "per_candidate"},
      {"audit_route", options_.audit.route == audit::RouteChoice::automatic ? "auto"
                      : options_.audit.route == audit::RouteChoice::cupti   ? "cupti"
                                                                            : "ncu"}};
}

}  // namespace ptxbench::run
