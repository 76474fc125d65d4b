#include "run/verdict.h"

#include <algorithm>

#include "core/text.h"
#include "eval/flags.h"

namespace ptxbench::run {

bool all_reasoning(std::string_view content, std::string_view reasoning) {
  return trim(content).empty() && !trim(reasoning).empty();
}

bool is_correct(const TurnVerdict& v) {
  return judge::is_correct(v.disposition);
}

std::optional<bool> arch_executed(const TurnVerdict& v) {
  if (!v.audit || !v.audit->ran || !v.audit->runtime) return std::nullopt;
  return v.audit->metric_pass;
}

bool target_reached(const TurnVerdict& v, double speedup_target) {
  if (v.disposition != judge::Disposition::passed || !v.eval) return false;
  // A guard flag (work outside the stream, memory errors) makes the time untrustworthy.
  const auto& flags = v.eval->flags;
  if (std::any_of(flags.begin(), flags.end(), [](eval::Flag f) { return eval::is_guard(f); }))
    return false;
  return v.eval->speedup && *v.eval->speedup >= speedup_target;
}

}  // namespace ptxbench::run
