// LibraryChoices: the library plans chosen by timing in one run, reused by the run's later
// sessions (issue 14: the library at its best, chosen once per (task, workload, GPU) in a run).
//
// The first judging session of a run on a key times the library's candidate plans in its
// verifier (gpu/plan_choice.h) and the parent records the plan's index here; later sessions on
// the same key pass it to their verifier (OpenCommand::library_plan_index), which builds and
// runs that plan alone. Each session's report names the plan it ran and whether it was timed
// there or chosen earlier in the run (TimingResult::baseline_description). Only trusted
// processes take part: the parent and the verifiers; a candidate never sees the choice.
// Thread-safe: the run's GPU queues judge at once.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace ptxbench::eval {

class LibraryChoices {
 public:
  struct Key {
    std::string task, workload;
    int device = -1;  // EvalOptions::device (-1: whatever CUDA_VISIBLE_DEVICES left)
    bool operator<(const Key& o) const {
      return std::tie(task, workload, device) < std::tie(o.task, o.workload, o.device);
    }
  };
  // The plan index recorded for `k`, or -1.
  int find(const Key& k) const;
  // Records `plan_index` (>= 0) for `k` unless one is recorded already (the first stays).
  void record(const Key& k, int plan_index);
  std::size_t size() const;

 private:
  mutable std::mutex mu_;
  std::map<Key, int> chosen_;
};

}  // namespace ptxbench::eval
