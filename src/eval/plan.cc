#include "eval/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/sha256.h"
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

std::uint64_t random_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) ^ rd();
}

PrepareCommand PlannedCall::prepare() const {
  return PrepareCommand{workload, slot, content, base, transform_seed, poison_seed};
}

namespace {

gpu::Distribution base_dist(const task::TaskSpec& task, std::size_t k) {
  return task.family == task::Family::attention_bwd && k % 2 == 1 ? gpu::Distribution::spiky
                                                                  : gpu::Distribution::normal;
}

// 64 bits of the SHA-256 of `name`: the same on every machine and build.
std::uint64_t name_hash(const std::string& name) {
  return std::stoull(sha256_hex(name).substr(0, 16), nullptr, 16);
}

double flops_of(const task::TaskSpec& task, const task::Workload& w) {
  auto f = task.flop_count(w);
  return f.ok() ? *f : 0;
}

template <class NewBase>
Result<int> pick_audit_workload(const task::TaskSpec& task,
                                const std::vector<const task::Workload*>& order,
                                const std::string& name, NewBase& new_base, SessionPlan& plan) {
  if (name.empty()) {
    int best = 0;
    for (std::size_t i = 1; i < order.size(); ++i)
      if (best == 0 || flops_of(task, *order[i]) > flops_of(task, *order[best]))
        best = static_cast<int>(i);
    return best;
  }
  for (std::size_t i = 0; i < order.size(); ++i)
    if (order[i]->name == name) return static_cast<int>(i);
  for (const auto& w : task.workloads) {
    if (w.name != name) continue;
    SessionWorkload sw;
    PTXB_TRY(sw.problem, make_problem(task, w));
    sw.bases.push_back(new_base(0));
    plan.verifier.workloads.push_back(std::move(sw));
    plan.labels.push_back(fmt::format("{} workload {} ({})", w.role, w.name, describe_axes(w)));
    plan.hidden.push_back(w.role != "timed");
    plan.workload_flops.push_back(flops_of(task, w));
    return static_cast<int>(plan.verifier.workloads.size()) - 1;
  }
  return make_error("task " + task.name + " has no workload named '" + name + "'",
                    "see `ptxbench tasks` for its workloads");
}

}  // namespace

Result<SessionPlan> plan_session(const task::TaskSpec& task, int trials, std::uint64_t seed,
                                 const std::string& audit_workload,
                                 std::optional<std::uint64_t> input_seed) {
  if (trials < 3)
    return make_error("at least 3 checked calls are required, got " + std::to_string(trials));
  SessionPlan plan;
  std::vector<const task::Workload*> order{&task.timed()};
  for (const auto* h : task.hidden()) order.push_back(h);
  std::uint64_t next_seed = 0;
  auto fresh = [&] { return trial_seed(seed, next_seed++) | 1u; };  // never 0 (= identity)
  // A base set: the session's own (from `seed`), or the run's (from input_seed, the task and its
  // place among the plan's base sets: two tasks of one run with the same shapes draw unrelated
  // sets). Either way it takes one draw of `seed`, so the calls' seeds do not depend on
  // input_seed.
  const std::uint64_t task_bases = input_seed ? *input_seed ^ name_hash(task.name) : 0;
  std::uint64_t shared_bases = 0;
  auto new_base = [&](std::size_t dist_index) {
    const std::uint64_t own = fresh();
    BaseSet b{own, base_dist(task, dist_index), false};
    if (input_seed) b = {trial_seed(task_bases, shared_bases++) | 1u, b.dist, true};
    return b;
  };
  std::size_t base_count = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    SessionWorkload w;
    PTXB_TRY(w.problem, make_problem(task, *order[i]));
    const std::size_t bases = i == 0 ? 2 : 1;
    for (std::size_t b = 0; b < bases; ++b) w.bases.push_back(new_base(base_count++));
    w.slots = i == 0 ? kTimedSlots : 1;
    w.baseline = i == 0;
    plan.verifier.workloads.push_back(std::move(w));
    plan.labels.push_back(fmt::format("{} workload {} ({})", order[i]->role, order[i]->name,
                                      describe_axes(*order[i])));
    plan.hidden.push_back(i != 0);
    plan.workload_flops.push_back(flops_of(task, *order[i]));
  }
  auto call = [&](int w, int slot, Content c, int base) {
    PlannedCall p{w, slot, c, base, c == Content::repeat ? 0 : fresh(), fresh(), {}};
    p.label = plan.labels[static_cast<std::size_t>(w)] +
              (c == Content::repeat ? ", the previous call's inputs again"
                                    : fmt::format(", input set {} permuted", base));
    plan.checks.push_back(std::move(p));
  };
  call(0, 0, Content::transformed, 0);
  call(0, 0, Content::repeat, 0);
  int fresh_calls = 1;
  for (std::size_t h = 1; h < order.size(); ++h, ++fresh_calls)
    call(static_cast<int>(h), 0, Content::transformed, 0);
  for (int k = 0; fresh_calls < trials || k < 2; ++k, ++fresh_calls)
    call(0, k % 2 == 0 ? 1 : 0, Content::transformed, 1 - (k / 2) % 2);
  PTXB_TRY(plan.audit_workload, pick_audit_workload(task, order, audit_workload, new_base, plan));
  return plan;
}

