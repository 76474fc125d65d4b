// RunConfig: everything that decides what a run does. Stored whole in the run file
// (runs.config_json) so `--resume` continues with exactly the same settings.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/contract.h"
#include "core/json.h"
#include "core/result.h"

namespace ptxbench::run {

struct ModelConfig {
  std::string id;  // empty: the embedded scripted agent
  std::string base_url;
  std::string api_key_env;  // the variable's NAME; the key itself is never stored
  double temperature = 0.7;
  double top_p = 1.0;
  int max_tokens = 16384;
  double request_timeout_s = 600;
  int attempts = 3;        // tries per request (llm::EndpointConfig::max_attempts)
  double retry_max_s = 8;  // time a request may spend on attempts and waits before giving up
  bool stream = false;     // ask for the reply as an event stream (llm::EndpointConfig::stream)
  double stall_timeout_s = 60;  // once a reply has started, this long without a byte ends it
};

// Upper bounds of the count options (issue 38): what no real run needs, and what would make a
// run write a huge plan or start thousands of threads before its first turn.
inline constexpr int kMaxSamples = 1000;
inline constexpr int kMaxConcurrency = 256;  // --concurrency, --cpu-jobs
inline constexpr int kMaxGpus = 64;
inline constexpr std::size_t kMaxPlan = 20000;  // trajectories in one run file
inline constexpr int kMaxTurns = 64;
inline constexpr int kMaxAttempts = 100;                 // tries per request
inline constexpr int kMaxCompletionTokens = 10'000'000;  // --max-tokens
inline constexpr double kMaxSeconds = 1e6;  // --request-timeout, --stall-timeout, --retry-max-s

// How each candidate of a run is judged, where the run sets it (cli/judging_options.h: --trials,
// --call-timeout, --sample-budget, --library-plan; the defaults are eval's). Stored in the run
// only when they differ from the defaults, so runs made before these options existed keep their
// settings hash; --resume and rejudge judge with the stored ones.
struct JudgingSettings {
  int trials = 3;                        // correctness trials on fresh inputs, 3..100
  double call_timeout_s = 20;            // seconds one kernel call may take, 1..600
  double sample_budget_s = 3;            // timing: seconds of sampling, 0.1..600
  std::string library_plan = "fastest";  // fastest | heuristic (gpu/library_plan.h)
  // Hardware counters on every call (eval::EvalOptions::count_timed_calls): wgmma and TMA credit
  // only when the timed calls did the work too. Stored only when on (older hashes unchanged).
  bool count_timed_calls = false;
  bool operator==(const JudgingSettings&) const = default;
  bool is_default() const { return *this == JudgingSettings{}; }
  Json to_json() const;
  // Absent keys keep their defaults; a present key of the wrong type or range is an error.
  static Result<JudgingSettings> from_json(const Json& j);
};

struct RunConfig {
  ModelConfig model;
  std::string scripted_version = "v1";  // trajectories/<version>/ when model.id is empty
  std::string task_selector = "core";   // as given: "core", "extended", "all" or names
  std::vector<std::string> tasks;       // resolved names, sorted
  std::vector<std::string> archs = {"sm_90a"};
  int turns = 8;
  int samples = 1;
  std::string context = "full";
  double speedup_target = 1.2;
  int concurrency = 4;                        // trajectories (and so LLM requests) in flight
  int cpu_jobs = 2;                           // compiles at a time
  int gpus = 1;                               // evaluation queues, one per GPU
  std::vector<int> turn_budgets = {1, 4, 8};  // T for the summary
  std::vector<double> fast_p = {0.5, 0.8, 1.0, 1.2};  // fast_p thresholds for the summary
  // The kernel contract: the prompts present the fixed one (auto: native) and every reply is
  // built in it (auto: the contract each reply is written in, detected from its source).
  ContractChoice contract;
  JudgingSettings judging;

  bool scripted() const { return model.id.empty(); }
  std::string model_label() const;  // what trajectories.model holds
  Status validate() const;
  Json to_json() const;
  static Result<RunConfig> from_json(const Json& j);
};

// The settings that decide what a run's trajectories are, as JSON: to_json() without those
// that only say how one machine runs them (concurrency, cpu_jobs, gpus), which the shards
// of one run may set each to fit their machine.
Json result_settings(const RunConfig& c);
// sha256 (hex) of result_settings(c): runs with the same hash may be merged.
std::string config_hash(const RunConfig& c);
// The result_settings keys whose values differ between `a` and `b`, sorted ("model.id",
// "turns", ...).
std::vector<std::string> config_differences(const RunConfig& a, const RunConfig& b);

}  // namespace ptxbench::run
