// TurnVerdict: one judged candidate as the run loop holds it: its source and the judge's report
// (judge::JudgeReport), as the judge left it, with the limits the feedback quotes. The loop stores
// the report's stage parts and its disposition; what the model is told is made from it when the
// feedback is written (model_view.h). The real pipeline (stage_pipeline.h) judges with
// judge::Judge; a remote one (serve/remote_judge.h) reads the report back from the service.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "judge/report.h"

namespace ptxbench::run {

struct TurnVerdict {
  std::optional<std::string> source;  // empty: no code block
  judge::JudgeReport report;          // its disposition is the turn's category
  // The limits the feedback quotes (the judge's options): the compiler's, one call's.
  double compile_timeout_s = 0;
  double call_timeout_s = 0;
};

// Where the loop stands when the feedback is written.
struct TurnContext {
  int turn = 1;
  int max_turns = 8;
  double speedup_target = 1.2;
  std::string arch;
  // The reply's answer was empty and all of it was reasoning (a leading <think> never closed, or
  // the server's reasoning field alone): no_code's feedback says so (campaign 7, P34).
  bool all_reasoning = false;
};

// Whether a reply of `content` (after its reasoning was split off) and `reasoning` is all
// reasoning: no answer at all, some reasoning.
bool all_reasoning(std::string_view content, std::string_view reasoning);

bool is_correct(const TurnVerdict& v);
// The instruction metric: empty when it could not be decided (no run-time audit).
std::optional<bool> arch_executed(const TurnVerdict& v);
// The timed speedup (library time / candidate time); empty when not timed.
std::optional<double> speedup_of(const TurnVerdict& v);
// Passed (correct, target families executed), no guard flag, and speedup >= target:
// the trajectory stops.
bool target_reached(const TurnVerdict& v, double speedup_target);

}  // namespace ptxbench::run
