// For tests: JudgeReports at a stage, as the judge leaves them before decide() (decide_test.cc,
// format_test.cc).
#pragma once

#include <string>

#include "judge/report.h"

namespace ptxbench::judge::testing {

// A candidate with code whose compile stage ended with `outcome` (its log `log`).
inline JudgeReport compiled(Outcome outcome = Outcome::passed, std::string log = "") {
  JudgeReport r;
  r.has_code = true;
  compile::CompileResult c;
  c.outcome = outcome;
  c.log = std::move(log);
  r.compile = std::move(c);
  return r;
}

// A compiled candidate whose evaluation ended with `outcome` and `message`.
inline JudgeReport evaluated(Outcome outcome, std::string message = "") {
  JudgeReport r = compiled();
  eval::EvalResult e;
  e.outcome = outcome;
  e.message = std::move(message);
  r.eval = std::move(e);
  return r;
}

}  // namespace ptxbench::judge::testing
