// StagePipeline: the real CandidatePipeline. compile (on a CPU slot) -> evaluate on
// the GPU (one at a time per GPU) -> audit the executed instructions (only for a
// correct kernel; an incorrect one is not worth the GPU time). Without a GPU, or for
// an architecture the local GPU cannot run, it stops after compile + the static SASS
// census and marks the GPU stages skipped.
#pragma once

#include "audit/auditor.h"
#include "compile/compiler.h"
#include "core/paths.h"
#include "core/subprocess.h"
#include "eval/evaluator.h"
#include "session/pipeline.h"

namespace ptxbench::session {

struct StageOptions {
  compile::CompileOptions compile;
  eval::EvalOptions eval;
  audit::AuditOptions audit;
  bool gpu = false;                 // a GPU is here (eval::Evaluator::gpu_available())
  std::string gpu_arch = "sm_90a";  // what it runs; other archs are compile + static only
};

class StagePipeline final : public CandidatePipeline {
 public:
  StagePipeline(Paths paths, ProcessRunner& runner, StageOptions options)
      : paths_(std::move(paths)), runner_(runner), options_(std::move(options)) {}

  TurnVerdict evaluate(const std::string& source, const task::TaskSpec& task,
                       const std::string& arch, StageSlots& slots) override;
  bool gpu_available() const override { return options_.gpu; }
  Json describe() const override;

 private:
  Paths paths_;
  ProcessRunner& runner_;
  StageOptions options_;
};

// The facts the feedback needs, from each stage's result (unit-tested without a GPU).
CompileFacts compile_facts(const compile::CompileResult& r);
EvalFacts eval_facts(const eval::EvalResult& r, double call_timeout_s);
AuditFacts audit_facts(const audit::AuditResult& r);
AuditFacts static_audit_facts(const compile::Census& c);

}  // namespace ptxbench::session
