// The judge's I/O seam: the three stages it runs for one candidate. ToolStages runs the
// real Compiler, Evaluator (the judging session, audited calls included) and Auditor;
// tests give the judge fakes. Every method must be safe to call from several threads at
// once (the run loop judges several candidates concurrently).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "audit/auditor.h"
#include "compile/compiler.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "eval/evaluator.h"
#include "task/spec.h"

namespace ptxbench::judge {

struct Compiled {
  compile::CompileResult result;
  std::string nvcc_release;  // nvcc's release line, recorded in the evaluation's provenance
};

class Stages {
 public:
  virtual ~Stages() = default;
  // An Error only when ptxbench cannot compile at all (compile::Compiler::compile).
  virtual Result<Compiled> compile(const task::TaskSpec& task, std::string_view source,
                                   const compile::CompileOptions& options) = 0;
  // Never an Error: a failure is the result's outcome (eval::Evaluator::evaluate).
  virtual eval::EvalResult evaluate(const task::TaskSpec& task,
                                    const std::filesystem::path& shared_object,
                                    const eval::EvalOptions& options) = 0;
  // What the session's audited calls collected, joined to the disassembly; trace nullptr: the
  // static census, saying `why_static`. An Error only when the audit cannot say anything
  // (audit::Auditor::audit).
  virtual Result<audit::AuditResult> audit(const std::filesystem::path& shared_object,
                                           const task::TaskSpec& task, std::string_view arch,
                                           const eval::AuditTrace* trace,
                                           const audit::AuditOptions& options,
                                           const std::string& why_static = {}) = 0;
};

// The real stages; a fresh Compiler, Evaluator or Auditor per call.
class ToolStages final : public Stages {
 public:
  ToolStages(Paths paths, ProcessRunner& runner) : paths_(std::move(paths)), runner_(runner) {}
  Result<Compiled> compile(const task::TaskSpec& task, std::string_view source,
                           const compile::CompileOptions& options) override;
  eval::EvalResult evaluate(const task::TaskSpec& task, const std::filesystem::path& shared_object,
                            const eval::EvalOptions& options) override;
  Result<audit::AuditResult> audit(const std::filesystem::path& shared_object,
                                   const task::TaskSpec& task, std::string_view arch,
                                   const eval::AuditTrace* trace,
                                   const audit::AuditOptions& options,
                                   const std::string& why_static = {}) override;

 private:
  Paths paths_;
  ProcessRunner& runner_;
};

}  // namespace ptxbench::judge
