#include "eval/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "eval/gpu/rng.h"
#include "task/tolerance.h"

namespace ptxbench::eval {
namespace {

Result<gpu::Kind> kind_of(task::Family f) {
  switch (f) {
    case task::Family::gemm:
      return gpu::Kind::gemm;
    case task::Family::attention_fwd:
      return gpu::Kind::attention_fwd;
    case task::Family::attention_bwd:
      return gpu::Kind::attention_bwd;
  }
  return make_error("unknown task family");
}

Result<gpu::ElemType> elem_of(task::DType d) {
  if (d == task::DType::bf16) return gpu::ElemType::bf16;
  if (d == task::DType::fp32) return gpu::ElemType::fp32;
  return make_error("the GPU evaluator supports bf16 and fp32 tensors only");
}

Result<std::vector<gpu::TensorDesc>> tensors(const task::TaskSpec& task, const task::Workload& w,
                                             const std::vector<task::TensorSpec>& specs) {
  std::vector<gpu::TensorDesc> out;
  for (const auto& t : specs) {
    PTXB_TRY(auto type, elem_of(t.dtype));
    if (t.layout != "row_major")
      return make_error("tensor " + t.name + ": only row_major layouts are supported");
    out.push_back({t.name, task.shape_of(t, w), type});
  }
  return out;
}

std::string describe_axes(const task::Workload& w) {
  std::string s;
  for (const auto& [k, v] : w.axes) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

}  // namespace

std::vector<gpu::Distribution> input_distributions(task::Family f) {
  if (f == task::Family::attention_bwd)
    return {gpu::Distribution::normal, gpu::Distribution::spiky};
  return {gpu::Distribution::normal};
}

double input_rms(task::Family f) {
  double ms = 0;
  for (gpu::Distribution d : input_distributions(f)) ms = std::max(ms, gpu::mean_square(d));
  return std::sqrt(ms);
}

Result<gpu::Problem> make_problem(const task::TaskSpec& task, const task::Workload& w) {
  gpu::Problem p;
  PTXB_TRY(p.kind, kind_of(task.family));
  p.causal = task.causal;
  p.workload = w.name;
  p.axes = w.axes;
  PTXB_TRY(p.inputs, tensors(task, w, task.inputs));
  PTXB_TRY(p.outputs, tensors(task, w, task.outputs));
  const task::Tolerance rule = task::derive_tolerance(task, w, input_rms(task.family));
  p.tolerance = {rule.atol, rule.rtol, rule.matched_ratio, rule.max_rel_l2};
  auto st = p.validate();
  if (!st.ok())
    return make_error("task " + task.name + ", workload " + w.name + ": " + st.error().message);
  return p;
}

std::uint64_t trial_seed(std::uint64_t base, std::uint64_t index) {
  return gpu::mix64(gpu::mix64(base) ^ (index * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull));
}

Result<std::vector<TrialSpec>> plan_trials(const task::TaskSpec& task, int trials,
                                           std::uint64_t seed) {
  if (trials < 3)
    return make_error("at least 3 trials are required, got " + std::to_string(trials));
  std::vector<const task::Workload*> order{&task.timed()};
  for (const auto* h : task.hidden()) order.push_back(h);
  const auto dists = input_distributions(task.family);
  const int checked = std::max(trials, static_cast<int>(order.size()));  // every workload
  std::vector<TrialSpec> out;
  for (int i = 0; i <= checked; ++i) {
    bool after = i == checked;
    const task::Workload& w =
        after ? task.timed() : *order[static_cast<std::size_t>(i) % order.size()];
    TrialSpec t;
    t.index = i;
    PTXB_TRY(t.problem, make_problem(task, w));
    t.seed = trial_seed(seed, static_cast<std::uint64_t>(i));
    t.dist = dists[static_cast<std::size_t>(i) % dists.size()];
    t.after_timing = after;
    t.label = fmt::format("{} workload {} ({}), {} inputs{}", w.role, w.name, describe_axes(w),
                          t.dist == gpu::Distribution::spiky ? "spiky" : "normal",
                          after ? ", repeated after timing with new inputs" : "");
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ptxbench::eval
