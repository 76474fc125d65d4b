// Planning an evaluation: the GPU-side Problem of a task at one workload, and the plan of a
// judging session (workloads, input sets, the opening checked calls, the timing draws). Pure
// functions of (task, options, seed), so a run can be reproduced from its recorded seed.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eval/session_protocol.h"
#include "task/hidden_draw.h"
#include "task/spec.h"

namespace ptxbench::eval {

// The distributions a family's inputs are drawn from (gpu/rng.h; docs/task-spec.md, "Input
// distributions"): gemm normal(0, 1), wide_range (powers of two from 2^-8 to 2^20 per input) and
// near_cancel (outputs far smaller than their terms);
// attention normal, spiky (outliers) and large_scores (scores that overflow exp() without the
// running maximum). Each session checks every one of them (plan_session).
std::vector<gpu::Distribution> input_distributions(task::Family f);

// The inputs' RMS the element rule is derived with: the largest mean square of
// input_distributions(f) (gpu/rng.h mean_square: gemm 1; attention 1.01424, which its rule does
// not use).
double input_rms(task::Family f);

// Builds the Problem (concrete shapes, tolerance) of `task` at `w`. An Error when the
// task's family/tensors are not something the GPU side can evaluate. The tolerance is the
// rule derived from the problem (task/tolerance.h derive_tolerance at input_rms).
Result<gpu::Problem> make_problem(const task::TaskSpec& task, const task::Workload& w);

// The seed of trial `index` under the run seed `base` (a strong mix: neighbouring runs
// share nothing).
std::uint64_t trial_seed(std::uint64_t base, std::uint64_t index);

// A seed from the operating system's random source (std::random_device): a session's seed when
// none is given, and a run's input seed (EvalOptions::input_seed).
std::uint64_t random_seed();

// The seed of the baseline-only benchmark's inputs (bench/baselines).
inline std::uint64_t timing_seed(std::uint64_t base) {
  return trial_seed(base, 1u << 20);
}

// A judging session's plan (session_protocol.h): the workloads the verifier allocates (the
// timed one first, then the hidden ones the session draws from the task's promise,
// task/hidden_draw.h), and the checked calls that open the session.
//   bases   timed workload: one input set per distribution of input_distributions, normal
//           first (gemm 3, attention 3); each hidden workload: 1, every distribution at least
//           once among them, then random ones, in an order drawn with the session's (or the
//           run's) seed.
//   slots   timed workload: kTimedSlots buffer sets (a timing burst uses each once); hidden: 1.
//   checks  at least `trials` (>= 3) calls with inputs no earlier call had, plus one exact
//           repeat of the first call: timed (base 0, permuted), the repeat, each hidden
//           workload (permuted), timed slot 1 (base 1), timed slot 0 switched to base 1, then
//           slots 1 and 0 on base 2, ... until every timed set was checked twice; last, every
//           hidden workload again with new inputs under another schedule, in a drawn order
//           (sm_load: half the SMs busy, or all but an eighth: each drawn, at least one of the
//           larger share; issue 34 item 4), so a race that passed its first call can fail.
// Every call of the session, these and the timing calls alike, is poisoned and verified; the
// broker cannot tell them apart. The broker makes calls in bursts (session_protocol.h); every
// check is a burst of one, as every timing call is (kTimingBurst): no call pattern tells a check
// from a timed call, and the parent's wall clock around each call is that call's alone.
// Pure function of (task, trials, seed, input_seed). The hidden workloads (their sizes,
// distributions and input sets) are always drawn from `seed`: two sessions of different seeds
// check different sizes, in a run too.
//
// Base input sets: with `input_seed` every base set of the timed workload has a seed that is a
// function of (input_seed, the task's name, its place in the plan) alone, so every session of a
// task planned under one input seed (a run's candidates: EvalOptions::input_seed) times on the
// same base sets, which a warm verifier then keeps with their references (worker/base_cache.h;
// BaseSet::keep). The hidden workloads' sets are always the session's own. Without an input seed
// every base seed comes from `seed`. The transforms, poisons and timing draws always come from
// `seed`.
struct PlannedCall {
  int workload = 0, slot = 0;
  Content content = Content::transformed;
  int base = 0;
  std::uint64_t transform_seed = 0;
  std::uint64_t poison_seed = 0;
  std::string label;  // for people; hidden workloads are never described to a model
  // Made while the broker's load takes `sm_load_share` of the SMs (CallCommand::sm_load):
  // another schedule.
  bool sm_load = false;
  LoadShare sm_load_share = LoadShare::half;
  PrepareCommand prepare() const;
};
// Puts `c` under the load with `share` of the SMs busy, its label saying which share (a label
// that named another share before names this one instead).
void set_load_share(PlannedCall& c, LoadShare share);

// Buffer sets of the timed workload, used in a drawn order.
inline constexpr int kTimedSlots = 4;
// Calls per timing burst (candidate, then as many library runs). 1: the GPU pauses between
// samples. Bursts of 4 back to back made the H200's clocks swing under its power cap (relative
// IQR of 3-5% on attention, timing_unstable; docs/results/2026-12-01-h200-bursts.md), single
// calls converge in about 10 samples at a steady clock.
inline constexpr int kTimingBurst = 1;
// Timing rounds made under the SM load, as checks, 1 in this many (and at least one a timing
// phase): the checks' own loaded calls end with the check phase, so a kernel that tells the
// timing calls apart (their buffer sets, the library's runs between them: red team leak5/
// timing_slot_marker, timing_gap_marker) would otherwise meet no other schedule from then on.
inline constexpr std::uint64_t kLoadedTimingOdds = 6;

struct SessionPlan {
  OpenCommand verifier;             // the verifier's "open"
  std::vector<std::string> labels;  // per workload: "timed workload timed (M=8192 ...)"
  std::vector<bool> hidden;         // per workload
  // Per workload: the hidden kind it was drawn as (task/hidden_draw.h); none for the timed one.
  std::vector<std::optional<task::HiddenKind>> kinds;
  std::vector<PlannedCall> checks;
  // The instruction audit's second workload (audit_trace.h): the one named (the timed one, or a
  // drawn one by its name), else the drawn audit workload (task/hidden_draw.h: small enough to
  // run fast under instrumentation, large enough that tile padding does not distort coverage).
  int audit_workload = 0;
  // Per workload of `verifier`, its FLOPs (task::TaskSpec::flop_count; 0 when unknown): what
  // JudgeSession::pick_audited scales its estimates and orders the smaller hidden workloads by.
  std::vector<double> workload_flops;
  // Per workload, the bytes of the task's inputs (timed_counts.h: TMA's share is against them).
  std::vector<double> workload_input_bytes;
};

Result<SessionPlan> plan_session(const task::TaskSpec& task, int trials, std::uint64_t seed,
                                 const std::string& audit_workload = {},
                                 std::optional<std::uint64_t> input_seed = std::nullopt);

// The content of the timing calls, drawn from a seeded stream, on the timed workload
// (workload 0). A burst: distinct slots in a random order, each with new inputs (Content::fresh:
// drawn by the verifier like a random base's distribution and checked at sampled positions,
// gpu/sample_check.h), except that with probability 1/4 the first call repeats exactly the inputs
// of the previous burst's last call (same slot: a cache of the last call hits), or for certain when
// forced (the timing phase ends with at least kMinRepeats repeats, session_decision.h: the
// check of repeat calls' speed then runs for every timed candidate). A library call (the
// checked one): new inputs in a slot other than the last candidate call's. The poison is
// always new.
class TimingDraw {
 public:
  TimingDraw(const SessionPlan& plan, std::uint64_t seed) : plan_(&plan), seed_(seed) {}
  // `size` calls (at most the slots; 0: every slot). With `force_repeat` the first call
  // repeats the previous call's inputs for certain (the timing phase's closing repeats).
  // With `loaded` every call is made under the broker's load (sm_load), with new inputs (no
  // repeat): a check among the timing calls, not a sample. Its share is `share`, else drawn
  // among the three (plan_load lowers one too costly for the kernel's typical speed): a kernel
  // that tells the timing phase apart meets all but one SM busy there too (red team
  // leak13/timing_slots_eighth_fit.cu).
  std::vector<PlannedCall> next_burst(bool allow_repeat, int size = 0, bool force_repeat = false,
                                      bool loaded = false,
                                      std::optional<LoadShare> share = std::nullopt);
  // Whether the next timing round is loaded: one in kLoadedTimingOdds, drawn.
  bool loaded_round() { return draw() % kLoadedTimingOdds == 0; }
  // A loaded round's share, drawn among the three, or with `all_but_one_too` false among the
  // half and the larger share (the timing phase after its one round with all but one SM busy:
  // that share costs about 130 times the call, one round a session is its price).
  LoadShare draw_share(bool all_but_one_too);
  // The timed workload's buffer sets in a drawn order.
  std::vector<int> drawn_slots();
  // One loaded call on buffer set `slot` under `share`, new inputs: a check, not a sample.
  std::vector<PlannedCall> loaded_on(int slot, LoadShare share);
  PlannedCall next_library();
  // New inputs (Content::fresh) on slot 0 of `workload`: the audit's calls.
  PlannedCall fresh_on(int workload, const std::string& what);
  // The candidate's previous call, made outside this draw (its last checked call): a repeat
  // drawn next repeats its inputs when it was on the timed workload, and the library's call
  // avoids its slot.
  void follow(const PlannedCall& previous) {
    last_slot_ = previous.workload == 0 ? previous.slot : -1;
  }

 private:
  std::uint64_t draw();
  PlannedCall fresh(int slot);
  const SessionPlan* plan_;
  std::uint64_t seed_;
  std::uint64_t counter_ = 0;
  int last_slot_ = -1;
};

}  // namespace ptxbench::eval
