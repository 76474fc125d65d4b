#include "eval/worker/baseline_timing.h"

#include <chrono>
#include <vector>

#include "eval/gpu/event_timer.h"
#include "eval/gpu/host_clock_check.h"
#include "eval/gpu/l2_flush.h"

namespace ptxbench::eval::worker {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void warm_up(WorkerSession& s, const std::function<void()>& work, double seconds) {
  auto start = Clock::now();
  for (int i = 0; i < 3 || since(start) < seconds; ++i) {
    work();
    s.sync_with_deadline(s.request().call_timeout_seconds);
    if (i > 1000) break;
  }
}

}  // namespace

TimingOutcome interleaved_timing(WorkerSession& s, gpu::TensorSet& t,
                                 const std::function<void()>& candidate, gpu::Baseline* baseline,
                                 const TimingSpec& spec) {
  TimingOutcome out;
  cudaStream_t st = s.stream();
  std::function<void()> base_fn;
  if (baseline) {
    base_fn = [&] { baseline->run(t, st); };
    out.baseline_name = baseline->name();
    out.baseline_description = baseline->describe();
  }
  s.progress("timing: warm-up");
  if (candidate) warm_up(s, candidate, spec.warmup_seconds);
  if (base_fn) warm_up(s, base_fn, spec.warmup_seconds);

  gpu::L2Flush flush;
  gpu::EventTimer timer;
  out.clocks_before = s.nvml().sample().to_json();
  std::vector<double> cand, base;
  auto start = Clock::now();
  s.progress("timing: sampling candidate and baseline, interleaved");
  while (true) {
    if (candidate) {
      flush.flush(st);
      cand.push_back(timer.time_ms(st, candidate));
    }
    if (base_fn) {
      flush.flush(st);
      base.push_back(timer.time_ms(st, base_fn));
    }
    double el = since(start);
    auto rc = candidate ? spec.rule.decide(cand, el) : StoppingRule::Reason::converged;
    auto rb = base_fn ? spec.rule.decide(base, el) : StoppingRule::Reason::converged;
    if (rc != StoppingRule::Reason::keep_going && rb != StoppingRule::Reason::keep_going) {
      out.stop_reason = std::string("candidate: ") + to_string(rc) + ", baseline: " + to_string(rb);
      break;
    }
  }
  out.clocks_after = s.nvml().sample().to_json();
  PTXB_CUDA(cudaDeviceSynchronize());
  PTXB_CUDA(cudaGetLastError());
  out.candidate = summarize(cand);
  out.baseline = summarize(base);
  if (candidate) {
    s.progress("timing: host-clock cross-check of the candidate");
    auto hc = gpu::host_clock_check(st, candidate);
    out.host_check_event_ms = hc.event_ms;
    out.host_check_host_ms = hc.host_ms;
    out.side_stream = hc.side_stream;
  }
  return out;
}

}  // namespace ptxbench::eval::worker
