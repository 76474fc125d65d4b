// The worker protocol: the JSON request ptxbench (the parent, no CUDA) writes for
// ptxbench-worker, and the JSON response the worker writes back. Both travel as files
// in the worker's private temporary directory (stdout stays free for whatever the
// candidate prints). Plain structs with to_json/from_json; malformed JSON is an Error.
//
// Mode: baseline — times the library baseline alone on the timed workload and checks it
// against the reference (bench/baselines, `ptxbench-bench-baselines`). Candidates are judged
// in a judging session instead (session_protocol.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "eval/gpu/compare_stats.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/rng.h"
#include "eval/stats.h"

namespace ptxbench::eval {

struct TrialSpec {
  int index = 0;
  std::string label;  // "timed workload M=8192, seed 17, normal"
  gpu::Problem problem;
  std::uint64_t seed = 0;
  gpu::Distribution dist = gpu::Distribution::normal;
  bool after_timing = false;  // a repeat on the timed workload with new inputs, after timing
};

struct TimingSpec {
  bool enabled = true;
  std::uint64_t seed = 0;       // the inputs both candidate and baseline are timed on
  double warmup_seconds = 0.2;  // and at least 3 calls each
  StoppingRule rule;
};

struct WorkerRequest {
  std::string mode;     // candidate | check | baseline
  std::string library;  // the candidate's .so (candidate mode)
  std::string dir;      // private directory: dumps, progress, response
  std::vector<TrialSpec> trials;
  std::optional<gpu::Problem> timed;  // the timed workload (timing, baseline check)
  TimingSpec timing;
  bool check_baseline = true;
  // The inputs of the baseline's check (check and baseline modes): the library is held to the
  // task's rule on every distribution the trials use (tests/gpu/library_rule).
  gpu::Distribution baseline_dist = gpu::Distribution::normal;
  double call_timeout_seconds = 20;  // one candidate call (then the worker reports a hang)

  Json to_json() const;
  static Result<WorkerRequest> from_json(const Json& j);
};

struct TrialOutcome {
  int index = 0;
  std::string label;
  std::vector<std::string> dumps;          // candidate mode: files of the outputs
  std::vector<gpu::CompareStats> outputs;  // check mode
  double call_ms = 0;                      // candidate mode: host time of the call
  bool passed() const;
};

struct TimingOutcome {
  SampleSummary candidate, baseline;
  std::string stop_reason;
  std::string baseline_name, baseline_description, baseline_error;
  double host_check_event_ms = 0, host_check_host_ms = 0;
  bool side_stream = false;
  Json clocks_before, clocks_after;  // nvml.h ClockSample::to_json
};

struct WorkerResponse {
  std::string mode;
  // ok | load_error | cuda_error | call_timeout | bad_request | harness_error
  std::string status = "ok";
  std::string error;  // what went wrong, with CUDA's error text
  std::string phase;  // what the worker was doing when it went wrong
  std::vector<TrialOutcome> trials;
  std::optional<TimingOutcome> timing;
  std::vector<gpu::CompareStats> baseline_check;
  std::string baseline_check_error;
  Json provenance = Json::object();  // gpu, driver, cuda runtime, sm clocks, ...

  Json to_json() const;
  static Result<WorkerResponse> from_json(const Json& j);
};

// Parses a response file's text: an Error for anything malformed (the parent turns it
// into harness_error).
Result<WorkerResponse> parse_response(const std::string& text);

}  // namespace ptxbench::eval
