// baseline mode (bench/baselines, `ptxbench-bench-baselines`): times the library baseline
// alone on the timed workload and checks it against the reference. Never loads a candidate.
#include "eval/gpu/baseline.h"
#include "eval/gpu/compare.h"
#include "eval/gpu/reference.h"
#include "eval/worker/baseline_timing.h"
#include "eval/worker/session.h"

namespace ptxbench::eval::worker {
namespace {

// The rule scaled for the inputs' distribution (gpu/rng.h output_scale, gpu/compare.h RowScale).
std::vector<gpu::CompareStats> compare_all(gpu::TensorSet& t, const gpu::ReferenceOutputs& ref,
                                           std::uint64_t seed, gpu::Distribution dist,
                                           cudaStream_t st) {
  const gpu::Problem& p = t.problem();
  gpu::Tolerances rule = p.tolerance;
  rule.atol *= gpu::output_scale(seed, dist);
  std::vector<gpu::CompareStats> out;
  for (std::size_t k = 0; k < p.outputs.size(); ++k)
    out.push_back(gpu::compare_output(t.output(k).get(), ref.value(k), p.outputs[k], rule, st, 8,
                                      {}, {}, gpu::row_scale_of(p, k, seed, dist), ref.term(k)));
  return out;
}

// Checks the baseline on the timed workload's inputs (seed of the first trial that
// uses it, or the timing seed), drawn from the request's baseline_dist: it writes t's
// outputs, so it runs after the trials.
void check_baseline(WorkerSession& s, const gpu::Problem& p, std::uint64_t seed,
                    WorkerResponse& resp) {
  try {
    s.progress("checking the baseline against the reference");
    gpu::TensorSet& t = s.tensors(p);
    gpu::generate_inputs(t, seed, s.request().baseline_dist, s.stream());
    auto ref = gpu::run_reference(t, s.stream());
    auto baseline = gpu::make_baseline(t, s.stream());
    gpu::poison_outputs(t, s.stream());
    baseline->run(t, s.stream());
    PTXB_CUDA(cudaStreamSynchronize(s.stream()));
    resp.baseline_check = compare_all(t, ref, seed, s.request().baseline_dist, s.stream());
  } catch (const gpu::CudaError&) {
    throw;  // the context may be unusable: report as a failure of the check
  } catch (const std::exception& e) {
    resp.baseline_check_error = e.what();
  }
}

}  // namespace

void run_baseline_mode(WorkerSession& s, WorkerResponse& resp) {
  const WorkerRequest& req = s.request();
  check_baseline(s, *req.timed, req.timing.seed, resp);
  gpu::TensorSet& t = s.tensors(*req.timed);
  gpu::generate_inputs(t, req.timing.seed, gpu::Distribution::normal, s.stream());
  PTXB_CUDA(cudaDeviceSynchronize());
  auto baseline = gpu::make_baseline(t, s.stream());
  resp.timing = interleaved_timing(s, t, {}, baseline.get(), req.timing);
}

}  // namespace ptxbench::eval::worker
