#include "cli/judging_options.h"

#include "eval/gpu/library_plan.h"

namespace ptxbench::cli {

void add_judging_options(CLI::App& sub, run::JudgingSettings& s) {
  sub.add_option("--trials", s.trials, "correctness trials on fresh inputs (>= 3)")
      ->check(whole_range(3, 100))
      ->capture_default_str();
  sub.add_option("--sample-budget", s.sample_budget_s,
                 "timing: seconds of sampling before stopping short of a +-0.5% 95% interval "
                 "of the speedup")
      ->check(finite_range(0.1, 600.0))
      ->capture_default_str();
  sub.add_option("--call-timeout", s.call_timeout_s,
                 "seconds one kernel call may take before it counts as a hang (the checked calls "
                 "together may take three times this)")
      ->check(finite_range(1.0, 600.0))
      ->capture_default_str();
  sub.add_option("--library-plan", s.library_plan,
                 "the library baseline's plan: fastest (timed here: cuBLASLt's fastest of its "
                 "heuristic's top 8, cuDNN SDPA's fastest of heuristic mode A's plans) or "
                 "heuristic (the library heuristic's first choice, untimed: how ptxbench "
                 "measured before 2026-12-01, for comparing with results made then)")
      ->check(CLI::IsMember(names_of(gpu::kLibraryPlans)))
      ->capture_default_str();
  sub.add_flag("--count-timed-calls", s.count_timed_calls,
               "count every call's wgmma math and TMA loads with the GPU's hardware counters "
               "(CUPTI range profiler; GH100 only): wgmma and TMA earn credit only when every "
               "timed call did its share of the work on them, not only the audited ones "
               "(docs/judging.md, \"The timed calls count themselves\"); adds about 2 ms of "
               "wall time a call");
}

void apply_judging(const run::JudgingSettings& s, eval::EvalOptions& o) {
  o.trials = s.trials;
  o.call_timeout_seconds = s.call_timeout_s;
  o.sample_budget_seconds = s.sample_budget_s;
  o.library_plan = gpu::library_plan_from_string(s.library_plan).value();
  o.count_timed_calls = s.count_timed_calls;
}

}  // namespace ptxbench::cli
