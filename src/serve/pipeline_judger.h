// PipelineJudger: the service's real Judger. Each job is judged by judge::Judge through
// run::StagePipeline (compile on a CPU slot, then the judging session and the instruction audit
// under one GPU lease), exactly as `ptxbench eval` and the run loop judge; its feedback is the
// run loop's (run/feedback.h) for a first turn. One pipeline per kernel contract a job may
// name (auto, native, tvm-ffi), all sharing one library plan and one warm verifier per GPU.
// A job cancelled while judged stops at the next checkpoint: CancellableStages wraps the real
// stages and answers each stage not yet begun with "cancelled" without running it (no nvcc, no
// judging session, no audit); a stage under way ends within its own budget.
#pragma once

#include <atomic>
#include <string>

#include "core/paths.h"
#include "core/subprocess.h"
#include "judge/judge.h"
#include "judge/stages.h"
#include "run/stage_pipeline.h"
#include "serve/service.h"

namespace ptxbench::serve {

class PipelineJudger final : public Judger {
 public:
  // `base`: the judging options every job shares (set_judging_machine already applied);
  // `about`: what else belongs to the provenance (ptxbench's version, the machine).
  PipelineJudger(Paths paths, ProcessRunner& runner, judge::JudgeOptions base, Json about,
                 double speedup_target = 1.2);
  run::TurnVerdict judge(const JobRequest& r, const task::TaskSpec& task, run::StageSlots& slots,
                         const std::atomic<bool>& cancelled) override;
  std::string feedback(const run::TurnVerdict& v, const JobRequest& r) override;
  Json describe() const override;

 private:
  Paths paths_;
  ProcessRunner& runner_;
  judge::JudgeOptions base_;
  Json about_;
  double speedup_target_;
  judge::ToolStages stages_;  // shared by every job (thread-safe: judge/stages.h)
};

// The checkpoints of a cancelled job: each stage asked for after `cancelled` became true is
// not run (compile and audit: an Error; evaluate: a not_run result), so the judge returns at
// once and gives its leases back. Stages asked for before run as `inner` runs them.
class CancellableStages final : public judge::Stages {
 public:
  CancellableStages(judge::Stages& inner, const std::atomic<bool>& cancelled)
      : inner_(inner), cancelled_(cancelled) {}
  Result<judge::Compiled> compile(const task::TaskSpec& task, std::string_view source,
                                  const compile::CompileOptions& options) override;
  eval::EvalResult evaluate(const task::TaskSpec& task, const std::filesystem::path& shared_object,
                            const eval::EvalOptions& options) override;
  Result<audit::AuditResult> audit(const std::filesystem::path& shared_object,
                                   const task::TaskSpec& task, std::string_view arch,
                                   const eval::AuditTrace* trace,
                                   const audit::AuditOptions& options,
                                   const std::string& why_static = {}) override;

 private:
  judge::Stages& inner_;
  const std::atomic<bool>& cancelled_;
};

}  // namespace ptxbench::serve
