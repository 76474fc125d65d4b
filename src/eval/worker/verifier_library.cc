#include <algorithm>
#include <chrono>

#include "core/elapsed.h"
#include "eval/gpu/baseline.h"
#include "eval/gpu/cuda_check.h"
#include "eval/worker/verifier_session.h"

namespace ptxbench::eval::worker {

Json VerifierSession::SetupTimes::to_json() const {
  return Json{{"references", references},     {"bases_made", bases_made},
              {"bases_reused", bases_reused}, {"library_sets", sets},
              {"library_plans", plans},       {"library_wait", wait},
              {"library_choice", choice}};
}

Reply VerifierSession::baseline(const BaselineCommand& c) {
  Workload& w = at(c.workload);
  Slot& s = slot(w, c.slot);
  if (s.now.base < 0) throw std::runtime_error("baseline on a slot that was never prepared");
  prepare_library(w);
  if (!w.check) w.check = std::make_unique<gpu::TensorSet>(w.problem);
  gpu::TensorSet& t = *w.check;
  for (std::size_t i = 0; i < t.num_inputs(); ++i)
    PTXB_CUDA(cudaMemcpyAsync(t.input(i).get(), s.tensors->input(i).get(), t.input(i).bytes(),
                              cudaMemcpyDeviceToDevice, stream_));
  gpu::poison_outputs(t, stream_, s.poison);
  flush_.flush(stream_);
  double ms = timer_.time_ms(stream_, [&] { w.baseline().run(t, stream_); });
  PTXB_CUDA(cudaGetLastError());
  Reply r = verifier_ok();
  r.event_ms = ms;
  if (c.check) {
    CallCheck check;
    check.outputs = compare_with(w, t, s.poison, s.now);
    r.check = std::move(check);
  }
  const bool reused = &w == &workloads_.front() && library_reused_;
  r.extra = Json{
      {"name", w.baseline().name()},
      {"description", w.baseline().describe() + (reused ? " (built in an earlier session of this "
                                                          "verifier process, not rebuilt)"
                                                        : "")},
      {"plan_index", w.baseline().plan_index()},
      // Timed here, or in an earlier session of this process: the run records the choice.
      {"plan_timed", w.baseline().plan_timed() && (choice_timed_here_ || reused)},
      {"library_reused", reused},
      {"library_best_ms", &w == &workloads_.front() ? w.lib->best_ms : 0.0},
      {"session", tools_.sessions},
      {"setup_ms", setup_.to_json()}};
  return r;
}

Reply VerifierSession::library(const LibraryCommand& c) {
  Workload& w = at(c.workload);
  prepare_library(w);
  const std::size_t n = w.library.size();
  burst_.enqueue(static_cast<std::size_t>(c.count), stream_, flush_, [&](std::size_t i) {
    w.baseline().run(*w.library[(static_cast<std::size_t>(c.slot) + i) % n], stream_);
  });
  PTXB_CUDA(cudaStreamSynchronize(stream_));
  PTXB_CUDA(cudaGetLastError());
  Reply r = verifier_ok();
  r.extra = Json{{"name", w.baseline().name()}, {"description", w.baseline().describe()}};
  set_events(r, burst_.elapsed_ms());
  return r;
}

// The library back to back on its private sets of the timed workload (the one with the
// baseline) for c.ms of wall time, at most two runs in flight, then a wait (HeatCommand).
Reply VerifierSession::heat(const HeatCommand& c) try {
  Workload& w = workloads_.front();
  prepare_library(w);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  std::size_t runs = 0;
  while (elapsed_ms() < c.ms) {
    w.baseline().run(*w.library[runs % w.library.size()], stream_);
    PTXB_CUDA(cudaEventRecord(heat_done_[runs % 2], stream_));
    if (++runs >= 2) PTXB_CUDA(cudaEventSynchronize(heat_done_[runs % 2]));  // the one before
  }
  PTXB_CUDA(cudaStreamSynchronize(stream_));
  PTXB_CUDA(cudaGetLastError());
  Reply r = verifier_ok();
  r.extra = Json{{"runs", runs}, {"ms", elapsed_ms()}};
  return r;
} catch (const gpu::CudaError&) {
  throw;  // the context may be unusable: a harness error
} catch (const std::exception& e) {
  // the session goes on without heat
  return verifier_failure(VerifierStatus::library_failed, e.what(), "heat");
}

// The library's private sets and its plan, made on first use; the timed workload's were made
// in the background (start_library), only their timed choice is made here. A baseline from an
// earlier session of the process (LibraryCache) is used as it is.
void VerifierSession::prepare_library(Workload& w) {
  const bool timed = &w == &workloads_.front();
  auto t0 = std::chrono::steady_clock::now();
  if (timed && library_made_.valid()) {
    library_made_.get();  // rethrows
    setup_.wait = ms_since(t0);
  }
  if (w.library.empty()) make_library_sets(w, stream_);
  if (!w.lib) {
    bool reused = false;
    w.lib = tools_.libraries.find_or_add(w.problem, library_plan_, timed ? library_plan_index_ : -1,
                                         reused);
  }
  if (!w.lib->baseline)
    w.lib->baseline =
        gpu::make_unready_baseline(*w.library.front(), stream_, library_plan_, w.lib->requested);
  t0 = std::chrono::steady_clock::now();
  if (!w.lib->ready) {
    w.lib->baseline->ready(*w.library.front(), stream_);
    if (timed) setup_.choice = ms_since(t0);
    if (timed) choice_timed_here_ = true;
  }
  w.lib->ready = true;
}

// The slow, untimed part of the timed workload's library (its private sets, handles, plans
// built and each candidate plan run once: 0.8-1.7 s on the H200) on a thread and stream of its
// own, while the runner starts and the checked calls run. The timed choice among plans waits
// for prepare_library, when the GPU is not shared with the session's other work. A baseline an
// earlier session of the process built is taken from the cache: only the sets are made.
void VerifierSession::start_library(Workload& w) {
  w.lib =
      tools_.libraries.find_or_add(w.problem, library_plan_, library_plan_index_, library_reused_);
  library_made_ = std::async(std::launch::async, [this, &w] {
    PTXB_CUDA(cudaSetDevice(0));
    cudaStream_t s = nullptr;
    PTXB_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    try {
      auto t0 = std::chrono::steady_clock::now();
      make_library_sets(w, s);
      PTXB_CUDA(cudaStreamSynchronize(s));
      setup_.sets = ms_since(t0);
      t0 = std::chrono::steady_clock::now();
      if (!w.lib->baseline)
        w.lib->baseline =
            gpu::make_unready_baseline(*w.library.front(), s, library_plan_, w.lib->requested);
      PTXB_CUDA(cudaStreamSynchronize(s));
      setup_.plans = ms_since(t0);
    } catch (...) {
      cudaStreamDestroy(s);
      throw;
    }
    PTXB_CUDA(cudaStreamDestroy(s));
  });
}

// One private set per slot, set s a copy of base set s % bases (LibraryCommand says why).
void VerifierSession::make_library_sets(Workload& w, cudaStream_t stream) {
  const std::size_t n = std::max<std::size_t>(1, w.slots.size());
  for (std::size_t s = 0; s < n; ++s) {
    auto set = std::make_unique<gpu::TensorSet>(w.problem);
    gpu::TensorSet& base = *w.bases[s % w.bases.size()]->inputs;
    for (std::size_t i = 0; i < base.num_inputs(); ++i)
      PTXB_CUDA(cudaMemcpyAsync(set->input(i).get(), base.input(i).get(), base.input(i).bytes(),
                                cudaMemcpyDeviceToDevice, stream));
    w.library.push_back(std::move(set));
  }
}

}  // namespace ptxbench::eval::worker
