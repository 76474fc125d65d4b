// Judge: the one judging driver. For one candidate: compile -> (compiled, and a GPU here
// runs the architecture) evaluate -> (correct, or evaluation turned off) audit the
// executed instructions, then decide (decide.h) its one Disposition. `ptxbench eval`,
// `compile`, `audit`, the run loop and `sft mine` all judge through it.
//
// Without a GPU that runs the candidate's architecture nothing runs candidate code: the
// disposition is not_evaluated and the compile stage's static SASS census is the only
// audit (the audit worker would load the candidate only to find there is no GPU).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "audit/auditor.h"
#include "compile/compiler.h"
#include "eval/evaluator.h"
#include "judge/report.h"
#include "judge/stages.h"
#include "task/arch.h"
#include "task/spec.h"

namespace ptxbench::judge {

struct JudgeOptions {
  compile::CompileOptions compile;  // compile.arch is the candidate's architecture
  eval::EvalOptions eval;           // arch (and a leased device) are set by the judge
  audit::AuditOptions audit;        // sass_listing (and a leased device) are set by the judge
  // false: no timing. With run_audit too, the judging session checks and audits its calls
  // (`ptxbench audit`); without it, no GPU stage runs (`ptxbench compile`).
  bool evaluate = true;
  bool run_audit = true;  // false: no instruction audit (`ptxbench eval --no-audit`)
  bool gpu = false;       // a GPU is here (eval::Evaluator::gpu_available())
  // The target the GPU runs, asked of the device (eval/device_arch.h); candidates of another
  // get the static stages only. None: a GPU that runs neither target, `gpu_none_why` says why.
  std::optional<task::Arch> gpu_arch = task::Arch::sm_90a;
  std::string gpu_none_why;
};

// How a caller that judges several candidates at once rations its machines (the run
// loop's CPU slots and per-GPU queues). Each call blocks until the resource is free and
// returns a hold that frees it when destroyed.
class Leases {
 public:
  struct Hold {
    virtual ~Hold() = default;
    int device = -1;  // the GPU to pin the stages to (core/gpu_select.h); -1: the options'
  };
  virtual ~Leases() = default;
  virtual std::unique_ptr<Hold> cpu() = 0;  // held while compiling
  virtual std::unique_ptr<Hold> gpu() = 0;  // held while evaluating and auditing
};

// Grants every hold at once (device -1): one candidate at a time, as the CLI judges.
Leases& unrationed();

class Judge {
 public:
  explicit Judge(Stages& stages) : stages_(stages) {}

  // `source` empty: a reply without code (no_code). Never throws; every failure, the
  // candidate's or ptxbench's, is in the report.
  JudgeReport judge(const task::TaskSpec& task, const std::optional<std::string>& source,
                    const JudgeOptions& options, Leases& leases = unrationed()) const;

 private:
  void run_stages(const task::TaskSpec& task, const std::string& source, const JudgeOptions& o,
                  Leases& leases, JudgeReport& r) const;
  void run_gpu_stages(const task::TaskSpec& task, const JudgeOptions& o,
                      const std::string& nvcc_release, Leases& leases, JudgeReport& r) const;

  void audit_with_ncu(const task::TaskSpec& task, eval::EvalOptions eo,
                      const audit::AuditOptions& ao, const std::string& why, JudgeReport& r,
                      Result<audit::AuditResult>& audited) const;

  Stages& stages_;
};

}  // namespace ptxbench::judge
