// JudgeSession: the parent's side of one candidate's judging session (session_protocol.h).
//
// It takes the run's warm verifier for its GPU or starts one (verifier_host.h) and opens its
// session there, starts the broker and the candidate's host process (both sandboxed and
// unprivileged, joined by two pipes and to nothing else), calibrates the cost of a call with the
// broker's built-in no-op before the candidate is loaded, and drives every call in bursts
// (session_protocol.h):
//   prepare each (verifier) -> one burst (broker; the parent times the round trip) -> verify each
// first the checked calls of the plan (plan.h), stopping after the first burst with a failure,
// then the timing phase: rounds of a candidate burst and a library burst back to back (warm-up
// rounds, then sampled ones until the stopping rule is met for both; every candidate call still
// checked; a candidate known to be slow from its checked calls is timed on them and makes only
// the closing repeats, session_decision.h), then the audited calls (audit_trace.h), unless the
// candidate is incorrect already. Whatever the host process does (ends, hangs, writes garbage,
// asks for what the contract forbids, is refused a system call) is the candidate's verdict; a
// failure of the verifier, or of a broker that fails the same way without the candidate, is
// harness_error.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>

#include "core/paths.h"
#include "eval/call_failure.h"
#include "eval/eval_result.h"
#include "eval/evaluator.h"
#include "eval/session_decision.h"
#include "eval/session_io.h"
#include "eval/timeline.h"
#include "task/spec.h"

namespace ptxbench::eval {

struct SessionSetup {
  std::filesystem::path worker;            // ptxbench-worker
  std::vector<std::string> broker_prefix;  // e.g. compute-sanitizer ... (memcheck), ncu ...
  bool timing = true;
  // memcheck: one checked call only, the plan's check on its least-work workload
  bool one_least_work_check = false;
  // The instruction audit's calls (audit_trace.h); nvtx expects broker_prefix to be ncu's.
  Instrument audit = Instrument::none;
  std::vector<std::string> broker_read;  // more read-only paths for the broker (ncu's folder)
  // The candidate's host process (ptxbench-host) and the folder of its CUDA shims.
  std::filesystem::path host;
  std::filesystem::path shim_dir;
  // The candidate's contract; tvm_ffi: the libtvm_ffi.so the host process loads.
  Contract contract = Contract::native;
  std::string tvm_ffi_library;
  // A file the tool in broker_prefix writes in the broker's folder (compute-sanitizer's
  // --log-file), relative to it; empty: none. Its text (the last broker's) is the tool's report,
  // EvalResult::broker_tool_log: the broker's own output also carries the kernel's device printf.
  std::string broker_tool_log;
  // The broker runs under a tool that injects a library into it (compute-sanitizer): it gets the
  // allowances Nsight Compute's profiled broker gets (BrokerRequest::profiled: local sockets, the
  // locale files, the cgroup's limits), as the ncu route does.
  bool broker_under_tool = false;
};

inline constexpr int kCalibrationCalls = 8;
// The phase of a failure while the broker loaded the candidate (no call had been made).
inline constexpr const char* kLoadingLabel = "loading the candidate";
// A library median this much slower than the verifier's best for the same baseline is timed
// again alone (JudgeSession::check_library_speed), with this many runs.
inline constexpr double kLibrarySlowdownShare = 0.05;
inline constexpr int kLibraryRetimeRuns = 10;

class JudgeSession {
 public:
  JudgeSession(WorkerLauncher& launcher, SessionSetup setup)
      : launcher_(launcher), setup_(std::move(setup)) {}

  // Fills `r` (outcome, message, phase, flags, trials, timing, provenance, ...). `r.seed` must
  // be set; never throws for anything a candidate does.
  void run(const task::TaskSpec& task, const std::filesystem::path& shared_object,
           const EvalOptions& options, EvalResult& r);

  const std::vector<CallRecord>& calls() const { return calls_; }

