#include "judge/stages.h"

namespace ptxbench::judge {

Result<Compiled> ToolStages::compile(const task::TaskSpec& task, std::string_view source,
                                     const compile::CompileOptions& options) {
  compile::Compiler compiler(paths_, runner_);
  PTXB_TRY(compile::CompileResult r, compiler.compile(task, source, options));
  Compiled out{std::move(r), {}};
  if (auto v = compiler.toolkit_version(); v.ok())  // memoised by compile() above
    out.nvcc_release = compile::nvcc_release_line(*v);
  return out;
}

eval::EvalResult ToolStages::evaluate(const task::TaskSpec& task,
                                      const std::filesystem::path& shared_object,
                                      const eval::EvalOptions& options) {
  eval::Evaluator evaluator(paths_);
  return evaluator.evaluate(task, shared_object, options);
}

Result<audit::AuditResult> ToolStages::audit(const std::filesystem::path& shared_object,
                                             const task::TaskSpec& task, std::string_view arch,
                                             const eval::AuditTrace* trace,
                                             const audit::AuditOptions& options,
                                             const std::string& why_static) {
  audit::Auditor auditor(paths_, runner_);
  return auditor.audit(shared_object, task, arch, trace, options, why_static);
}

}  // namespace ptxbench::judge
