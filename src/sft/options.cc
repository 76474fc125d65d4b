#include "sft/options.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"
#include "eval/flags.h"
#include "judge/disposition.h"

namespace ptxbench::sft {

std::vector<std::string> default_failing_categories() {
  using judge::Disposition;
  std::vector<std::string> out;
  for (Disposition d : {Disposition::compile_error, Disposition::runtime_error,
                        Disposition::timeout, Disposition::incorrect,
                        Disposition::passed_missing_instructions, Disposition::policy_violation})
    out.emplace_back(judge::to_string(d));
  return out;
}

const std::vector<std::string>& known_failing_categories() {
  static const std::vector<std::string> kAll = [] {
    std::vector<std::string> out;
    for (judge::Disposition d : judge::all_dispositions())
      if (judge::is_failure(d)) out.emplace_back(judge::to_string(d));
    return out;
  }();
  return kAll;
}

std::string_view to_string(Mode m) {
  return m == Mode::fixit ? "fixit" : "kernelgen";
}
std::string_view to_string(Pairing p) {
  return p == Pairing::one ? "one" : "all";
}

Status Options::validate() const {
  const auto& known = known_failing_categories();
  for (const auto& c : categories)
    if (std::find(known.begin(), known.end(), c) == known.end())
      return make_error("unknown failing category '" + c + "'",
                        "--categories takes a comma-separated list of: " + join(known, ", "));
  if (mode == Mode::fixit && categories.empty())
    return make_error("--categories is empty", "name at least one failing category");
  if (!(min_speedup >= 0) || !std::isfinite(min_speedup))
    return make_error("--min-speedup must be a number >= 0");
  if (!(bytes_per_token > 0) || !std::isfinite(bytes_per_token))
    return make_error("--bytes-per-token must be a number > 0");
  if (per_task_cap < 0) return make_error("--per-task-cap must be >= 0 (0: no cap)");
  // A guard flag's name (eval/flags.h): a typo would allow nothing (campaign 7, X42).
  for (const auto& f : allowed_flags)
    if (!eval::flag_from_string(f) || !eval::is_guard(*eval::flag_from_string(f))) {
      std::vector<std::string> guards;
      for (eval::Flag g : eval::all_flags())
        if (eval::is_guard(g)) guards.emplace_back(eval::to_string(g));
      return make_error("--allow-flag: '" + f + "' is not a guard flag",
                        "use one of " + join(guards, ", "));
    }
  return {};
}

Json Options::to_json() const {
  return Json{{"mode", to_string(mode)},
              {"failing_categories", categories},
              {"require_target_instructions", require_arch},
              {"allowed_guard_flags", allowed_flags},
              {"min_speedup", min_speedup},
              {"max_tokens", max_tokens},
              {"token_estimator",
               {{"bytes_per_token", bytes_per_token},
                {"overhead_per_message", kMessageOverheadTokens},
                {"formula", "sum over messages of ceil(utf8_bytes / bytes_per_token) + overhead"}}},
              {"per_task_cap", per_task_cap},
              {"balance",
               "stratified by (failing category, turn) per task, round-robin over strata, "
               "before pairing; order within a stratum by sha256(seed:key)"},
              {"seed", seed},
              {"pairing", to_string(pairing)},
              {"dedup",
               "sha256 of the normalised wrong kernel + normalised repaired kernel (kernelgen: "
               "the kernel); normalised = comments and whitespace removed"},
              {"heldout_tasks", heldout_tasks},
              {"include_reasoning", include_reasoning}};
}

}  // namespace ptxbench::sft
