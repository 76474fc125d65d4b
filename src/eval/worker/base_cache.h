// The verifier's kept base input sets, across the sessions of one verifier process: a base set
// the run shares (session_protocol.h BaseSet::keep; plan.h input_seed) is generated and its fp32
// reference computed once, by the first session that asks for it, and used as it is by every
// later session of the process that asks for the same (problem, seed, distribution). A base set
// is never exported to a runner (the slots get transformed copies of it) and no session writes
// to it, so a later session reads exactly what the first one made.
//
// Bounded by the device memory it holds (the verifier gives it a quarter of the GPU memory free
// when it starts; the least recently used go first), sparing the entries an open session holds:
// checked when a base set is added and when a session closes. Not thread-safe: the verifier's
// command thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "eval/gpu/device_buffer.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/reference.h"
#include "eval/gpu/rng.h"
#include "eval/gpu/tensors.h"

namespace ptxbench::eval::worker {

struct BaseEntry {
  std::unique_ptr<gpu::TensorSet> inputs;  // the base inputs (its outputs are not used)
  gpu::ReferenceOutputs refs;              // the reference of the base inputs
  std::size_t bytes = 0;                   // device memory held (bytes())
  std::uint64_t used = 0;                  // BaseCache's clock at its last find or add
  std::uint64_t seed = 0;                  // the inputs' seed and distribution: the rule's atol
  gpu::Distribution dist = gpu::Distribution::normal;  // factors (gpu/rng.h, gpu/row_scale.h)
};

// The device bytes `e` holds: every input, output and reference buffer's allocation.
std::size_t device_bytes(BaseEntry& e);

class BaseCache {
 public:
  // The share of the free GPU memory it may hold: a quarter (about 35 GB of the H200's 141) keeps
  // the core suite's base sets (about 2.8 GB per base set of the d128 attention backward's timed
  // workload, 0.5 GB of the core GEMM's; two per timed workload, one per hidden one) with the
  // candidates' own memory to spare.
  static constexpr std::size_t kShareOfDevice = 4;

  explicit BaseCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  // The kept base set of (problem, seed, dist), or null.
  std::shared_ptr<BaseEntry> find(const gpu::Problem& problem, std::uint64_t seed,
                                  gpu::Distribution dist);
  // Keeps `e` (its `bytes` set) for later sessions, then drops the least recently used entries
  // no session holds while more than max_bytes are kept.
  void add(const gpu::Problem& problem, std::uint64_t seed, gpu::Distribution dist,
           std::shared_ptr<BaseEntry> e);
  // Drops the least recently used entries no session holds while more than max_bytes are kept
  // (after a session's close, whose entries may have kept it over).
  void trim();
  std::size_t size() const { return entries_.size(); }
  std::size_t bytes() const;

 private:
  std::map<std::string, std::shared_ptr<BaseEntry>> entries_;
  std::size_t max_bytes_;
  std::uint64_t clock_ = 0;
};

}  // namespace ptxbench::eval::worker
