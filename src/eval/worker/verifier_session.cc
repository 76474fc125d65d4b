#include "eval/worker/verifier_session.h"

#include <chrono>
#include <stdexcept>

#include "core/elapsed.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/reference.h"
#include "eval/gpu/sample_check.h"
#include "eval/worker/provenance.h"
#include "eval/worker/shared_inputs.h"

namespace ptxbench::eval::worker {

VerifierSession::VerifierSession(VerifierTools& tools, const OpenCommand& req)
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
void VerifierSession::close(double library_ms) {
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
bool VerifierSession::library_pending() const {
  return library_made_.valid() &&
         library_made_.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

Json VerifierSession::ready_extra() {
  Json slots = Json::array();
  std::vector<OwnedFd> exported;  // every slot's inputs, in order, for the descriptor socket
  for (std::size_t w = 0; w < workloads_.size(); ++w) {
    Json per = Json::array();
    for (auto& s : workloads_[w].slots) {
      SlotHandles h;
      for (std::size_t i = 0; i < s.tensors->num_inputs(); ++i) {
        exported.push_back(export_input(s.tensors->input(i)));
        h.input_capacities.push_back(s.tensors->input(i).capacity());
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
  std::vector<int> fds;
  for (const auto& d : exported) fds.push_back(d.get());
  if (auto st = send_descriptors(kDescriptorFd, fds); !st.ok())
    throw std::runtime_error("the inputs' descriptors: " + st.error().message);
  return Json{{"slots", slots}, {"provenance", gpu_provenance(nvml_)}};
}

Reply VerifierSession::prepare(const PrepareCommand& c) {
  Workload& w = at(c.workload);
  Slot& s = slot(w, c.slot);
  // Nothing between two calls may write a slot's inputs but the verifier.
  std::vector<std::uint64_t> found;
  if (s.now.base >= 0) {
    found = input_checksums(*s.tensors);
    s.changed_since.resize(found.size(), false);
    for (std::size_t i = 0; i < found.size() && i < s.checksums.size(); ++i)
      if (found[i] != s.checksums[i]) s.changed_since[i] = true;
  }
  if (c.content == Content::repeat) {
    if (s.now.base < 0) throw std::runtime_error("repeat of a slot that holds no inputs yet");
    s.before = s.now;
  } else if (c.content == Content::fresh) {
    fill_fresh(w, s, c.base);
  } else {
    if (c.base < 0 || c.base >= static_cast<int>(w.bases.size()))
      throw std::runtime_error("no base set " + std::to_string(c.base));
    s.before = s.now;
    gpu::Transform t =
        c.transform_seed ? gpu::random_transform(w.problem, c.transform_seed) : gpu::Transform{};
    s.now = {c.base, std::make_shared<gpu::DeviceTransform>(w.problem, t)};
    s.now.transform->apply(*w.bases[static_cast<std::size_t>(c.base)]->inputs, *s.tensors, stream_);
  }
  s.poison = gpu::poison_from_seed(c.poison_seed);
  gpu::poison_outputs(*s.tensors, stream_, s.poison);
  // A repeat keeps its inputs: the checksums just taken are theirs.
  s.checksums = c.content == Content::repeat ? std::move(found) : input_checksums(*s.tensors);
  PTXB_CUDA(cudaStreamSynchronize(stream_));
  return verifier_ok();
}

Reply VerifierSession::verify(const VerifyCommand& c) {
  Workload& w = at(c.workload);
  Slot& s = slot(w, c.slot);
  if (s.now.base < 0) throw std::runtime_error("verify of a slot that was never prepared");
  CallCheck check;
  const auto after = input_checksums(*s.tensors);
  for (std::size_t i = 0; i < after.size(); ++i)
    if (after[i] != s.checksums[i] || (i < s.changed_since.size() && s.changed_since[i]))
      check.inputs_modified.push_back(w.problem.inputs[i].name);
  s.checksums = after;
  s.changed_since.clear();
  check.outputs = compare_with(w, *s.tensors, s.poison, s.now);
  check.all_unwritten = true;
  for (const auto& o : check.outputs)
    check.all_unwritten = check.all_unwritten && o.unwritten == o.numel;
  // Fresh inputs are gone once overwritten: only a base under another transform can be compared.
  if (!check.passed() && s.before.base >= 0 && !s.before.fresh && !s.now.fresh &&
      s.before.transform != s.now.transform) {
    bool all = true;
    for (const auto& o : compare_with(w, *s.tensors, s.poison, s.before)) all = all && o.passed;
    check.matches_previous = all;
  }
  Reply r = verifier_ok();
  r.check = std::move(check);
  return r;
}

// "scrub": the slack around every exported tensor zeroed again (ScrubCommand).
Reply VerifierSession::scrub() {
  for (auto& w : workloads_)
    for (auto& sl : w.slots) {
      for (std::size_t i = 0; i < sl.tensors->num_inputs(); ++i) zero_slack(sl.tensors->input(i));
      for (std::size_t i = 0; i < sl.tensors->num_outputs(); ++i) zero_slack(sl.tensors->output(i));
    }
  PTXB_CUDA(cudaStreamSynchronize(stream_));
  return verifier_ok();
}

Reply VerifierSession::clocks() {
  Reply r = verifier_ok();
  r.extra = nvml_.sample().to_json();
  return r;
}

Workload VerifierSession::make_workload(const SessionWorkload& spec) {
  Workload w;
  w.problem = spec.problem;
  for (const auto& b : spec.bases) w.bases.push_back(base_set(spec.problem, b));
  for (int i = 0; i < spec.slots; ++i) {
    Slot s;
    // Exported to the broker: whole 2 MiB blocks of their own, zeroed to the last byte, so the
    // mapping shows nothing else of this session or an earlier one; the inputs in memory the
    // broker maps read-only (shared_inputs.h), the outputs through CUDA IPC.
    s.tensors =
        std::make_unique<gpu::TensorSet>(spec.problem, gpu::TensorSet::InputsFrom{shareable_input});
    zero_all(*s.tensors);
    w.slots.push_back(std::move(s));
  }
  return w;
}

// A base set with its reference: kept from an earlier session of the process when the run
// shares it (b.keep), else made here (and kept when b.keep).
std::shared_ptr<BaseEntry> VerifierSession::base_set(const gpu::Problem& problem,
                                                     const BaseSet& b) {
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

Workload& VerifierSession::at(int w) {
  if (w < 0 || w >= static_cast<int>(workloads_.size()))
    throw std::runtime_error("no workload " + std::to_string(w));
  return workloads_[static_cast<std::size_t>(w)];
}

Slot& VerifierSession::slot(Workload& w, int s) {
  if (s < 0 || s >= static_cast<int>(w.slots.size()))
    throw std::runtime_error("no slot " + std::to_string(s));
  return w.slots[static_cast<std::size_t>(s)];
}

std::string VerifierSession::handle(gpu::DeviceBuffer& b) {
  PTXB_CHECK(b.capacity() % gpu::DeviceBuffer::kIpcGranularity == 0,
             "only DeviceBuffer::exported buffers are shared with the runner");
  cudaIpcMemHandle_t h;
  PTXB_CUDA(cudaIpcGetMemHandle(&h, b.base()));
  return to_hex(&h, sizeof h);
}

// The bytes of b's allocation around its tensor: before it, and after it (under 256).
void VerifierSession::zero_slack(gpu::DeviceBuffer& b) {
  char* base = static_cast<char*>(b.base());
  const std::size_t after = b.offset() + b.bytes();
  PTXB_CUDA(cudaMemsetAsync(base, 0, b.offset(), stream_));
  if (after < b.capacity())
    PTXB_CUDA(cudaMemsetAsync(base + after, 0, b.capacity() - after, stream_));
}

void VerifierSession::zero_all(gpu::TensorSet& t) {
  for (std::size_t i = 0; i < t.num_inputs(); ++i)
    PTXB_CUDA(cudaMemsetAsync(t.input(i).base(), 0, t.input(i).capacity(), stream_));
  for (std::size_t i = 0; i < t.num_outputs(); ++i)
    PTXB_CUDA(cudaMemsetAsync(t.output(i).base(), 0, t.output(i).capacity(), stream_));
}

std::vector<std::uint64_t> VerifierSession::input_checksums(gpu::TensorSet& t) {
  const int n = static_cast<int>(t.num_inputs());
  PTXB_CHECK(n <= gpu::DeviceChecksum::kSlots, "too many inputs to checksum");
  for (int i = 0; i < n; ++i)
    checksum_.enqueue(t.input(static_cast<std::size_t>(i)).get(),
                      t.input(static_cast<std::size_t>(i)).bytes(), i, stream_);
  std::vector<std::uint64_t> out(static_cast<std::size_t>(n));
  checksum_.read(out.data(), n, stream_);
  return out;
}

// New inputs in slot `s`, drawn like base `base`'s distribution from the verifier's secret
// (Content::fresh, gpu/sample_check.h).
void VerifierSession::fill_fresh(Workload& w, Slot& s, int base) {
  if (base < 0 || base >= static_cast<int>(w.bases.size()))
    throw std::runtime_error("no base set " + std::to_string(base));
  s.before = s.now;
  SlotContent fresh;
  fresh.base = base;
  fresh.fresh = true;
  fresh.fresh_seed = tools_.secret() | 1u;
  gpu::generate_inputs(*s.tensors, fresh.fresh_seed, w.bases[static_cast<std::size_t>(base)]->dist,
                       stream_);
  s.now = fresh;
}

// The outputs of `t` (poisoned with `poison` before the call) against the reference of the
// inputs `c` describes: every element against a base set's reference, or fresh inputs at
// positions drawn now (gpu/sample_check.h).
std::vector<gpu::CompareStats> VerifierSession::compare_with(Workload& w, gpu::TensorSet& t,
                                                             const gpu::Poison& poison,
                                                             const SlotContent& c) {
  if (c.fresh)
    return gpu::compare_sampled_outputs(t, c.fresh_seed,
                                        w.bases[static_cast<std::size_t>(c.base)]->dist, poison,
                                        tools_.secret, stream_);
  std::vector<gpu::CompareStats> out;
  const BaseEntry& base = *w.bases[static_cast<std::size_t>(c.base)];
  gpu::Tolerances rule = w.problem.tolerance;
  rule.atol *= gpu::output_scale(base.seed, base.dist);  // wide_range: the outputs' scale
  for (std::size_t k = 0; k < w.problem.outputs.size(); ++k)
    out.push_back(gpu::compare_output(
        t.output(k).get(), base.refs.value(k), w.problem.outputs[k], rule, stream_, 8, poison,
        c.transform->view_of_output(w.problem, k),
        gpu::row_scale_of(w.problem, k, base.seed, base.dist), base.refs.term(k)));
  return out;
}

}  // namespace ptxbench::eval::worker