 private:
  struct Peers;
  bool start(Peers& p, const task::TaskSpec& task, const std::filesystem::path& so,
             const EvalOptions& o, EvalResult& r);
  // The session's verifier process: the GPU's warm one (EvalOptions::verifier_host), else new.
  bool start_verifier(Peers& p, const EvalOptions& o, EvalResult& r);
  // Does this session use the run's warm verifiers? Not when its broker runs under a tool
  // (compute-sanitizer, ncu: SessionSetup::broker_prefix): the tool ends the broker, which may
  // still hold the slots' mappings when the session's buffers are freed, so such a session
  // starts a verifier of its own and leaves the warm one, with what it keeps, to the next.
  bool hosted(const EvalOptions& o) const;
  // A broker for the session in a new private directory: launched (the first beside the
  // verifier, before the slots exist), then ready: the slots mapped (MapCommand), calibrated
  // (recorded for the first only), the candidate loaded. start_broker: one more for the audit,
  // both at once.
  bool start_broker(Peers& p, const EvalOptions& o, EvalResult& r);
  bool launch_broker(Peers& p, const EvalOptions& o, EvalResult& r);
  bool ready_broker(Peers& p, EvalResult& r, bool first);
  bool broker_setup_failed(Peers& p, const Received& got, EvalResult& r);
  bool scrub_slots(Peers& p, EvalResult& r);
  void stop_broker(Peers& p);
  // judge_session_audit.cc: the audited calls and what they collected.
  void count_timed_calls(Peers& p, EvalResult& r, AuditTrace& t);
  void audit_phase(Peers& p, const EvalOptions& o, EvalResult& r);
  bool audited_calls(Peers& p, TimingDraw& draw, const EvalOptions& o, EvalResult& r,
                     AuditTrace& t);
  std::vector<int> pick_audited(const EvalOptions& o, AuditTrace& t) const;
  int audit_workload_for_speed(const EvalOptions& o, AuditTrace& t) const;
  double instrumented_estimate_ms(int workload) const;
  double median_wall_ms(int workload) const;
  bool checks_over_budget(const EvalOptions& o, EvalResult& r) const;
  bool audit_command(Peers& p, const Json& command, Received& got, EvalResult& r);
  void audit_function(Peers& p, std::size_t k, TimingDraw& draw, const EvalOptions& o,
                      EvalResult& r, AuditTrace& t);
  void choose_functions(AuditTrace& t) const;
  void audit_functions(Peers& p, TimingDraw& draw, const EvalOptions& o, EvalResult& r,
                       AuditTrace& t, std::chrono::steady_clock::time_point phase_start);
  // One candidate call (a burst of one); false when the session cannot go on or the call failed
  // its check (r says why when the session cannot go on).
  bool candidate_call(Peers& p, const PlannedCall& call, bool timing, const EvalOptions& o,
                      EvalResult& r);
  // A burst of calls on distinct slots; `between` runs after the broker's burst, before the
  // checks. false when the session cannot go on or any call failed its check.
  bool candidate_burst(Peers& p, const std::vector<PlannedCall>& burst, bool timing,
                       const EvalOptions& o, EvalResult& r, const std::function<void()>& between);
  bool library_burst(Peers& p, int count, int slot, bool timing, EvalResult& r);
  void heat(Peers& p, const EvalOptions& o);
  bool baseline_call(Peers& p, const PlannedCall& call, bool timing, bool verify, EvalResult& r);
  bool prepare(Peers& p, const PlannedCall& call, EvalResult& r);
  bool prepare_burst(Peers& p, const std::vector<PlannedCall>& burst, CallCommand& cmd,
                     EvalResult& r);
  bool calibrate(Peers& p, EvalResult& r, bool record);
  void timing_phase(Peers& p, const EvalOptions& o, EvalResult& r);
  // At the timing phase's end: one hidden workload's check with all but one SM busy, drawn among
  // those the timed speed says are fast enough (hidden_all_but_one_workloads). False: the call
  // ended the session.
  bool hidden_all_but_one_check(Peers& p, const EvalOptions& o, EvalResult& r);
  bool slow_from_checks(Peers& p, const StoppingRule& rule, EvalResult& r, bool& library_ok);
  enum class KnownSlowEnd { done, failed, timed_as_usual };
  KnownSlowEnd known_slow_repeats(Peers& p, EvalResult& r, std::size_t before_known,
                                  const std::function<bool()>& closing_round);
  void read_clocks(Peers& p, Json& into);  // the verifier's clocks now
  // The longest GPU time (event) of any checked candidate call so far, in ms.
  double slowest_checked_call_ms() const;
  void broker_failed(Peers& p, const Received& got, const PlannedCall& call, EvalResult& r);
  // judge_session_rerun.cc: a burst that faulted with an illegal address, run again in a broker
  // that maps the inputs writable; true when a call of it changed an input (its record, marked
  // rerun_after_fault, is then the last of calls_ and decides the verdict), else the fault stands.
  bool input_write_rerun(Peers& p, const std::vector<PlannedCall>& burst, const EvalOptions& o);
  // The verdict of a failed call from the broker's reply and the host's end, with the call's
  // full text (broker_failed then withholds it where it may name a hidden workload).
  struct CallVerdict {
    Outcome outcome;
    CallFault fault;
    std::string message;
  };
  CallVerdict call_verdict(Peers& p, const Received& got, bool loading);
  static std::optional<std::string> host_refusal(const ProcessResult& e);
  // Is workload `w` of the plan hidden? Why a failed call's text is withheld (call_failure.h).
  bool hidden_workload(int w) const;
  std::string workload_name(int w) const;  // the plan's name of workload w ("timed")
  Withhold withhold_for(const Peers& p, const PlannedCall& call) const;
  void judge_failed_on(const PlannedCall& call, EvalResult& r) const;
  // r.failed_on, failed_kind and failed_under_load for a failure on `call`; the phase text a
  // model gets for it when it was hidden (call_failure.h hidden_phase).
  std::string note_failed_on(const PlannedCall& call, EvalResult& r) const;
  bool broker_works_without_candidate(Peers& p);
  void decide(Peers& p, const task::TaskSpec& task, const std::filesystem::path& so,
              const EvalOptions& o, EvalResult& r);
  // The library's check on the inputs of `bad` when it fails the rule there too (a pointer into
  // calls_, valid until the next call), else null.
  const CallCheck* library_fails_too(const CallRecord& bad, EvalResult& r);
  void check_library_speed(Peers& p, EvalResult& r);
  void finish(Peers& p, const EvalOptions& o, EvalResult& r);
  // EvalOptions::candidate_output: this session's block (candidate_output.h); a failed write is a
  // warning on stderr, never the verdict.
  void keep_candidate_output(const EvalOptions& o, const Peers& p) const;
  Peers* peers_ = nullptr;  // while run() is on

  WorkerLauncher& launcher_;
  SessionSetup setup_;
  SessionPlan plan_;
  task::Family family_ = task::Family::gemm;  // the task's, while run() is on
  std::vector<CallRecord> calls_;
  bool heat_failed_ = false;  // the verifier could not run the sustained load
  // The library's plan (the first baseline reply) and the run's key for it (library_choices.h).
  LibraryChoices::Key choice_key_;
  int library_plan_index_ = -1;
  bool library_plan_timed_ = false;
  double library_best_ms_ = 0;   // the verifier's fastest library median of earlier sessions
  std::vector<int> audited_;     // the audited calls' workloads
  bool time_functions_ = false;  // the checks phase: CallCommand::function_times
  bool rerun_faults_ = false;    // the checks and timing phases: input_write_rerun may run
  Timeline timeline_;            // EvalOptions::timeline
};

}  // namespace ptxbench::eval
