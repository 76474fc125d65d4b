// The feedback the model sees after each turn: a category (stored) and a text that
// carries the facts that matter for the next attempt. Pure functions of a
// TurnVerdict, so every category has a golden test (testdata/feedback/).
#pragma once

#include <string>
#include <string_view>

#include "session/verdict.h"

namespace ptxbench::session {

struct Feedback {
  Category category = Category::harness_error;
  std::string text;
};

Feedback build_feedback(const TurnVerdict& v, const TurnContext& ctx);

// The compiler log cut to what helps: error lines (with the source line and caret
// nvcc prints under them), temporary directories stripped from file names, at most
// `max_errors` errors; "(N more errors not shown)" when cut.
std::string trim_compiler_log(std::string_view log, int max_errors = 12);

}  // namespace ptxbench::session
