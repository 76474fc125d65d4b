// One judging session inside the verifier process (trusted: it never loads the candidate): the
// session's workloads with their base sets, references and exported slots, and the library
// baseline it checks and times. Private to the verifier: verifier.cc serves the commands,
// verifier_session.cc prepares and checks the slots, verifier_library.cc runs the library.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <future>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "eval/gpu/checksum.h"
#include "eval/gpu/compare.h"
#include "eval/gpu/event_burst.h"
#include "eval/gpu/event_timer.h"
#include "eval/gpu/l2_flush.h"
#include "eval/gpu/nvml.h"
#include "eval/gpu/secret_stream.h"
#include "eval/gpu/transform.h"
#include "eval/session_protocol.h"
#include "eval/worker/base_cache.h"
#include "eval/worker/library_cache.h"

namespace ptxbench::eval::worker {

// Replies of the verifier (VerifierStatus): ok with `extra`, or a failure and the phase it was in.
Reply verifier_ok(Json extra = Json::object());
Reply verifier_failure(VerifierStatus status, const std::string& error, const std::string& phase);

// What a slot holds now: a base under a transform, or fresh inputs (Content::fresh: generated from
// `fresh_seed`, the verifier's secret, like base `base`'s distribution); none while base < 0.
struct SlotContent {
  int base = -1;
  std::shared_ptr<gpu::DeviceTransform> transform;  // null for fresh inputs
  bool fresh = false;
  std::uint64_t fresh_seed = 0;
};

struct Slot {
  std::unique_ptr<gpu::TensorSet> tensors;
  SlotContent now, before;  // before: the content of the call before this one
  gpu::Poison poison;
  // The inputs' keyed checksums as the verifier last knew them: after writing them (prepare),
  // then as its check found them (verify).
  std::vector<std::uint64_t> checksums;
  // Per input: found changed at a prepare, since that check (by a kernel of another call, through
  // a pointer it kept: red team leak8/repeat_after_tamper.cu); the slot's next check names it
  // (kept over prepares without a check, the library's, until one).
  std::vector<bool> changed_since;
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
  VerifierTools();  // CUDA set up; throws gpu::CudaError
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
  // The fresh inputs' seeds and the sampled positions (gpu/sample_check.h): the operating
  // system's secret source itself (gpu/secret_stream.h says why no seeded generator).
  gpu::SecretStream secret;
};

// One session: "open" to "close" (session_protocol.h). Every method may throw gpu::CudaError (the
// context may be unusable: the verifier ends) or std::runtime_error (a malformed command).
class VerifierSession {
 public:
  VerifierSession(VerifierTools& tools, const OpenCommand& req);

  // The session's end ("close"); `library_ms` > 0: the parent's median for the timed library.
  void close(double library_ms = 0);
  // Is the library's background set-up (start_library) still running?
  bool library_pending() const;
  // The "ready" reply's extra: every slot's input capacities, output IPC handles and offsets,
  // and the GPU's provenance; first sends the inputs' descriptors on kDescriptorFd (throws when
  // it cannot: the session then fails as the verifier's).
  Json ready_extra();

  Reply prepare(const PrepareCommand& c);    // verifier_session.cc
  Reply verify(const VerifyCommand& c);      // verifier_session.cc
  Reply scrub();                             // verifier_session.cc
  Reply clocks();                            // verifier_session.cc
  Reply baseline(const BaselineCommand& c);  // verifier_library.cc
  Reply library(const LibraryCommand& c);    // verifier_library.cc
  Reply heat(const HeatCommand& c);          // verifier_library.cc

 private:
  Workload make_workload(const SessionWorkload& spec);
  std::shared_ptr<BaseEntry> base_set(const gpu::Problem& problem, const BaseSet& b);
  void prepare_library(Workload& w);
  void start_library(Workload& w);
  void make_library_sets(Workload& w, cudaStream_t stream);
  Workload& at(int w);
  static Slot& slot(Workload& w, int s);
  static std::string handle(gpu::DeviceBuffer& b);
  void zero_slack(gpu::DeviceBuffer& b);
  void zero_all(gpu::TensorSet& t);
  std::vector<std::uint64_t> input_checksums(gpu::TensorSet& t);
  std::vector<gpu::CompareStats> compare_with(Workload& w, gpu::TensorSet& t,
                                              const gpu::Poison& poison, const SlotContent& c);
  void fill_fresh(Workload& w, Slot& s, int base);

  // Where the verifier's set-up time went, in ms (issue 14's breakdown; the first baseline reply
  // carries it): the references of every workload (constructor; with how many base sets were
  // made and how many were kept from an earlier session), and the timed workload's
  // library: its private sets and its plans built on the background thread, how long the
  // session then waited for that thread, and the timed choice among plans (ready()).
  struct SetupTimes {
    double references = 0, sets = 0, plans = 0, wait = 0, choice = 0;
    int bases_made = 0, bases_reused = 0;
    Json to_json() const;
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

}  // namespace ptxbench::eval::worker
