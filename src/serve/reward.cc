#include "serve/reward.h"

#include <algorithm>

#include "judge/disposition.h"

namespace ptxbench::serve {

std::string_view to_string(RewardPreset p) {
  switch (p) {
    case RewardPreset::ptxbench:
      return "ptxbench";
    case RewardPreset::kernelgym:
      return "kernelgym";
  }
  return "ptxbench";
}

std::optional<RewardPreset> reward_preset_from_string(std::string_view s) {
  for (RewardPreset p : kRewardPresets)
    if (to_string(p) == s) return p;
  return std::nullopt;
}

RewardComponents reward_components(const run::TurnVerdict& v) {
  RewardComponents c;
  const judge::JudgeReport& r = v.report;
  const compile::CompileResult* built = r.compile.done();
  c.compiled = built && built->outcome == Outcome::passed;
  c.correct = run::is_correct(v);
  c.executed = run::arch_executed(v);
  const eval::EvalResult* e = r.eval.done();
  c.evaluated = e && e->outcome != Outcome::not_run;
  if (const audit::AuditResult* a = r.audit.done(); a && a->coverage.available)
    c.coverage = a->coverage.ratio;
  if (e) {
    c.speedup = run::speedup_of(v);
    if (c.speedup && e->timing->speedup_rel_ci95) {
      const double half = *e->timing->speedup_rel_ci95 * *c.speedup;
      c.speedup_low = std::max(0.0, *c.speedup - half);
      c.speedup_high = *c.speedup + half;
    }
    c.guard_flag = std::any_of(e->flags.begin(), e->flags.end(),
                               [](eval::Flag f) { return eval::is_guard(f); });
  }
  return c;
}

double reward(const RewardComponents& c, RewardPreset preset) {
  if (!c.correct || c.guard_flag) return 0.0;
  const double speedup = c.speedup.value_or(0.0);
  switch (preset) {
    case RewardPreset::ptxbench:
      return (1.0 + (c.executed.value_or(false) ? 1.0 : 0.0) + std::min(speedup, 4.0) / 4.0) / 3.0;
    case RewardPreset::kernelgym:
      return 0.5 + 0.5 * std::min(speedup, 3.0) + 0.5 * c.coverage.value_or(0.0);
  }
  return 0.0;
}

Json reward_json(const RewardComponents& c, RewardPreset preset) {
  auto opt = [](const auto& o) { return o ? Json(*o) : Json(nullptr); };
  return Json{{"preset", std::string(to_string(preset))},
              {"value", reward(c, preset)},
              {"components",
               {{"compiled", c.compiled},
                {"correct", c.evaluated ? Json(c.correct) : Json(nullptr)},
                {"executed", opt(c.executed)},
                {"coverage", opt(c.coverage)},
                {"speedup", opt(c.speedup)},
                {"speedup_low", opt(c.speedup_low)},
                {"speedup_high", opt(c.speedup_high)},
                {"guard_flag", c.guard_flag},
                {"evaluated", c.evaluated}}}};
}

RewardComponents components_from_json(const Json& j) {
  RewardComponents c;
  if (!j.is_object()) return c;
  auto flag = [&](const char* k) { return j.contains(k) && j[k].is_boolean() && j[k].get<bool>(); };
  auto number = [&](const char* k) {
    return j.contains(k) && j[k].is_number() ? std::optional<double>(j[k].get<double>())
                                             : std::nullopt;
  };
  c.compiled = flag("compiled");
  c.correct = flag("correct");
  if (j.contains("executed") && j["executed"].is_boolean()) c.executed = j["executed"].get<bool>();
  c.coverage = number("coverage");
  c.speedup = number("speedup");
  c.speedup_low = number("speedup_low");
  c.speedup_high = number("speedup_high");
  c.guard_flag = flag("guard_flag");
  c.evaluated = flag("evaluated");
  return c;
}

}  // namespace ptxbench::serve
