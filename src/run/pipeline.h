// The seam between the loop and the stages: one candidate source in, one TurnVerdict
// out. StagePipeline (stage_pipeline.h) judges it with judge::Judge; tests use fakes.
// A candidate's failure is a verdict, never an Error.
#pragma once

#include <string>

#include "core/result.h"
#include "run/slots.h"
#include "run/verdict.h"
#include "task/spec.h"

namespace ptxbench::run {

class CandidatePipeline {
 public:
  virtual ~CandidatePipeline() = default;
  // Take a CPU slot for compiling and a GPU lease for evaluation and audit from `slots`.
  virtual TurnVerdict evaluate(const std::string& source, const task::TaskSpec& task,
                               const std::string& arch, StageSlots& slots) = 0;
  // evaluate(), or an Error when the judge itself could not give a verdict (a remote judge,
  // `run --judge-url`, that is down or refused the candidate): the loop then fails the
  // trajectory without recording the turn, so that a resumed run judges it again. An
  // in-process judge always answers (its failures are verdicts).
  virtual Result<TurnVerdict> try_evaluate(const std::string& source, const task::TaskSpec& task,
                                           const std::string& arch, StageSlots& slots) {
    return evaluate(source, task, arch, slots);
  }
  // false: evaluation and the run-time audit are skipped (compile + static census only).
  virtual bool gpu_available() const = 0;
  // What the run records about the stages (versions, GPU, route); stored in provenance.
  virtual Json describe() const { return Json::object(); }
};

}  // namespace ptxbench::run
