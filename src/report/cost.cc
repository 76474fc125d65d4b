#include "report/cost.h"

#include <limits>

namespace ptxbench::report {
namespace {

// Sums of counts that each fit stay in range however many turns a file holds.
long saturating_add(long a, long b) {
  long sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<long>::max() : sum;
}

std::optional<double> per(double v, int n) {
  if (n <= 0) return std::nullopt;
  return v / n;
}

Json cost_opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

}  // namespace

void CostSummary::add(const store::TurnCost& c, bool correct, bool arch_executed) {
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
    Json j{{"tokens", cost_opt(f(tokens))}, {"gpu_seconds", cost_opt(f(c.total.gpu_s))}};
    if (c.usd) j["usd"] = cost_opt(f(*c.usd));
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
