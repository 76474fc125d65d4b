#include "store/turn_cost.h"

#include "core/outcome.h"
#include "llm/protocol.h"

namespace ptxbench::store {
namespace {

double number(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return 0;
  return j[key].get<double>();
}

bool has_number(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number();
}

// A stored token count by the rule it is received by (llm/protocol.h token_count): a value an
// older ptxbench stored unchecked (-5, 1e30) counts as not reported, 0.
long tokens(const Json& llm, const char* key) {
  if (!llm.is_object()) return 0;
  auto it = llm.find(key);
  return it == llm.end() ? 0 : llm::token_count(*it).value_or(0);
}

}  // namespace

TurnCost turn_cost(const Json& llm, const judge::JudgeReport* report) {
  TurnCost c;
  c.prompt_tokens = tokens(llm, "prompt_tokens");
  c.completion_tokens = tokens(llm, "completion_tokens");
  c.reasoning_tokens = tokens(llm, "reasoning_tokens");
  c.request_s = has_number(llm, "total_s") ? number(llm, "total_s") : number(llm, "latency_s");
  if (!report) return c;
  if (const compile::CompileResult* b = report->compile.done(); b && !b->cache_hit)
    c.compile_cpu_s = b->compiler_cpu_seconds;
  if (report->gpu_seconds > 0)
    c.gpu_s = report->gpu_seconds;
  else if (const eval::EvalResult* e = report->eval.done(); e && e->outcome != Outcome::not_run)
    c.gpu_s = e->seconds;  // stored before gpu_seconds was
  return c;
}

}  // namespace ptxbench::store
