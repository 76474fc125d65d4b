#include "serve/pipeline_judger.h"

#include "eval/library_choices.h"
#include "eval/verifier_host.h"
#include "run/feedback.h"

namespace ptxbench::serve {

PipelineJudger::PipelineJudger(Paths paths, ProcessRunner& runner, judge::JudgeOptions base,
                               Json about, double speedup_target)
    : paths_(std::move(paths)),
      runner_(runner),
      base_(std::move(base)),
      about_(std::move(about)),
      speedup_target_(speedup_target) {
  if (!base_.eval.library_choices)
    base_.eval.library_choices = std::make_shared<eval::LibraryChoices>();
  if (!base_.eval.verifier_host) base_.eval.verifier_host = std::make_shared<eval::VerifierHost>();
}

run::StagePipeline& PipelineJudger::pipeline_for(const ContractChoice& c) {
  std::lock_guard lock(mu_);
  auto& p = pipelines_[std::string(to_string(c))];
  if (!p) {
    judge::JudgeOptions o = base_;
    o.compile.contract = c;
    p = std::make_unique<run::StagePipeline>(paths_, runner_, o);
  }
  return *p;
}

run::TurnVerdict PipelineJudger::judge(const JobRequest& r, const task::TaskSpec& task,
                                       run::StageSlots& slots) {
  return pipeline_for(r.contract).evaluate(r.source, task, r.arch, slots);
}

std::string PipelineJudger::feedback(const run::TurnVerdict& v, const JobRequest& r) {
  run::TurnContext ctx;
  ctx.turn = 1;
  ctx.max_turns = 1;
  ctx.speedup_target = speedup_target_;
  ctx.arch = r.arch;
  return run::build_feedback(v, ctx);
}

Json PipelineJudger::describe() const {
  Json d = about_;
  d["stages"] = run::StagePipeline(paths_, runner_, base_).describe();
  return d;
}

}  // namespace ptxbench::serve
