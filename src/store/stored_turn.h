// StoredTurn: one judged turn as a run file holds it, read once by the store and shared by
// every reader of run files: the summary and the report files (src/report), the SFT export
// and teacher mining (src/sft). Read from the turn's row, its stages' stored JSON
// (compile_json, eval_json, audit_json, llm_json: docs/store-schema.md) and the messages
// around it. A field a run file lacks is empty, never invented (older run files recorded
// less); a run file's rows were checked when it was opened (damage.h), so reading never fails.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/audit_result.h"
#include "core/result.h"
#include "eval/eval_result.h"
#include "judge/disposition.h"
#include "judge/report.h"
#include "store/store.h"
#include "store/turn_cost.h"
#include "task/hidden_draw.h"

namespace ptxbench::store {

// One instruction family's verdict for a turn: the run-time audit's, or (no audit ran) the
// static census's.
struct FamilyVerdict {
  std::string name;
  // The audit's verdict (audit::to_string names it); none: the static census found the family
  // in the SASS, which says nothing of its execution (reports print "static").
  std::optional<audit::Verdict> verdict;
  bool target = false;
};

// What the worker said of the machine it judged on (eval_json's "provenance").
struct JudgedOn {
  std::string gpu;                     // "NVIDIA H200"; "" when not recorded
  std::string driver;                  // "580.159.04"
  std::optional<int> cudnn, cublaslt;  // library versions as the worker reported them
};

struct StoredTurn {
  int turn = 0;  // 1-based
  // The verdict (the row's category) and the facts stored beside it.
  judge::Disposition category = judge::Disposition::harness_error;
  bool correct = false;
  std::optional<bool> arch_executed;
  std::optional<double> speedup;  // library median time / candidate median time
  // Half-width of the speedup's 95% interval relative to it (eval/stats.h); none in run files
  // made before it was recorded.
  std::optional<double> speedup_rel_ci95;
  bool gpu_skipped = false;        // no GPU here: eval/audit recorded as skipped
  std::vector<std::string> flags;  // the turn's flags by name (timing_unstable, side_stream, ...)

  std::string source;  // the candidate's code; "" for a reply without one

  // The compile stage: its outcome (none: it did not run) and its static SASS census.
  std::optional<bool> compiled;               // the stored compile outcome is passed
  std::optional<bool> targets_in_sass;        // the census met the task's target rule
  std::vector<std::string> families_in_sass;  // target families the census found in the SASS

  // The evaluation: which workload a failing call was on, timing with its clocks, stage seconds.
  eval::FailedOn failed_on = eval::FailedOn::none;
  std::optional<task::HiddenKind> failed_kind;  // its drawn kind, when hidden
  bool failed_under_load = false;
  std::optional<double> candidate_ms, library_ms;  // median call times
  std::string library;                             // the library baseline's name
  std::optional<double> tflops, library_tflops;
  std::optional<int> sm_mhz_before, sm_mhz_after, sm_mhz_max;  // SM clock around timing
  std::string throttle;                                        // throttle reasons after timing
  std::optional<JudgedOn> judged_on;  // none: the evaluation recorded no provenance

  // The audit: per family, the run-time audit's verdict, else the static census's.
  std::vector<FamilyVerdict> families;
  std::string audit_route;         // cupti | ncu | static | "" (no audit)
  std::optional<double> coverage;  // target tensor FLOPs / task FLOPs (0..1)

  std::optional<double> compile_s, eval_s, audit_s;           // wall seconds of each stage
  std::optional<long long> prompt_tokens, completion_tokens;  // as the endpoint counted
  TurnCost cost;                                              // what the turn spent

  // The conversation around it.
  std::string feedback;   // the feedback of this verdict (the row's; a rejudged run's new one)
  std::string assistant;  // the assistant message this turn evaluates ("" when not stored)
  std::string reasoning;  // its reasoning content, when the server returned it
  // The user message that answered it, as the model was shown it (a rejudged run keeps the
  // original); the row's feedback when the file holds no such message.
  std::string shown_feedback;
};

// One turn from its row alone (no messages: assistant and reasoning empty, shown_feedback the
// row's feedback). Also used by tests.
StoredTurn read_turn(const TurnRow& row);

// The turn's stages typed again (judge::JudgeReport::from_stages on its compile, eval and audit
// parts) with its category as the disposition; task and arch as the evaluation recorded them
// (empty when none ran), no message (a run file keeps the feedback, not the judge's message). An
// Error when a part is not its stage's JSON: a run file's rows were checked as JSON when it was
// opened (damage.h), not as stage results.
Result<judge::JudgeReport> stored_report(const TurnRow& row);

// A trajectory's stored turns, ascending, each joined to the assistant message it evaluates
// and the user message that answered it. The store's errors (RunStore::turns, messages).
Result<std::vector<StoredTurn>> stored_turns(const RunStore& store, std::int64_t trajectory_id);

}  // namespace ptxbench::store
