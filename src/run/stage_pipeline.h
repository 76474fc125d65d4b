// StagePipeline: the real CandidatePipeline. Each candidate is judged by judge::Judge
// (compile on a CPU slot, then evaluation and the instruction audit under one lease of
// a GPU queue); the loop holds the judge's report (TurnVerdict). Without a
// GPU, or for an architecture the local GPU cannot run, the judge stops after compile
// and the static SASS census, and the turn is marked GPU-skipped.
#pragma once

#include <memory>

#include "core/paths.h"
#include "core/subprocess.h"
#include "judge/judge.h"
#include "run/pipeline.h"

namespace ptxbench::run {

class StagePipeline final : public CandidatePipeline {
 public:
  // The real stages (compiler, evaluator and auditor processes through `runner`).
  StagePipeline(Paths paths, ProcessRunner& runner, judge::JudgeOptions options);
  // Given stages (tests).
  StagePipeline(std::unique_ptr<judge::Stages> stages, judge::JudgeOptions options)
      : stages_(std::move(stages)), options_(std::move(options)) {}

  TurnVerdict evaluate(const std::string& source, const task::TaskSpec& task,
                       const std::string& arch, StageSlots& slots) override;
  bool gpu_available() const override { return options_.gpu; }
  Json describe() const override;

 private:
  std::unique_ptr<judge::Stages> stages_;
  judge::JudgeOptions options_;
};

}  // namespace ptxbench::run
