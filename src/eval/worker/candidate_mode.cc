// candidate mode: load the .so, run the trials on fresh inputs, dump the outputs,
// time candidate vs baseline, then the after-timing trials. Never computes expected
// outputs (the reference forward that makes the backward's O/LSE INPUTS is not an
// expected output).
#include <chrono>

#include "eval/gpu/baseline.h"
#include "eval/gpu/candidate.h"
#include "eval/worker/driver_lookup_guard.h"
#include "eval/worker/session.h"
#include "eval/worker/timing_loop.h"

namespace ptxbench::eval::worker {
namespace {

TrialOutcome run_trial(WorkerSession& s, const gpu::CandidateLibrary& lib, const TrialSpec& trial) {
  gpu::TensorSet& t = s.tensors(trial.problem);
  s.progress("trial " + std::to_string(trial.index) + " (" + trial.label + "): generating inputs");
  gpu::generate_inputs(t, trial.seed, trial.dist, s.stream());
  gpu::poison_outputs(t, s.stream());
  PTXB_CUDA(cudaDeviceSynchronize());
  s.progress("trial " + std::to_string(trial.index) + " (" + trial.label +
             "): running the candidate");
  auto start = std::chrono::steady_clock::now();
  lib.launch(t.arguments(), s.stream());
  s.sync_with_deadline(s.request().call_timeout_seconds);
  TrialOutcome o;
  o.index = trial.index;
  o.label = trial.label;
  o.call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  s.progress("trial " + std::to_string(trial.index) + ": saving outputs");
  o.dumps = s.dump_outputs(t, "trial" + std::to_string(trial.index));
  return o;
}

}  // namespace

void run_candidate_mode(WorkerSession& s, WorkerResponse& resp) {
  const WorkerRequest& req = s.request();
  s.progress("loading the candidate");
  arm_driver_lookup_guard();  // before any candidate code runs (its load-time initialisers)
  auto lib = gpu::CandidateLibrary::open(req.library);
  if (!lib.ok()) {
    resp.status = "load_error";
    resp.error = lib.error().to_string();
    return;
  }
  for (const auto& trial : req.trials)
    if (!trial.after_timing) resp.trials.push_back(run_trial(s, *lib, trial));

  if (req.timing.enabled) {
    gpu::TensorSet& t = s.tensors(*req.timed);
    s.progress("timing: generating inputs");
    gpu::generate_inputs(t, req.timing.seed, gpu::Distribution::normal, s.stream());
    PTXB_CUDA(cudaDeviceSynchronize());
    std::unique_ptr<gpu::Baseline> baseline;
    std::string baseline_error;
    try {
      s.progress("timing: building the baseline");
      baseline = gpu::make_baseline(t, s.stream());
    } catch (const std::exception& e) {
      baseline_error = e.what();
    }
    auto args = t.arguments();
    auto candidate = [&] { lib->launch(args, s.stream()); };
    resp.timing = interleaved_timing(s, t, candidate, baseline.get(), req.timing);
    resp.timing->baseline_error = baseline_error;
  }
  for (const auto& trial : req.trials)
    if (trial.after_timing) resp.trials.push_back(run_trial(s, *lib, trial));
}

}  // namespace ptxbench::eval::worker
