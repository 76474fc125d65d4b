#include "serve/pipeline_judger.h"

#include <memory>

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
      speedup_target_(speedup_target),
      stages_(paths_, runner_) {
  if (!base_.eval.library_choices)
    base_.eval.library_choices = std::make_shared<eval::LibraryChoices>();
  if (!base_.eval.verifier_host) base_.eval.verifier_host = std::make_shared<eval::VerifierHost>();
}

namespace {
constexpr std::string_view kCancelled = "the job was cancelled; this stage was not run";
}  // namespace

Result<judge::Compiled> CancellableStages::compile(const task::TaskSpec& task,
                                                   std::string_view source,
                                                   const compile::CompileOptions& options) {
  if (cancelled_.load()) return make_error(std::string(kCancelled));
  return inner_.compile(task, source, options);
}

eval::EvalResult CancellableStages::evaluate(const task::TaskSpec& task,
                                             const std::filesystem::path& shared_object,
                                             const eval::EvalOptions& options) {
  if (cancelled_.load()) {
    eval::EvalResult r;
    r.outcome = Outcome::not_run;
    r.message = std::string(kCancelled);
    return r;
  }
  return inner_.evaluate(task, shared_object, options);
}

Result<audit::AuditResult> CancellableStages::audit(const std::filesystem::path& shared_object,
                                                    const task::TaskSpec& task,
                                                    std::string_view arch,
                                                    const eval::AuditTrace* trace,
                                                    const audit::AuditOptions& options,
                                                    const std::string& why_static) {
  if (cancelled_.load()) return make_error(std::string(kCancelled));
  return inner_.audit(shared_object, task, arch, trace, options, why_static);
}

run::TurnVerdict PipelineJudger::judge(const JobRequest& r, const task::TaskSpec& task,
                                       run::StageSlots& slots, const std::atomic<bool>& cancelled) {
  // A pipeline per job over the shared stages, so that its checkpoints see this job's flag;
  // the library plan and the warm verifier are shared through base_ (set above).
  judge::JudgeOptions o = base_;
  o.compile.contract = r.contract;
  run::StagePipeline pipeline(std::make_unique<CancellableStages>(stages_, cancelled), o);
  return pipeline.evaluate(r.source, task, r.arch, slots);
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
