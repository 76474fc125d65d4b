#include "report/cost.h"

#include <limits>

#include "llm/protocol.h"

namespace ptxbench::report {
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

// Sums of counts that each fit stay in range however many turns a file holds.
long saturating_add(long a, long b) {
  long sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<long>::max() : sum;
}

std::optional<double> per(double v, int n) {
  if (n <= 0) return std::nullopt;
  return v / n;
}

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

}  // namespace

TurnCost turn_cost(const Json& llm, const Json& compile, const Json& eval) {
  TurnCost c;
  c.prompt_tokens = tokens(llm, "prompt_tokens");
  c.completion_tokens = tokens(llm, "completion_tokens");
  c.reasoning_tokens = tokens(llm, "reasoning_tokens");
  c.request_s = has_number(llm, "total_s") ? number(llm, "total_s") : number(llm, "latency_s");
  const bool hit = compile.is_object() && compile.value("cache_hit", false);
  if (!hit) c.compile_cpu_s = number(compile, "compiler_cpu_seconds");
  if (has_number(eval, "gpu_seconds"))
    c.gpu_s = number(eval, "gpu_seconds");
  else if (eval.is_object() && eval.value("outcome", std::string()) != "not_run")
    c.gpu_s = number(eval, "seconds");
  return c;
}

void CostSummary::add(const TurnCost& c, bool correct, bool arch_executed) {
  ++turns;
  total.prompt_tokens = saturating_add(total.prompt_tokens, c.prompt_tokens);
  total.completion_tokens = saturating_add(total.completion_tokens, c.completion_tokens);
  total.reasoning_tokens = saturating_add(total.reasoning_tokens, c.reasoning_tokens);
  total.request_s += c.request_s;
  total.compile_cpu_s += c.compile_cpu_s;
  total.gpu_s += c.gpu_s;
  correct_kernels += correct;
  arch_kernels += correct && arch_executed;
}

void CostSummary::price(const Prices& p) {
  if (!p.any()) return;
  usd = p.in.value_or(0) * static_cast<double>(total.prompt_tokens) / 1e6 +
        p.out.value_or(0) * static_cast<double>(total.completion_tokens) / 1e6;
}

long CostSummary::tokens() const {
  return saturating_add(total.prompt_tokens, total.completion_tokens);
}

std::optional<double> CostSummary::per_correct(double v) const {
  return per(v, correct_kernels);
}

std::optional<double> CostSummary::per_arch(double v) const {
  return per(v, arch_kernels);
}

Json to_json(const CostSummary& c) {
  const double tokens = static_cast<double>(c.tokens());
  auto per_kernel = [&](auto&& f) {
    Json j{{"tokens", opt(f(tokens))}, {"gpu_seconds", opt(f(c.total.gpu_s))}};
    if (c.usd) j["usd"] = opt(f(*c.usd));
    return j;
  };
  Json j{{"turns", c.turns},
         {"prompt_tokens", c.total.prompt_tokens},
         {"completion_tokens", c.total.completion_tokens},
         {"reasoning_tokens", c.total.reasoning_tokens},
         {"request_seconds", c.total.request_s},
         {"compile_cpu_seconds", c.total.compile_cpu_s},
         {"gpu_seconds", c.total.gpu_s},
         {"correct_kernels", c.correct_kernels},
         {"correct_with_arch_kernels", c.arch_kernels},
         {"per_correct_kernel", per_kernel([&](double v) { return c.per_correct(v); })},
         {"per_correct_with_arch_kernel", per_kernel([&](double v) { return c.per_arch(v); })}};
  if (c.usd) j["usd"] = *c.usd;
  return j;
}

}  // namespace ptxbench::report
