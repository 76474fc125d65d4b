// StagePipeline: the real CandidatePipeline. Each candidate is judged by judge::Judge
// (compile on a CPU slot, then evaluation and the instruction audit under one lease of
// a GPU queue); the loop gets the TurnVerdict view of the judge's report. Without a
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

// The TurnVerdict view of a judge's report: its disposition and message, each stage's
// stored JSON, and the facts the feedback needs (`options`: the limits it quotes).
TurnVerdict turn_verdict(const judge::JudgeReport& r, const judge::JudgeOptions& options);

// The facts the feedback needs, from each stage's result (unit-tested without a GPU).
CompileFacts compile_facts(const compile::CompileResult& r);
EvalFacts eval_facts(const eval::EvalResult& r, double call_timeout_s);
AuditFacts audit_facts(const audit::AuditResult& r);
AuditFacts static_audit_facts(const compile::Census& c);

}  // namespace ptxbench::run
