// For the cost tests (store/turn_cost_test.cc, report/cost_test.cc): one judged turn's report as
// the judge writes it, whose stored parts (compile_json, eval_json) are what a run file holds.
#pragma once

#include "judge/report.h"

namespace ptxbench::store::testing {

// Built by nvcc in 4.25 CPU-s (none on a compile-cache hit), judged in a 5 s session, its GPU
// held 6.5 s.
inline judge::JudgeReport judged_turn(bool cache_hit = false) {
  judge::JudgeReport r;
  compile::CompileResult c;
  c.cache_hit = cache_hit;
  c.compiler_cpu_seconds = 4.25;
  r.compile = c;
  eval::EvalResult e;
  e.outcome = Outcome::passed;
  e.seconds = 5.0;
  r.eval = e;
  r.gpu_seconds = 6.5;
  return r;
}

}  // namespace ptxbench::store::testing
