#include "eval/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/sha256.h"
#include "eval/gpu/rng.h"
#include "task/hidden_draw.h"
#include "task/tolerance.h"

namespace ptxbench::eval {
namespace {

std::string load_label(LoadShare share) {
  return std::string(", ") + share_words(share) + " SMs busy (another schedule)";
}

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
  if (f == task::Family::gemm)
    return {gpu::Distribution::normal, gpu::Distribution::wide_range,
            gpu::Distribution::near_cancel};
  return {gpu::Distribution::normal, gpu::Distribution::spiky, gpu::Distribution::large_scores};
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
  p.tolerance = {rule.atol,        rule.rtol,           rule.matched_ratio, rule.max_rel_l2,
                 rule.term_factor, rule.max_scale_bias, rule.log_atol,      rule.log_rtol};
  gpu::mark_log_outputs(p);  // the forward's LSE (task/tolerance.h kLogAtol)
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

// The distributions of a session's base input sets. The timed workload: normal first (the
// timing calls' usual inputs), then every other distribution of the family, in a drawn order;
// the hidden workloads (`hidden` sets): every distribution once where there are enough, then
// random ones, in a drawn order. So each distribution meets the timed shape and, across
// sessions, every kind of hidden workload.
struct BaseDists {
  std::vector<gpu::Distribution> timed, hidden;
};
BaseDists base_dists(task::Family f, std::size_t hidden, std::uint64_t timed_seed,
                     std::uint64_t hidden_seed) {
  const std::vector<gpu::Distribution> all = input_distributions(f);
  std::uint64_t counter = 0, seed = timed_seed;
  auto draw = [&] { return trial_seed(seed, counter++); };
  auto shuffle = [&](auto first, auto last) {
    for (auto n = last - first; n > 1; --n) std::swap(first[n - 1], first[draw() % n]);
  };
  BaseDists d;
  d.timed = all;  // input_distributions lists normal first
  shuffle(d.timed.begin() + 1, d.timed.end());
  seed = hidden_seed;
  d.hidden = all;
  while (d.hidden.size() < hidden) d.hidden.push_back(all[draw() % all.size()]);
  shuffle(d.hidden.begin(), d.hidden.end());
  d.hidden.resize(hidden);
  return d;
}

// The index of the hidden workloads' draw among the trial seeds of a seed (far from the
// calls' own indices).
constexpr std::uint64_t kHiddenDrawIndex = std::uint64_t{1} << 40;

// 64 bits of the SHA-256 of `name`: the same on every machine and build.
std::uint64_t name_hash(const std::string& name) {
  return std::stoull(sha256_hex(name).substr(0, 16), nullptr, 16);
}

double flops_of(const task::TaskSpec& task, const task::Workload& w) {
  auto f = task.flop_count(w);
  return f.ok() ? *f : 0;
}

double input_bytes_of(const task::TaskSpec& task, const task::Workload& w) {
  double bytes = 0;
  for (const auto& t : task.inputs) {
    double n = task::dtype_bytes(t.dtype);
    for (std::int64_t d : task.shape_of(t, w)) n *= static_cast<double>(d);
    bytes += n;
  }
  return bytes;
}

// The audit's second workload: the one named (the timed one or a drawn one by its name), else
// the drawn audit workload.
Result<int> pick_audit_workload(const task::TaskSpec& task,
                                const std::vector<task::HiddenWorkload>& drawn,
                                const std::string& name) {
  for (std::size_t i = 0; i < drawn.size(); ++i)
    if (name.empty() ? drawn[i].kind == task::HiddenKind::audit : drawn[i].workload.name == name)
      return static_cast<int>(i) + 1;
  if (name.empty() || name == task.timed().name) return 0;
  std::string names = task.timed().name;
  for (const auto& d : drawn) names += ", " + d.workload.name;
  return make_error("task " + task.name + " has no workload named '" + name + "'",
                    "name one of " + names + " (the hidden ones are drawn per session)");
}

}  // namespace

void set_load_share(PlannedCall& c, LoadShare share) {
  if (c.sm_load) {
    const std::string was = load_label(c.sm_load_share);
    if (c.label.size() >= was.size() && c.label.ends_with(was))
      c.label.erase(c.label.size() - was.size());
  }
  c.sm_load = true;
  c.sm_load_share = share;
  c.label += load_label(share);
}

Result<SessionPlan> plan_session(const task::TaskSpec& task, int trials, std::uint64_t seed,
                                 const std::string& audit_workload,
                                 std::optional<std::uint64_t> input_seed) {
  if (trials < 3)
    return make_error("at least 3 checked calls are required, got " + std::to_string(trials));
  SessionPlan plan;
  // The hidden workloads and their distributions: drawn from the task's promise with the
  // session's own seed, always (a run's sessions too): whatever a candidate learns of one
  // session's sizes, by any channel, the next session checks others. The timed workload's
  // distributions follow the run's input seed when there is one, so its base sets are the run's
  // (worker/base_cache.h).
  const std::uint64_t draw_seed = trial_seed(seed, kHiddenDrawIndex);
  const std::vector<task::HiddenWorkload> drawn = task::draw_hidden_workloads(task, draw_seed);
  // The run's seed for this task (the input seed and the task's name), else the session's.
  const std::uint64_t run_seed = input_seed ? *input_seed ^ name_hash(task.name) : seed;
  const BaseDists dists =
      base_dists(task.family, drawn.size(), trial_seed(run_seed, kHiddenDrawIndex + 1),
                 trial_seed(draw_seed, 1));
  const int timed_bases = static_cast<int>(dists.timed.size());
  std::vector<const task::Workload*> order{&task.timed()};
  for (const auto& h : drawn) order.push_back(&h.workload);
  std::uint64_t next_seed = 0;
  auto fresh = [&] { return trial_seed(seed, next_seed++) | 1u; };  // never 0 (= identity)
  // A base set: the session's own (from `seed`), or the run's (from input_seed, the task and its
  // place among the plan's base sets: two tasks of one run with the same shapes draw unrelated
  // sets). Either way it takes one draw of `seed`, so the calls' seeds do not depend on
  // input_seed.
  std::uint64_t shared_bases = 0;
  auto new_base = [&](gpu::Distribution dist, bool timed) {
    const std::uint64_t own = fresh();
    BaseSet b{own, dist, false};
    if (input_seed && timed) b = {trial_seed(run_seed, shared_bases++) | 1u, b.dist, true};
    return b;
  };
  for (std::size_t i = 0; i < order.size(); ++i) {
    SessionWorkload w;
    PTXB_TRY(w.problem, make_problem(task, *order[i]));
    if (i == 0)
      for (gpu::Distribution d : dists.timed) w.bases.push_back(new_base(d, true));
    else
      w.bases.push_back(new_base(dists.hidden[i - 1], false));
    w.slots = i == 0 ? kTimedSlots : 1;
    w.baseline = i == 0;
    plan.verifier.workloads.push_back(std::move(w));
    plan.labels.push_back(fmt::format("{} workload {} ({})", task::to_string(order[i]->role),
                                      order[i]->name, describe_axes(*order[i])));
    plan.hidden.push_back(i != 0);
    plan.kinds.push_back(i == 0 ? std::nullopt : std::optional(drawn[i - 1].kind));
    plan.workload_flops.push_back(flops_of(task, *order[i]));
    plan.workload_input_bytes.push_back(input_bytes_of(task, *order[i]));
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
  // The timed workload's other sets: each at least once, every set switching buffer sets.
  for (int k = 0; fresh_calls < trials || k < 2 * (timed_bases - 1); ++k, ++fresh_calls)
    call(0, k % 2 == 0 ? 1 : 0, Content::transformed, k < 2 ? 1 : (k / 2 + 1) % timed_bases);
  // Another schedule. One timed-workload check, new inputs, half the SMs busy, at a place
  // the seed draws among the timed workload's checks after the first two, in a buffer set drawn
  // like theirs (0 or 1): a kernel cannot tell it from the checks beside it by its shape, its
  // place or its buffers (leak3/schedule_check_predicted.cu: a lone loaded call, always last and
  // the only repeated hidden M, was predictable; leak4/sched_check_slot0.cu: always slot 0).
  const std::size_t first_timed = 2 + drawn.size();  // after the repeat and the hidden calls
  if (plan.checks.size() > first_timed) {
    // fresh() is odd (never the identity), so its lowest bit draws nothing: the bits above it do.
    const int slot = static_cast<int>((fresh() >> 1) % 2);
    call(0, slot, Content::transformed, static_cast<int>((fresh() >> 1) % timed_bases));
    PlannedCall loaded = std::move(plan.checks.back());
    plan.checks.pop_back();
    loaded.sm_load = true;
    const std::size_t at = first_timed + (fresh() >> 1) % (plan.checks.size() - first_timed + 1);
    plan.checks.insert(plan.checks.begin() + static_cast<std::ptrdiff_t>(at), std::move(loaded));
  }
  // And every hidden workload again, new inputs, under the load, in a drawn order: a kernel
  // that takes an unsafe path only for one class of the promise meets the load there too (red
  // team leak11/small_m_splitk_unloaded.cu: only the ragged one was re-checked).
  std::vector<int> again;
  for (std::size_t h = 0; h < drawn.size(); ++h) again.push_back(static_cast<int>(h) + 1);
  for (std::size_t i = again.size(); i > 1; --i)  // Fisher-Yates
    std::swap(again[i - 1], again[(fresh() >> 1) % i]);
  for (int w : again) {
    call(w, 0, Content::transformed, 0);
    plan.checks.back().sm_load = true;
  }
  // Each loaded check's share of the SMs, drawn, and at least one of all but an eighth: a grid
  // that needs more than half the GPU resident at once fails under the half, one that needs more
  // than an eighth under the larger share (leak8/zero_smem_coresident.cu fitted on the half).
  std::vector<PlannedCall*> loaded;
  for (auto& c : plan.checks)
    if (c.sm_load) loaded.push_back(&c);
  bool most = false;
  for (PlannedCall* c : loaded) {
    c->sm_load_share = (fresh() >> 1) % 2 ? LoadShare::most : LoadShare::half;
    most = most || c->sm_load_share == LoadShare::most;
  }
  if (!loaded.empty() && !most)
    loaded[(fresh() >> 1) % loaded.size()]->sm_load_share = LoadShare::most;
  // All but one SM busy is given later, by the session, to loaded checks fast enough for it
  // (all_but_one_checks, session_decision.h): their unloaded calls decide.
  for (PlannedCall* c : loaded) set_load_share(*c, c->sm_load_share);
  PTXB_TRY(plan.audit_workload, pick_audit_workload(task, drawn, audit_workload));
  return plan;
}

std::uint64_t TimingDraw::draw() {
  return gpu::mix64(seed_ ^ gpu::mix64(++counter_ * 0x9E3779B97F4A7C15ull));
}

PlannedCall TimingDraw::fresh(int slot) {
  PlannedCall p = fresh_on(0, "timing call");
  p.slot = slot;
  return p;
}

PlannedCall TimingDraw::fresh_on(int workload, const std::string& what) {
  const SessionWorkload& w = plan_->verifier.workloads.at(static_cast<std::size_t>(workload));
  PlannedCall p;
  p.workload = workload;
  p.slot = 0;
  // Inputs nobody saw before, drawn by the verifier in the distribution of base `base` and
  // checked at sampled positions (gpu/sample_check.h).
  p.content = Content::fresh;
  p.base = static_cast<int>(draw() % w.bases.size());
  p.poison_seed = draw();
  p.label = plan_->labels.at(static_cast<std::size_t>(workload)) + ", " + what + ", new inputs";
  return p;
}

std::vector<PlannedCall> TimingDraw::next_burst(bool allow_repeat, int size, bool force_repeat,
                                                bool loaded, std::optional<LoadShare> share) {
  const int slots = plan_->verifier.workloads.front().slots;
  const std::size_t want = static_cast<std::size_t>(size <= 0 || size > slots ? slots : size);
  const std::vector<int> order = drawn_slots();
  std::vector<PlannedCall> burst;
  if (!loaded && allow_repeat && last_slot_ >= 0 && (force_repeat || draw() % 4 == 0)) {
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
  if (loaded) {
    const LoadShare drawn = share ? *share : draw_share(true);
    for (auto& c : burst) set_load_share(c, drawn);
  }
  last_slot_ = burst.back().slot;
  return burst;
}

std::vector<int> TimingDraw::drawn_slots() {
  std::vector<int> order;
  for (int s = 0; s < plan_->verifier.workloads.front().slots; ++s) order.push_back(s);
  for (std::size_t i = order.size(); i > 1; --i)  // Fisher-Yates
    std::swap(order[i - 1], order[draw() % i]);
  return order;
}

std::vector<PlannedCall> TimingDraw::loaded_on(int slot, LoadShare share) {
  PlannedCall p = fresh(slot);
  set_load_share(p, share);
  last_slot_ = slot;
  return {std::move(p)};
}

LoadShare TimingDraw::draw_share(bool all_but_one_too) {
  constexpr LoadShare kShares[] = {LoadShare::half, LoadShare::most, LoadShare::all_but_one};
  return kShares[draw() % (all_but_one_too ? 3 : 2)];
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
