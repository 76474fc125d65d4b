// PipelineJudger: the service's real Judger. Each job is judged by judge::Judge through
// run::StagePipeline (compile on a CPU slot, then the judging session and the instruction audit
// under one GPU lease), exactly as `ptxbench eval` and the run loop judge; its feedback is the
// run loop's (run/feedback.h) for a first turn. One pipeline per kernel contract a job may
// name (auto, native, tvm-ffi), all sharing one library plan and one warm verifier per GPU.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/paths.h"
#include "core/subprocess.h"
#include "judge/judge.h"
#include "run/stage_pipeline.h"
#include "serve/service.h"

namespace ptxbench::serve {

class PipelineJudger final : public Judger {
 public:
  // `base`: the judging options every job shares (set_judging_machine already applied);
  // `about`: what else belongs to the provenance (ptxbench's version, the machine).
  PipelineJudger(Paths paths, ProcessRunner& runner, judge::JudgeOptions base, Json about,
                 double speedup_target = 1.2);
  run::TurnVerdict judge(const JobRequest& r, const task::TaskSpec& task,
                         run::StageSlots& slots) override;
  std::string feedback(const run::TurnVerdict& v, const JobRequest& r) override;
  Json describe() const override;

 private:
  run::StagePipeline& pipeline_for(const ContractChoice& c);
  Paths paths_;
  ProcessRunner& runner_;
  judge::JudgeOptions base_;
  Json about_;
  double speedup_target_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<run::StagePipeline>> pipelines_;  // by contract name
};

}  // namespace ptxbench::serve