std::uint64_t TimingDraw::draw() {
  return gpu::mix64(seed_ ^ gpu::mix64(++counter_ * 0x9E3779B97F4A7C15ull));
}

PlannedCall TimingDraw::fresh(int slot) {
  const SessionWorkload& w = plan_->verifier.workloads.front();
  PlannedCall p;
  p.workload = 0;
  p.slot = slot;
  p.content = Content::transformed;
  p.base = static_cast<int>(draw() % w.bases.size());
  p.transform_seed = draw() | 1u;
  p.poison_seed = draw();
  p.label = plan_->labels.front() + ", timing call";
  return p;
}

PlannedCall TimingDraw::fresh_on(int workload, const std::string& what) {
  const SessionWorkload& w = plan_->verifier.workloads.at(static_cast<std::size_t>(workload));
  PlannedCall p;
  p.workload = workload;
  p.slot = 0;
  p.content = Content::transformed;
  p.base = static_cast<int>(draw() % w.bases.size());
  p.transform_seed = draw() | 1u;
  p.poison_seed = draw();
  p.label = plan_->labels.at(static_cast<std::size_t>(workload)) + ", " + what;
  return p;
}

std::vector<PlannedCall> TimingDraw::next_burst(bool allow_repeat, int size, bool force_repeat) {
  const int slots = plan_->verifier.workloads.front().slots;
  const std::size_t want = static_cast<std::size_t>(size <= 0 || size > slots ? slots : size);
  std::vector<int> order;
  for (int s = 0; s < slots; ++s) order.push_back(s);
  for (std::size_t i = order.size(); i > 1; --i)  // Fisher-Yates
    std::swap(order[i - 1], order[draw() % i]);
  std::vector<PlannedCall> burst;
  if (allow_repeat && last_slot_ >= 0 && (force_repeat || draw() % 4 == 0)) {
    PlannedCall p;
    p.workload = 0;
    p.slot = last_slot_;
    p.content = Content::repeat;
    p.poison_seed = draw();
    p.label = plan_->labels.front() + ", timing call, the previous call's inputs again";
    burst.push_back(std::move(p));
  }
  for (int s : order)
    if (burst.size() < want && (burst.empty() || s != burst.front().slot))
      burst.push_back(fresh(s));
  last_slot_ = burst.back().slot;
  return burst;
}

PlannedCall TimingDraw::next_library() {
  const int slots = plan_->verifier.workloads.front().slots;
  const int slot = last_slot_ >= 0 && slots > 1
                       ? (last_slot_ + 1) % slots
                       : static_cast<int>(draw() % static_cast<std::uint64_t>(slots));
  PlannedCall p = fresh(slot);
  p.label = plan_->labels.front() + ", library call";
  return p;
}

}  // namespace ptxbench::eval
