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

std::string gpu_stages_text(const JudgeReport& r, const compile::CompileResult& c) {
  std::string out;
  const Skipped* skipped = r.eval.skipped();
  if (const auto* e = r.eval.done())
    out += e->summary() + "\n";
  else
    out += "evaluation: not run (" + (skipped ? skipped->why : std::string()) + ")\n";
  if (const auto* a = r.audit.done())
    out += audit::format_audit(*a);
  else if (r.gpu_stages_skipped())
    out += compile::format_census(c.census) + "run-time audit not run (" + skipped->why +
           "): the static SASS census above is all there is\n";
  else if (const Failed* f = r.audit.failed())
    out += "instruction audit failed: " + f->error + "\n";
  return out;
}

}  // namespace

std::string verdict_line(const JudgeReport& r) {
  return fmt::format("verdict: {} ({}, exit {}): {}\n", headline(r.disposition),
                     to_string(r.disposition), exit_code(r.disposition), r.message);
}

std::string format_report(const JudgeReport& r) {
  std::string out;
  if (const auto* c = r.compile.done())
    out += c->outcome != Outcome::passed ? compile::format_result(*c)
                                         : compiled_line(*c) + gpu_stages_text(r, *c);
  return out + verdict_line(r);
}

}  // namespace ptxbench::judge
