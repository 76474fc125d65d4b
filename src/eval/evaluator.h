// Evaluator: the parent side of the GPU evaluation (no CUDA in this process).
//
// For one compiled candidate it runs one judging session (judge_session.h,
// session_protocol.h): a trusted verifier process that owns every buffer, prepares and checks
// every call and times the library; a trusted broker that holds the CUDA context and runs the
// candidate's device code; and the candidate's host process, with no GPU, under the OS sandbox
// (sandbox/sandbox.h); all unprivileged, with cleared environments, resource limits and no
// network. Optionally a second short session with the broker under compute-sanitizer memcheck
// (EvalOptions::memcheck); after a runtime error, that session names the faulting kernel.
//
// Limits, and why no memory limit: RLIMIT_AS cannot be used, because the CUDA driver
// reserves a virtual address range as large as host + device memory (hundreds of GiB
// here) at initialisation and fails with RLIMIT_AS set to anything practical. Device
// memory is bounded by the GPU itself; host memory use of the worker is the dumps it
// writes (bounded by RLIMIT_FSIZE) plus CUDA's own. RLIMIT_CPU, RLIMIT_FSIZE and
// RLIMIT_NOFILE are set, core dumps are off, and the wall-clock limit kills the whole
// process group.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "core/contract.h"
#include "core/paths.h"
#include "core/subprocess.h"
#include "eval/eval_result.h"
#include "eval/library_choices.h"
#include "eval/session_io.h"
#include "eval/session_protocol.h"
#include "eval/verifier_host.h"
#include "task/spec.h"

namespace ptxbench::eval {

struct EvalOptions {
  std::string arch = "sm_90a";
  int trials = 3;                     // correctness trials (>= 3), plus one after timing
  std::optional<std::uint64_t> seed;  // none: drawn from std::random_device; always recorded
  // The seed of every workload's base input sets (plan.h plan_session), recorded with the
  // result. `run`, `rejudge` and `gate` with --shared-inputs draw one for all their candidates:
  // each candidate's calls are still fresh permutations of them with fresh poisons, and the
  // run's warm verifier computes each base set's reference once (worker/base_cache.h). None (the
  // default): the base sets come from `seed`, the session's own. See session_input_seed.
  std::optional<std::uint64_t> input_seed;
  bool memcheck = false;  // also run a trial under compute-sanitizer memcheck
  // After a runtime error, a second session under compute-sanitizer to name the kernel. Off:
  // under the candidate's sandbox the sanitizer did not finish on the H200 (2026-11-30).
  bool locate_faults = false;
  bool timing = true;
  std::chrono::seconds worker_timeout{240};  // candidate worker, wall clock
  std::chrono::seconds check_timeout{300};   // the verifier's "open" (inputs, references)
  std::chrono::seconds memcheck_timeout{300};
  double call_timeout_seconds = 20;  // one candidate call: longer is a hang
  double warmup_seconds = 0.2;       // timing warm-up (at least 3 calls each)
  double sample_budget_seconds = 3;  // timing loop (stats.h StoppingRule::decide_speedup)
  std::size_t min_samples = 10;
  std::size_t max_samples = 2000;
  double target_rel_spread = 0.005;
  std::string nvcc_version;  // recorded in provenance (the compile stage knows it)
  // benchmark_baseline: the distribution of the baseline check's inputs.
  gpu::Distribution baseline_inputs = gpu::Distribution::normal;
  // The GPU (index among those this process may use) every worker of this evaluation sees
  // alone; -1 leaves CUDA_VISIBLE_DEVICES as it is. `ptxbench run --gpus N` sets it per queue.
  int device = -1;
  // The instruction audit's calls in the same session (audit_trace.h): none, cupti (in the
  // broker), or nvtx (the broker under Nsight Compute, which the Evaluator finds as a tool).
  Instrument audit = Instrument::none;
  std::string audit_workload;              // "" = the task's largest hidden workload by FLOPs
  std::vector<std::string> ncu_arguments;  // nvtx: ncu's options (audit::ncu_session_arguments)
  std::chrono::seconds ncu_timeout{300};
  // Judge even where a sandbox mechanism is missing (sandbox/sandbox.h); the result says which.
  bool allow_weaker_sandbox = false;
  // The library baseline's plan (eval/gpu/library_plan.h): its fastest, or its heuristic's
  // first choice for comparing with results made before 2026-12-01.
  gpu::LibraryPlan library_plan = gpu::LibraryPlan::fastest;
  // The run's library plans chosen by timing (library_choices.h), shared by its sessions; null:
  // every session times the plans itself.
  std::shared_ptr<LibraryChoices> library_choices;
  // The run's warm verifier processes, one per GPU (verifier_host.h), shared by its sessions;
  // null: every session starts and quits its own verifier.
  std::shared_ptr<VerifierHost> verifier_host;
  // Milliseconds of the library run back to back in the verifier before every burst of the
  // candidate's calls (session_protocol.h HeatCommand); 0: none.
  double sustained_load_ms = 0;
  // How the host process calls the candidate (the compile stage's CompileResult::contract).
  Contract contract = Contract::native;
  // What the candidate may hold in device memory beside its tensors (BrokerRequest).
  std::uint64_t workspace_quota = kDefaultWorkspaceQuota;
  // Record where the session's wall time went (EvalResult::timeline, timeline.h).
  bool timeline = false;
  // Where the trusted parent appends, for a person, everything the candidate's processes printed,
  // withheld or not (candidate_output.h); empty: nowhere.
  std::filesystem::path candidate_output;
  // Hardware counters around every call of the timed CUPTI session (worker/call_counters.h,
  // timed_counts.h). Off by default: measured on an H100 (2026-12-06), each call's counter range
  // cost about 2 ms of wall time outside its events, which the side_stream check read as work
  // outside the events (the references flagged, their speedups on the wall clock); the no-ops now
  // carry a range too, so the calibration includes that cost, not yet measured on a GPU.
  bool count_timed_calls = false;
};

struct SessionSetup;  // judge_session.h

// The input seed a session uses: o.input_seed, except where the candidate's process has less
// than the whole sandbox (`sandbox_weaker`: a mechanism missing under allow_weaker_sandbox; or
// the ncu audit route, whose runner may use sockets and the network). Base sets that outlive a
// session would give whatever such a process manages to leave behind (a memo of input rows and
// their outputs) a later candidate to find; with its own base sets nothing of it ever matches.
std::optional<std::uint64_t> session_input_seed(const EvalOptions& o, bool sandbox_weaker);

class Evaluator {
 public:
  explicit Evaluator(Paths paths) : paths_(std::move(paths)), launcher_(own_launcher_) {}
  // `launcher` starts the session's worker processes (tests pass a fake).
  Evaluator(Paths paths, WorkerLauncher& launcher)
      : paths_(std::move(paths)), launcher_(launcher) {}

