// A judged candidate as FlashInfer-Trace Trace records (the `traces` of FlashInfer-Bench and of
// the reference PTXBench's `ptxbench.eval.v1`), from the judge's typed record (judge::JudgeReport,
// a run file's turn read back into one).
//
// Statuses: passed and passed_missing_instructions -> PASSED (the numbers were right; whether
// the target instructions executed is in the extension), incorrect -> INCORRECT_NUMERICAL,
// runtime_error -> RUNTIME_ERROR, timeout -> TIMEOUT, compile_error, policy_violation and no_code
// -> COMPILE_ERROR (as the reference reports a banned library); not_evaluated, harness_error and
// task_suite_error judged no kernel and have no status (no trace).
//
// One trace per judged candidate, on its timed workload: the largest errors over all its trials
// (the hidden workloads' too, whose sizes are never shown), and the timing: latency = the
// candidate's median, reference_latency = the library's (cuBLASLt, cuDNN: not a Python
// reference), speedup = library median / candidate median. ptxbench's own findings go where the
// format allows them: `correctness.extra.ptxbench` (disposition, flags, the audit's verdicts,
// rel_l2 and mismatch ratios, trial counts) when the status carries correctness, and a
// `ptxbench: DISPOSITION; flags: ...` line, the message and the compile log in `log` always.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "judge/disposition.h"
#include "judge/report.h"
#include "store/store.h"

namespace ptxbench::interop {

enum class FibStatus { passed, incorrect_numerical, runtime_error, compile_error, timeout };
inline constexpr FibStatus kFibStatuses[] = {FibStatus::passed, FibStatus::incorrect_numerical,
                                             FibStatus::runtime_error, FibStatus::compile_error,
                                             FibStatus::timeout};
std::string_view to_string(FibStatus s);  // "PASSED", "INCORRECT_NUMERICAL", ...

// None: the verdict judged no kernel (not_evaluated, harness_error, task_suite_error).
std::optional<FibStatus> fib_status(judge::Disposition d);

// One judged candidate, as the judge's report or a run file's turn holds it.
struct JudgedCandidate {
  judge::JudgeReport report;   // its disposition, the judge's message and its stages, typed
  Json flags = Json::array();  // by name (a run file's flags_json keeps a newer ptxbench's too)
};

// The judge's report as a judged candidate, its flags typed until written
// (JudgeReport::flags_json).
JudgedCandidate judged_candidate(const judge::JudgeReport& r);
// A run file's turn: its stages read back (store::stored_report); its message is the
// evaluation's (a turn row keeps the judge's only in its feedback). An Error when a stage's part
// is not that stage's JSON.
Result<JudgedCandidate> judged_candidate(const store::TurnRow& turn);

// Where the traces go: the definition and solution they name, when, and the timed workload.
struct TraceLabels {
  std::string definition, solution;
  std::string timestamp;   // ISO 8601
  std::string timed_uuid;  // empty: "ptxbench-timed"
  std::map<std::string, std::int64_t> timed_axes;
  std::vector<std::string> inputs;  // the definition's input names (each {"type": "random"})
};

// The trace (null when fib_status has none).
Json fib_trace(const JudgedCandidate& c, const TraceLabels& labels);

// The hardware and libraries of an evaluation (FlashInfer-Trace's Environment), from its
// provenance (eval::EvalResult::provenance; none: no evaluation): {"hardware": GPU name or
// "unknown", "libs": {its text and whole-number entries, as text}}.
Json fib_environment(const Json& provenance);

}  // namespace ptxbench::interop
