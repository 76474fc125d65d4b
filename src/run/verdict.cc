#include "run/verdict.h"

#include "core/text.h"
#include "run/model_view.h"

namespace ptxbench::run {

bool all_reasoning(std::string_view content, std::string_view reasoning) {
  return trim(content).empty() && !trim(reasoning).empty();
}

bool is_correct(const TurnVerdict& v) {
  return judge::is_correct(v.report.disposition);
}

std::optional<bool> arch_executed(const TurnVerdict& v) {
  return arch_executed(model_view(v));
}

std::optional<double> speedup_of(const TurnVerdict& v) {
  const eval::EvalResult* e = v.report.eval.done();
  if (!e || !e->timing) return std::nullopt;
  return e->timing->speedup;
}

bool target_reached(const TurnVerdict& v, double speedup_target) {
  return target_reached(model_view(v), speedup_target);
}

}  // namespace ptxbench::run
