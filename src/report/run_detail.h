// RunDetail: what the report files (HTML, JUnit, CSV; report/html.h, junit.h, csv.h) show
// beyond the summary: per turn the feedback, flags, executed families, tensor-FLOP
// coverage, timing with its clocks and what the turn cost (tokens, stage seconds), and per
// run its provenance. Read from the stored JSON of each turn (docs/store-schema.md); a field
// a run file lacks is empty, never invented.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "eval/eval_result.h"
#include "report/summary.h"
#include "store/store.h"
#include "task/hidden_draw.h"

namespace ptxbench::report {

struct FamilyVerdict {
  std::string name;
  std::string verdict;  // executed | present_not_executed | absent | static (from the census)
  bool target = false;
};

struct TurnDetail {
  int turn = 0;
  judge::Disposition category = judge::Disposition::harness_error;
  bool correct = false;
  std::optional<bool> arch_executed;
  std::optional<double> speedup;  // library median time / candidate median time
  // Half-width of the speedup's 95% interval relative to it (eval/stats.h); none in run files
  // made before it was recorded.
  std::optional<double> speedup_rel_ci95;
  bool gpu_skipped = false;
  std::string source;                   // the candidate's code; "" for a reply without one
  std::optional<bool> compiled;         // the compile stage's outcome; none: it did not run
  std::optional<bool> targets_in_sass;  // the static census met the task's target rule
  eval::FailedOn failed_on = eval::FailedOn::none;  // which workload a failing call was on
  std::optional<task::HiddenKind> failed_kind;      // its drawn kind, when hidden
  bool failed_under_load = false;
  std::string feedback;                 // what the model was told
  std::vector<std::string> flags;       // the turn's flags (timing_unstable, side_stream, ...)
  std::vector<FamilyVerdict> families;  // run-time audit, else the static census
  std::string audit_route;              // cupti | ncu | static | "" (no audit)
  std::optional<double> coverage;       // target tensor FLOPs / task FLOPs (0..1)
  std::optional<double> candidate_ms, library_ms;  // median call times
  std::string library;                             // the library baseline's name
  std::optional<double> tflops, library_tflops;
  std::optional<int> sm_mhz_before, sm_mhz_after, sm_mhz_max;  // SM clock around timing
  std::string throttle;                                        // throttle reasons after timing
  std::optional<double> compile_s, eval_s, audit_s;            // wall seconds of each stage
  std::optional<long long> prompt_tokens, completion_tokens;   // as the endpoint counted
};

struct TrajectoryDetail {
  store::TrajectoryKey key;
  store::TrajectoryStatus status = store::TrajectoryStatus::pending;
  std::string stop_reason;
  std::vector<TurnDetail> turns;
};

// Where and with what a run was made; "" where the run file does not say.
struct Provenance {
  std::string gpu;       // "NVIDIA H200"
  std::string driver;    // "580.159.04"
  std::string commit;    // ptxbench's git commit (12 hex digits), "+dirty" when dirty
  std::string date;      // the run's start, ISO 8601 UTC
  std::string nvcc;      // "release 13.0, V13.0.88"
  std::string ptxbench;  // version
  std::string library;   // cuDNN / cuBLASLt versions as the worker reported them
};

// One setting of a run as `run` recorded it (its config and the pipeline's options), flattened:
// "model.temperature" = "0.7".
struct Setting {
  std::string key, value;
};

struct RunDetail {
  RunData data;  // what summarize() reads
  Summary summary;
  Provenance provenance;
  std::vector<Setting> settings;  // in the order of the run's config, then the pipeline's
  // Whether the run's pipeline had a GPU (provenance "pipeline.gpu"); none in older run files.
  std::optional<bool> gpu;
  std::string label;  // the run file's name, to tell runs of one model apart
  std::vector<TrajectoryDetail> trajectories;  // in the order of data.trajectories
};

// Reads the whole run (nothing is written to the store).
Result<RunDetail> load_detail(const store::RunStore& store);

// One turn's detail from its stored row (also used by tests).
TurnDetail turn_detail(const store::TurnRow& row);

// A run's settings from its config and provenance JSON (also used by tests): every scalar and
// list of scalars, flattened with dots; a URL's user and password are masked.
std::vector<Setting> run_settings(const Json& config, const Json& provenance);

}  // namespace ptxbench::report
