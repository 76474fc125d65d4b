// The reward a trainer gets for one judged candidate: its components (what the judge found,
// as numbers a trainer can shape itself) and one named preset's scalar computed from them.
// Formulas (docs/serve.md, "Rewards"):
//   ptxbench   the PTXBench paper's three metrics in one number:
//              correct * (1 + executed + min(speedup, 4) / 4) / 3, in [0, 1]:
//              1/3 for correct, 1/3 more when every target family executed, up to 1/3 more
//              for speed (4x the library or faster is full marks); 0 when not correct.
//   kernelgym  KernelGYM's 0.5*correct + 0.5*min(speedup, 3) + 0.5*coverage, with ptxbench's
//              tensor-FLOP coverage (the share of the task's FLOPs done by target tensor ops);
//              speedup and coverage count only for a correct kernel. In [0, 2.5].
// A guard flag (cached_result, side_stream, ...) or a disposition other than passed /
// passed_missing_instructions makes every preset 0: no credit for work it did not do.
#pragma once

#include <optional>
#include <string_view>

#include "core/json.h"
#include "run/verdict.h"

namespace ptxbench::serve {

enum class RewardPreset { ptxbench, kernelgym };
inline constexpr RewardPreset kRewardPresets[] = {RewardPreset::ptxbench, RewardPreset::kernelgym};
std::string_view to_string(RewardPreset p);
std::optional<RewardPreset> reward_preset_from_string(std::string_view s);

struct RewardComponents {
  bool compiled = false;
  bool correct = false;            // every checked call, timed and hidden workloads
  std::optional<bool> executed;    // every target family executed; empty: not decidable
  std::optional<double> coverage;  // tensor-FLOP coverage in [0, 1]
  std::optional<double> speedup;   // library time / kernel time
  std::optional<double> speedup_low, speedup_high;  // its interval, when measured
  bool guard_flag = false;                          // a guard flag was raised (flags list them)
  bool evaluated = false;  // the GPU stages ran (false: compile-only machine)
};

RewardComponents reward_components(const run::TurnVerdict& v);
double reward(const RewardComponents& c, RewardPreset preset);
// {"preset", "value", "components": {...}}; absent values are null, and so is `correct` when
// nothing was evaluated (a compile-only machine: not checked, rather than wrong).
Json reward_json(const RewardComponents& c, RewardPreset preset);
// The components back from reward_json's "components" (a stored result), to give a cached
// result the preset its new request asked for.
RewardComponents components_from_json(const Json& components);

}  // namespace ptxbench::serve
