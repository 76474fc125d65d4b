#include "eval/worker/verifier.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>

#include "core/elapsed.h"
#include "eval/gpu/baseline.h"
#include "eval/gpu/checksum.h"
#include "eval/gpu/compare.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/event_burst.h"
#include "eval/gpu/event_timer.h"
#include "eval/gpu/l2_flush.h"
#include "eval/gpu/nvml.h"
#include "eval/gpu/reference.h"
#include "eval/gpu/transform.h"
#include "eval/worker/base_cache.h"
#include "eval/worker/library_cache.h"
#include "eval/worker/session.h"

namespace ptxbench::eval::worker {
namespace {

Reply failure(VerifierStatus status, const std::string& error, const std::string& phase);

Reply ok_reply(Json extra = Json::object()) {
  Reply r;
  r.ok = true;
  r.status = to_string(VerifierStatus::ok);
  r.extra = std::move(extra);
  return r;
}

// What a slot holds now: a base under a transform, and the poison of the current call.
struct SlotContent {
  int base = -1;
  std::shared_ptr<gpu::DeviceTransform> transform;
};

struct Slot {
  std::unique_ptr<gpu::TensorSet> tensors;
  SlotContent now, before;  // before: the content of the call before this one
  gpu::Poison poison;
  std::vector<std::uint64_t> checksums;
};

struct Workload {
  gpu::Problem problem;
  // The base sets with their references: the session's own, or kept by the process for the run
  // (base_cache.h); never written after they are made.
  std::vector<std::shared_ptr<BaseEntry>> bases;
  std::vector<Slot> slots;
  std::shared_ptr<LibraryEntry> lib;  // the baseline, from the process's LibraryCache
  // The library's own tensors for "library" bursts, one set per slot (set s: a copy of base set
  // s % bases), made on first use, never exported (the candidate cannot touch what the library
  // is timed on).
  std::vector<std::unique_ptr<gpu::TensorSet>> library;
  // The library's checked runs ("baseline"): a private copy of a slot's inputs, made on first
  // use, never exported; the library's output lands here, never in a slot the broker maps.
  std::unique_ptr<gpu::TensorSet> check;
  gpu::Baseline& baseline() const { return *lib->baseline; }
};

// What lives as long as the verifier process: its stream, tools, the library baselines of its
// earlier sessions (library_cache.h) and the base sets the run shares (base_cache.h).
struct VerifierTools {
  VerifierTools() {
    PTXB_CUDA(cudaSetDevice(0));
    PTXB_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    char bus[32] = {};
    PTXB_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    nvml = std::make_unique<gpu::Nvml>(bus);
    flush = std::make_unique<gpu::L2Flush>();
    std::size_t free_bytes = 0, total_bytes = 0;
    PTXB_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    bases = BaseCache(free_bytes / BaseCache::kShareOfDevice);
    for (auto& e : heat_done) PTXB_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }
  cudaStream_t stream = nullptr;
  std::unique_ptr<gpu::Nvml> nvml;
  std::unique_ptr<gpu::L2Flush> flush;
  gpu::DeviceChecksum checksum;
  gpu::EventTimer timer;
  gpu::EventBurst burst;
  cudaEvent_t heat_done[2] = {nullptr, nullptr};  // HeatCommand: two runs in flight at most
  LibraryCache libraries;
  BaseCache bases{0};  // bounded in the constructor, by the GPU's memory
  int sessions = 0;    // opened so far
};

// One session: "open" to "close" (session_protocol.h).
class Verifier {
 public:
  Verifier(VerifierTools& tools, const OpenCommand& req)
      : tools_(tools),
        library_plan_(req.library_plan),
        library_plan_index_(req.library_plan_index),
        stream_(tools.stream),
        nvml_(*tools.nvml),
        flush_(*tools.flush),
        checksum_(tools.checksum),
        timer_(tools.timer),
        burst_(tools.burst),
        heat_done_(tools.heat_done) {
    ++tools_.sessions;
    const auto refs_start = std::chrono::steady_clock::now();
    for (const auto& w : req.workloads) workloads_.push_back(make_workload(w));
    PTXB_CUDA(cudaStreamSynchronize(stream_));
    setup_.references = ms_since(refs_start);
    if (!workloads_.empty()) start_library(workloads_.front());
  }

