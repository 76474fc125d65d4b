// RunDetail: what the report files (HTML, JUnit, CSV; report/html.h, junit.h, csv.h) show
// beyond the summary: per run its provenance and settings. Per turn they show the stored turn
// (store/stored_turn.h: feedback, flags, executed families, tensor-FLOP coverage, timing with
// its clocks and what the turn cost), as the summary reads it (RunData).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "report/summary.h"
#include "store/store.h"

namespace ptxbench::report {

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
  RunData data;  // what summarize() reads, and every stored turn
  Summary summary;
  Provenance provenance;
  std::vector<Setting> settings;  // in the order of the run's config, then the pipeline's
  // Whether the run's pipeline had a GPU (provenance "pipeline.gpu"); none in older run files.
  std::optional<bool> gpu;
  std::string label;  // the run file's name, to tell runs of one model apart
};

// Reads the whole run (nothing is written to the store).
Result<RunDetail> load_detail(const store::RunStore& store);

// A run's settings from its config and provenance JSON (also used by tests): every scalar and
// list of scalars, flattened with dots; a URL's user and password are masked.
std::vector<Setting> run_settings(const Json& config, const Json& provenance);

}  // namespace ptxbench::report
