#include "judge/format.h"

#include <fmt/format.h>

#include "audit/format.h"
#include "compile/format.h"

namespace ptxbench::judge {
namespace {

std::string compiled_line(const compile::CompileResult& c) {
  return fmt::format("compile: {}{}, {}\n", to_string(c.outcome), c.cache_hit ? " (cached)" : "",
                     c.shared_object);
}

std::string gpu_stages_text(const JudgeReport& r) {
  std::string out;
  if (r.eval)
    out += r.eval->summary() + "\n";
  else
    out += "evaluation: not run (" + r.eval_skipped + ")\n";
  if (r.audit)
    out += audit::format_audit(*r.audit);
  else if (r.gpu_stages_skipped)
    out += compile::format_census(r.compile->census) + "run-time audit not run (" + r.eval_skipped +
           "): the static SASS census above is all there is\n";
  else if (!r.audit_error.empty())
    out += "instruction audit failed: " + r.audit_error + "\n";
  return out;
}

}  // namespace

std::string verdict_line(const JudgeReport& r) {
  return fmt::format("verdict: {} ({}, exit {}): {}\n", headline(r.disposition),
                     to_string(r.disposition), exit_code(r.disposition), r.message);
}

std::string format_report(const JudgeReport& r) {
  std::string out;
  if (r.compile && r.compile->outcome != Outcome::passed)
    out += compile::format_result(*r.compile);
  else if (r.compile)
    out += compiled_line(*r.compile) + gpu_stages_text(r);
  return out + verdict_line(r);
}

}  // namespace ptxbench::judge
