// The feedback the model sees after each turn: a text headed by the turn's disposition
// (judge::headline) that carries the facts that matter for the next attempt. A pure
// function of the turn's ModelView (model_view.h), so every disposition has a golden test
// (testdata/feedback/).
#pragma once

#include <string>
#include <string_view>

#include "run/model_view.h"
#include "run/verdict.h"

namespace ptxbench::run {

std::string build_feedback(const TurnVerdict& v, const TurnContext& ctx);
std::string build_feedback(const ModelView& v, const TurnContext& ctx);

// The compiler log cut to what helps: error lines (with the source line and caret
// nvcc prints under them), temporary directories stripped from file names, at most
// `max_errors` errors; "(N more errors not shown)" when cut.
std::string trim_compiler_log(std::string_view log, int max_errors = 12);

}  // namespace ptxbench::run