  // Is there an NVIDIA GPU here? (/dev/nvidiactl or /proc/driver/nvidia/gpus/*; PTXBENCH_NO_GPU=1
  // forces "no"; PTXBENCH_ASSUME_GPU=1 forces "yes", for tests with a fake runner.)
  static bool gpu_available();
  // Whether PTXBENCH_ASSUME_GPU=1 made gpu_available() say yes without looking for a GPU.
  static bool gpu_assumed();

  EvalResult evaluate(const task::TaskSpec& task, const std::filesystem::path& shared_object,
                      const EvalOptions& options);

  // Times the task's library baseline alone on the timed workload and checks it against the
  // reference, in a verifier session of its own (library_bench.h; bench/baselines,
  // tests/gpu/library_rule).
  EvalResult benchmark_baseline(const task::TaskSpec& task, const EvalOptions& options);

  // A passing `r` takes the candidate's failure in its memcheck session `memcheck` (the rule of
  // every session under a tool, tool_session.h; message under "under compute-sanitizer memcheck:
  // "). A failure of the judge's side there is the tool's: only the flag memcheck_unavailable.
  static void adopt_memcheck_failure(const EvalResult& memcheck, EvalResult& r);

 private:
  void run_memcheck(const task::TaskSpec& task, const std::filesystem::path& so, EvalResult& r,
                    const EvalOptions& o);
  // The contract's part of a session's setup: for tvm-ffi, the libtvm_ffi.so the runner loads
  // and its folder readable in the sandbox. An Error where apache-tvm-ffi is not installed.
  Status set_contract(const EvalOptions& o, SessionSetup& setup) const;

  Paths paths_;
  ChildWorkerLauncher own_launcher_;
  WorkerLauncher& launcher_;  // the judging session's workers (and the benchmark's verifier)
};

}  // namespace ptxbench::eval