  // The session's end ("close"): its library build finished (kept for the next session),
  // its GPU work done; the buffers go with the object.
  // `library_ms` > 0: the median time the parent measured for the timed workload's library in
  // this session, kept as that baseline's best when it is faster.
  void close(double library_ms = 0) {
    if (library_made_.valid()) library_made_.wait();
    if (library_ms > 0 && !workloads_.empty() && workloads_.front().lib) {
      double& best = workloads_.front().lib->best_ms;
      if (best <= 0 || library_ms < best) best = library_ms;
    }
    PTXB_CUDA(cudaStreamSynchronize(stream_));
    tools_.libraries.drop_unbuilt();
  }

  // Is the library's background set-up (start_library) still running? A session that ended
  // before its timing phase (an incorrect candidate) never waits for it.
  bool library_pending() const {
    return library_made_.valid() &&
           library_made_.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
  }

  Json ready_extra() {
    Json slots = Json::array();
    for (std::size_t w = 0; w < workloads_.size(); ++w) {
      Json per = Json::array();
      for (auto& s : workloads_[w].slots) {
        SlotHandles h;
        for (std::size_t i = 0; i < s.tensors->num_inputs(); ++i) {
          h.inputs.push_back(handle(s.tensors->input(i)));
          h.input_offsets.push_back(s.tensors->input(i).offset());
        }
        for (std::size_t i = 0; i < s.tensors->num_outputs(); ++i) {
          h.outputs.push_back(handle(s.tensors->output(i)));
          h.output_offsets.push_back(s.tensors->output(i).offset());
        }
        per.push_back(h.to_json());
      }
      slots.push_back(per);
    }
    return Json{{"slots", slots}, {"provenance", gpu_provenance(nvml_)}};
  }

  Reply prepare(const PrepareCommand& c) {
    Workload& w = at(c.workload);
    Slot& s = slot(w, c.slot);
    if (c.content == Content::repeat) {
      if (s.now.base < 0) throw std::runtime_error("repeat of a slot that holds no inputs yet");
      s.before = s.now;
    } else {
      if (c.base < 0 || c.base >= static_cast<int>(w.bases.size()))
        throw std::runtime_error("no base set " + std::to_string(c.base));
      s.before = s.now;
      gpu::Transform t =
          c.transform_seed ? gpu::random_transform(w.problem, c.transform_seed) : gpu::Transform{};
      s.now = {c.base, std::make_shared<gpu::DeviceTransform>(w.problem, t)};
      s.now.transform->apply(*w.bases[static_cast<std::size_t>(c.base)]->inputs, *s.tensors,
                             stream_);
    }
    s.poison = gpu::poison_from_seed(c.poison_seed);
    gpu::poison_outputs(*s.tensors, stream_, s.poison);
    s.checksums = input_checksums(*s.tensors);
    PTXB_CUDA(cudaStreamSynchronize(stream_));
    return ok();
  }

  Reply verify(const VerifyCommand& c) {
    Workload& w = at(c.workload);
    Slot& s = slot(w, c.slot);
    if (s.now.base < 0) throw std::runtime_error("verify of a slot that was never prepared");
    CallCheck check;
    const auto after = input_checksums(*s.tensors);
    for (std::size_t i = 0; i < after.size(); ++i)
      if (after[i] != s.checksums[i]) check.inputs_modified.push_back(w.problem.inputs[i].name);
    check.outputs = compare_with(w, *s.tensors, s.poison, s.now);
    check.all_unwritten = true;
    for (const auto& o : check.outputs)
      check.all_unwritten = check.all_unwritten && o.unwritten == o.numel;
    if (!check.passed() && s.before.base >= 0 && s.before.transform != s.now.transform) {
      bool all = true;
      for (const auto& o : compare_with(w, *s.tensors, s.poison, s.before)) all = all && o.passed;
      check.matches_previous = all;
    }
    Reply r = ok();
    r.check = std::move(check);
    return r;
  }

