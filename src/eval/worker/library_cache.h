// The verifier's library baselines, kept across the sessions of one verifier process
// (session_protocol.h "open"): a (problem, plan) whose baseline an earlier session built is not
// built again (cuDNN's plans for an attention task: 0.3-1.7 s on the H200). Only the baseline
// (handles, plans, workspace) is kept; every session makes the library's private tensor sets
// (the base input sets a run shares are kept apart: base_cache.h). Not thread-safe: the verifier's
// command thread owns it; a session's background build writes only into the entry it was given. At
// most kMaxEntries are kept (the least recently used go first): each holds its library's workspace
// on the GPU the candidates share.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "eval/gpu/baseline.h"
#include "eval/gpu/problem.h"

namespace ptxbench::eval::worker {

struct LibraryEntry {
  std::unique_ptr<gpu::Baseline> baseline;  // null until built (make_unready_baseline)
  bool ready = false;                       // Baseline::ready() has run
  int requested = -1;                       // the `chosen` plan index it was built for
  std::uint64_t used = 0;                   // LibraryCache's clock at its last find_or_add
  // The fastest median time (ms) of this baseline any earlier session of the process reported at
  // its "close" (0: none yet): what a later session's library time is held against.
  double best_ms = 0;
};

class LibraryCache {
 public:
  static constexpr std::size_t kMaxEntries = 8;

  // The entry for `problem` under `plan`, built or not. An existing entry serves when it was
  // built for the same chosen plan, or `chosen` is -1 (no choice made earlier in the run), or it
  // is ready and runs plan `chosen`; otherwise a new, empty entry replaces it. `reused` (out):
  // whether the entry holds a baseline already.
  std::shared_ptr<LibraryEntry> find_or_add(const gpu::Problem& problem, gpu::LibraryPlan plan,
                                            int chosen, bool& reused);
  // Drops entries whose build never finished (a session that failed or closed first).
  void drop_unbuilt();
  std::size_t size() const { return entries_.size(); }

 private:
  void evict();  // down to kMaxEntries, sparing the entries a session holds
  std::map<std::string, std::shared_ptr<LibraryEntry>> entries_;
  std::uint64_t clock_ = 0;
};

}  // namespace ptxbench::eval::worker
