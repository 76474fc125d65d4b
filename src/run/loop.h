// The multi-turn loop. run_trajectory() drives one (model, task, arch, sample) from
// whatever the store already holds: it rebuilds the history from the stored messages,
// so a resumed trajectory continues at the first turn that was not committed (a
// half-done turn left nothing behind and is redone; a committed one is never repeated).
// run_all() runs every trajectory of a run on `concurrency` threads.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "llm/chat.h"
#include "run/config.h"
#include "run/pipeline.h"
#include "run/progress.h"
#include "run/slots.h"
#include "store/store.h"
#include "task/spec.h"

namespace ptxbench::run {

struct PromptMessages {
  std::string system;
  std::string user;
};

// The first two messages of a trajectory (prompt/ builds them in the CLI).
using PromptFn = std::function<Result<PromptMessages>(
    const task::TaskSpec&, const std::string& arch, const std::string& context)>;
// The candidate source in a reply, or nullopt (llm/extract.h in the CLI).
using ExtractFn = std::function<std::optional<std::string>(const std::string& reply)>;

// One chat client per trajectory (the scripted agent needs the task and arch; a real
// endpoint client is shared and must be thread-safe).
class ClientFactory {
 public:
  virtual ~ClientFactory() = default;
  virtual Result<std::shared_ptr<llm::ChatClient>> client_for(const store::TrajectoryKey& key) = 0;
};

// One thread-safe client shared by every trajectory (a model endpoint).
class SharedClientFactory final : public ClientFactory {
 public:
  explicit SharedClientFactory(std::shared_ptr<llm::ChatClient> c) : client_(std::move(c)) {}
  Result<std::shared_ptr<llm::ChatClient>> client_for(const store::TrajectoryKey&) override {
    return client_;
  }

 private:
  std::shared_ptr<llm::ChatClient> client_;
};

struct LoopDeps {
  store::RunStore& store;
  CandidatePipeline& pipeline;
  ClientFactory& clients;
  PromptFn prompt;
  ExtractFn extract;
  ProgressSink* progress = nullptr;  // may be null
};

// sha256 of the source with CRLF -> LF, trailing spaces and trailing blank lines removed.
std::string source_hash(const std::string& source);

// The stored turn of a judged candidate (`source` empty: no code): its category, stage
// results, correctness, speedup and flags from the verdict; `llm` is the caller's.
store::TurnRow turn_row(int turn, const std::optional<std::string>& source, const TurnVerdict& v,
                        const std::string& feedback, bool reached);

// How run_trajectory ended: stored done or failed, or interrupted (SIGINT/SIGTERM: the
// trajectory is left stored as it was, running, for --resume).
enum class TrajectoryEnd { done, failed, interrupted };

struct TrajectoryOutcome {
  TrajectoryEnd status = TrajectoryEnd::failed;
  std::string stop_reason;
  int turns = 0;  // stored turns at the end
};

Result<TrajectoryOutcome> run_trajectory(const store::TrajectoryRow& row,
                                         const task::TaskSpec& task, const RunConfig& config,
                                         StageSlots& slots, LoopDeps& deps);

// The trajectories a configuration asks for: model x tasks x archs x samples, leaving
// out (task, arch) pairs the task does not support and, with `available`, pairs it
// does not list (the scripted agent's files). Sorted.
std::vector<store::TrajectoryKey> plan_trajectories(
    const RunConfig& config, const std::vector<task::TaskSpec>& tasks,
    const std::function<bool(const std::string& task, const std::string& arch)>& available = {});

struct RunTotals {
  int trajectories = 0;
  int skipped_done = 0;  // already done before this invocation (resume)
  int done = 0;
  int failed = 0;
  int interrupted = 0;              // stopped by SIGINT/SIGTERM before they ended; resumable
  std::vector<std::string> errors;  // store or setup errors, one per failed trajectory
};

// Adds the planned trajectories to the store (idempotent), then runs every one that is
// not done. Marks the run done when every trajectory has ended, done or failed (a run is
// left running only when interrupted).
Result<RunTotals> run_all(const RunConfig& config, const std::vector<store::TrajectoryKey>& plan,
                          const std::vector<task::TaskSpec>& tasks, LoopDeps& deps);

}  // namespace ptxbench::run