  Reply baseline(const BaselineCommand& c) {
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
    Reply r = ok();
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

  Reply library(const LibraryCommand& c) {
    Workload& w = at(c.workload);
    prepare_library(w);
    const std::size_t n = w.library.size();
    burst_.enqueue(static_cast<std::size_t>(c.count), stream_, flush_, [&](std::size_t i) {
      w.baseline().run(*w.library[(static_cast<std::size_t>(c.slot) + i) % n], stream_);
    });
    PTXB_CUDA(cudaStreamSynchronize(stream_));
    PTXB_CUDA(cudaGetLastError());
    Reply r = ok();
    r.extra = Json{{"name", w.baseline().name()}, {"description", w.baseline().describe()}};
    set_events(r, burst_.elapsed_ms());
    return r;
  }

  // The library back to back on its private sets of the timed workload (the one with the
  // baseline) for c.ms of wall time, at most two runs in flight, then a wait (HeatCommand).
  Reply heat(const HeatCommand& c) try {
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
    Reply r = ok();
    r.extra = Json{{"runs", runs}, {"ms", elapsed_ms()}};
    return r;
  } catch (const gpu::CudaError&) {
    throw;  // the context may be unusable: a harness error
  } catch (const std::exception& e) {
    // the session goes on without heat
    return failure(VerifierStatus::library_failed, e.what(), "heat");
  }

  // "scrub": the slack around every exported tensor zeroed again (ScrubCommand).
  Reply scrub() {
    for (auto& w : workloads_)
      for (auto& sl : w.slots) {
        for (std::size_t i = 0; i < sl.tensors->num_inputs(); ++i) zero_slack(sl.tensors->input(i));
        for (std::size_t i = 0; i < sl.tensors->num_outputs(); ++i)
          zero_slack(sl.tensors->output(i));
      }
    PTXB_CUDA(cudaStreamSynchronize(stream_));
    return ok();
  }

  Reply clocks() {
    Reply r = ok();
    r.extra = nvml_.sample().to_json();
    return r;
  }

 private:
  static Reply ok() { return ok_reply(); }

  Workload make_workload(const SessionWorkload& spec) {
    Workload w;
    w.problem = spec.problem;
    for (const auto& b : spec.bases) w.bases.push_back(base_set(spec.problem, b));
    for (int i = 0; i < spec.slots; ++i) {
      Slot s;
      // Exported to the runner: whole 2 MiB blocks of their own (DeviceBuffer::exported), zeroed
      // to the last byte, so the mapping shows nothing else of this session or an earlier one.
      s.tensors = std::make_unique<gpu::TensorSet>(spec.problem, true);
      zero_all(*s.tensors);
      w.slots.push_back(std::move(s));
    }
    return w;
  }

  // A base set with its reference: kept from an earlier session of the process when the run
  // shares it (b.keep), else made here (and kept when b.keep).
  std::shared_ptr<BaseEntry> base_set(const gpu::Problem& problem, const BaseSet& b) {
    if (b.keep) {
      if (auto kept = tools_.bases.find(problem, b.seed, b.dist)) {
        ++setup_.bases_reused;
        return kept;
      }
    }
    auto e = std::make_shared<BaseEntry>();
    e->inputs = std::make_unique<gpu::TensorSet>(problem);
    gpu::generate_inputs(*e->inputs, b.seed, b.dist, stream_);
    e->refs = gpu::run_reference(*e->inputs, stream_);
    e->seed = b.seed;
    e->dist = b.dist;
    e->bytes = device_bytes(*e);
    ++setup_.bases_made;
    if (b.keep) tools_.bases.add(problem, b.seed, b.dist, e);
    return e;
  }

  // The library's private sets and its plan, made on first use; the timed workload's were made
  // in the background (start_library), only their timed choice is made here. A baseline from an
  // earlier session of the process (LibraryCache) is used as it is.
  void prepare_library(Workload& w) {
    const bool timed = &w == &workloads_.front();
    auto t0 = std::chrono::steady_clock::now();
    if (timed && library_made_.valid()) {
      library_made_.get();  // rethrows
      setup_.wait = ms_since(t0);
    }
    if (w.library.empty()) make_library_sets(w, stream_);
    if (!w.lib) {
      bool reused = false;
      w.lib = tools_.libraries.find_or_add(w.problem, library_plan_,
                                           timed ? library_plan_index_ : -1, reused);
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
  void start_library(Workload& w) {
    w.lib = tools_.libraries.find_or_add(w.problem, library_plan_, library_plan_index_,
                                         library_reused_);
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
  void make_library_sets(Workload& w, cudaStream_t stream) {
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

  Workload& at(int w) {
    if (w < 0 || w >= static_cast<int>(workloads_.size()))
      throw std::runtime_error("no workload " + std::to_string(w));
    return workloads_[static_cast<std::size_t>(w)];
  }
  static Slot& slot(Workload& w, int s) {
    if (s < 0 || s >= static_cast<int>(w.slots.size()))
      throw std::runtime_error("no slot " + std::to_string(s));
    return w.slots[static_cast<std::size_t>(s)];
  }

  static std::string handle(gpu::DeviceBuffer& b) {
    PTXB_CHECK(b.capacity() % gpu::DeviceBuffer::kIpcGranularity == 0,
               "only DeviceBuffer::exported buffers are shared with the runner");
    cudaIpcMemHandle_t h;
    PTXB_CUDA(cudaIpcGetMemHandle(&h, b.base()));
    return to_hex(&h, sizeof h);
  }

  // The bytes of b's allocation around its tensor: before it, and after it (under 256).
  void zero_slack(gpu::DeviceBuffer& b) {
    char* base = static_cast<char*>(b.base());
    const std::size_t after = b.offset() + b.bytes();
    PTXB_CUDA(cudaMemsetAsync(base, 0, b.offset(), stream_));
    if (after < b.capacity())
      PTXB_CUDA(cudaMemsetAsync(base + after, 0, b.capacity() - after, stream_));
  }

  void zero_all(gpu::TensorSet& t) {
    for (std::size_t i = 0; i < t.num_inputs(); ++i)
      PTXB_CUDA(cudaMemsetAsync(t.input(i).base(), 0, t.input(i).capacity(), stream_));
    for (std::size_t i = 0; i < t.num_outputs(); ++i)
      PTXB_CUDA(cudaMemsetAsync(t.output(i).base(), 0, t.output(i).capacity(), stream_));
  }

  std::vector<std::uint64_t> input_checksums(gpu::TensorSet& t) {
    const int n = static_cast<int>(t.num_inputs());
    PTXB_CHECK(n <= gpu::DeviceChecksum::kSlots, "too many inputs to checksum");
    for (int i = 0; i < n; ++i)
      checksum_.enqueue(t.input(static_cast<std::size_t>(i)).get(),
                        t.input(static_cast<std::size_t>(i)).bytes(), i, stream_);
    std::vector<std::uint64_t> out(static_cast<std::size_t>(n));
    checksum_.read(out.data(), n, stream_);
    return out;
  }

  // The outputs of `t` (poisoned with `poison` before the call) against the reference of the
  // inputs `c` describes.
  std::vector<gpu::CompareStats> compare_with(Workload& w, gpu::TensorSet& t,
                                              const gpu::Poison& poison, const SlotContent& c) {
    std::vector<gpu::CompareStats> out;
    const BaseEntry& base = *w.bases[static_cast<std::size_t>(c.base)];
    gpu::Tolerances rule = w.problem.tolerance;
    rule.atol *= gpu::output_scale(base.seed, base.dist);  // wide_range: the outputs' scale
    for (std::size_t k = 0; k < w.problem.outputs.size(); ++k)
      out.push_back(gpu::compare_output(t.output(k).get(), base.refs[k].as<float>(),
                                        w.problem.outputs[k], rule, stream_, 8, poison,
                                        c.transform->view_of_output(w.problem, k),
                                        gpu::row_scale_of(w.problem, k, base.seed, base.dist)));
    return out;
  }

  // Where the verifier's set-up time went, in ms (issue 14's breakdown; the first baseline reply
  // carries it): the references of every workload (constructor; with how many base sets were
  // made and how many were kept from an earlier session), and the timed workload's
  // library: its private sets and its plans built on the background thread, how long the
  // session then waited for that thread, and the timed choice among plans (ready()).
  struct SetupTimes {
    double references = 0, sets = 0, plans = 0, wait = 0, choice = 0;
    int bases_made = 0, bases_reused = 0;
    Json to_json() const {
      return Json{{"references", references},     {"bases_made", bases_made},
                  {"bases_reused", bases_reused}, {"library_sets", sets},
                  {"library_plans", plans},       {"library_wait", wait},
                  {"library_choice", choice}};
    }
  } setup_;  // sets and plans: written by the background thread before library_made_ is ready
  VerifierTools& tools_;
  gpu::LibraryPlan library_plan_;
  int library_plan_index_ = -1;     // the timed workload's plan chosen earlier in the run
  bool library_reused_ = false;     // the timed workload's baseline came from an earlier session
  bool choice_timed_here_ = false;  // its ready() (the timed choice) ran in this session
  cudaStream_t stream_;
  gpu::Nvml& nvml_;
  gpu::L2Flush& flush_;
  gpu::DeviceChecksum& checksum_;
  gpu::EventTimer& timer_;
  gpu::EventBurst& burst_;
  cudaEvent_t* heat_done_;  // VerifierTools::heat_done
  std::vector<Workload> workloads_;
  // The timed workload's library in the making (start_library); declared last, so that it is
  // waited for before anything it uses is destroyed.
  std::future<void> library_made_;
};

Reply failure(VerifierStatus status, const std::string& error, const std::string& phase) {
  Reply r;
  r.ok = false;
  r.status = to_string(status);
  r.error = error;
  r.phase = phase;
  return r;
}

// One command: its reply, or a harness_error reply for a malformed or failing one.
Reply serve(Verifier& v, const Command& cmd) {
  if (cmd.op == "prepare") {
    auto c = prepare_from_json(cmd.body);
    return c.ok() ? v.prepare(*c)
                  : failure(VerifierStatus::bad_request, c.error().to_string(), "prepare");
  }
  if (cmd.op == "verify") {
    auto c = verify_from_json(cmd.body);
    return c.ok() ? v.verify(*c)
                  : failure(VerifierStatus::bad_request, c.error().to_string(), "verify");
  }
  if (cmd.op == "baseline") {
    auto c = baseline_from_json(cmd.body);
    return c.ok() ? v.baseline(*c)
                  : failure(VerifierStatus::bad_request, c.error().to_string(), "baseline");
  }
  if (cmd.op == "library") {
    auto c = library_from_json(cmd.body);
    return c.ok() ? v.library(*c)
                  : failure(VerifierStatus::bad_request, c.error().to_string(), "library");
  }
  if (cmd.op == "heat") {
    auto c = heat_from_json(cmd.body);
    return c.ok() ? v.heat(*c)
                  : failure(VerifierStatus::bad_request, c.error().to_string(), "heat");
  }
  if (cmd.op == "clocks") return v.clocks();
  if (cmd.op == "scrub") return v.scrub();
  return failure(VerifierStatus::bad_request, "unknown command '" + cmd.op + "'", cmd.op);
}

// "" when a CUDA device can be used here, else CUDA's error (no driver, no device visible): asked
// before anything of a session exists, so it names no workload (VerifierStatus::no_device).
std::string device_unusable() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaSuccess && count == 0) e = cudaErrorNoDevice;
  if (e == cudaSuccess) e = cudaSetDevice(0);
  if (e == cudaSuccess) e = cudaFree(nullptr);  // makes the context
  return e == cudaSuccess ? std::string() : gpu::describe_cuda_error(e);
}

// A verifier that cannot serve: `r` in reply to the first command, read first, so that the
// parent's command is never written to a process that has ended.
int refuse_first_command(CommandChannel& channel, const Reply& r) {
  (void)channel.next_line();
  (void)channel.reply(to_text(r.to_json()));
  return 3;
}

}  // namespace

int run_verifier(const VerifierRequest& req, CommandChannel& channel) {
  (void)req;  // its directory is the process's working directory already
  if (std::string why = device_unusable(); !why.empty())
    return refuse_first_command(channel,
                                failure(VerifierStatus::no_device, why, "opening the GPU"));
  std::unique_ptr<VerifierTools> tools;
  try {
    tools = std::make_unique<VerifierTools>();
  } catch (const std::exception& e) {
    return refuse_first_command(
        channel, failure(VerifierStatus::harness_error, e.what(), "allocating the session"));
  }
  std::unique_ptr<Verifier> v;  // the open session
  // At the end, a library set-up still running on its thread (cuDNN building every plan: over a
  // second for the backward) is abandoned: the process ends at once, the driver frees the rest.
  auto end = [&v](int code) {
    if (v && v->library_pending()) std::_Exit(code);
    return code;
  };
  while (true) {
    auto line = channel.next_line();
    if (!line.ok() || !line->has_value()) return end(line.ok() ? 0 : 3);
    auto cmd = Command::parse(**line);
    if (cmd.ok() && cmd->op == "quit") return end(0);
    Reply r;
    try {
      if (!cmd.ok()) {
        r = failure(VerifierStatus::bad_request, cmd.error().to_string(), "");
      } else if (cmd->op == "open") {
        auto open = OpenCommand::from_json(cmd->body);
        if (v || !open.ok()) {
          r = failure(VerifierStatus::bad_request,
                      v ? "a session is open already" : open.error().to_string(), "open");
        } else {
          v = std::make_unique<Verifier>(*tools, *open);
          r = ok_reply(v->ready_extra());
        }
      } else if (cmd->op == "close") {
        if (v) v->close(cmd->body.value("library_ms", 0.0));
        v.reset();
        tools->bases.trim();  // the session's base sets are no longer held
        r = ok_reply(Json{{"closed", true},
                          {"libraries", tools->libraries.size()},
                          {"kept_bases", tools->bases.size()}});
      } else {
        r = v ? serve(*v, *cmd)
              : failure(VerifierStatus::bad_request, "no session is open", cmd->op);
      }
    } catch (const std::exception& e) {
      r = failure(VerifierStatus::harness_error, e.what(), cmd.ok() ? cmd->op : "");
    }
    if (!channel.reply(to_text(r.to_json())).ok()) return end(3);
    // the context may be unusable
    if (r.status == to_string(VerifierStatus::harness_error)) return end(3);
  }
}

}  // namespace ptxbench::eval::worker
