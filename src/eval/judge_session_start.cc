// The judging session's start (judge_session.h): the plan, the verifier's session (warm or new),
// the first broker and host pair, the slots they share, and the broker's calibration calls.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "core/elapsed.h"
#include "eval/broker_call_fields.h"
#include "eval/eval_result.h"
#include "eval/judge_session.h"
#include "eval/judge_session_peers.h"
#include "eval/verifier_host.h"

namespace ptxbench::eval {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

// The verifier could not open a CUDA device at all (VerifierStatus::no_device: CUDA's words,
// which name no workload): the GPU or the environment is the cause, and what to do about it.
std::string no_gpu_message(const std::string& cuda_error) {
  const std::string cause =
      "no GPU could be used (the verifier could not open a CUDA device: " + cuda_error + ")";
  if (Evaluator::gpu_assumed())
    return "PTXBENCH_ASSUME_GPU=1 is set, but " + cause +
           ": unset PTXBENCH_ASSUME_GPU (it skips looking for a GPU); without a GPU ptxbench "
           "runs the static stages only";
  return cause +
         ": check the driver and CUDA_VISIBLE_DEVICES, or set PTXBENCH_NO_GPU=1 to run "
         "the static stages only";
}

// Why the verifier could not open a CUDA device at all, in words that name no workload, or "":
// its no_device reply (CUDA's error), or a process the loader could not start for want of the
// NVIDIA driver's library (exit 127 before main, so before any command). A verifier that ended
// is finished here, its end kept in `end`.
std::string no_device_cause(const Received& ready, std::unique_ptr<WorkerProcess>& verifier,
                            ProcessResult& end) {
  if (ready.reply)
    return ready.reply->status == VerifierStatus::no_device ? ready.reply->error : std::string();
  if (ready.failure != ReceiveFailure::closed) return {};
  end = verifier->finish(milliseconds(2000));
  verifier.reset();
  if (end.exit_code != 127 ||
      end.stderr_text.find("error while loading shared libraries: libcuda.so") == std::string::npos)
    return {};
  return "the NVIDIA driver's library libcuda.so.1 cannot be loaded";
}

// The memcheck session's one call: the plan's check on the workload with the least work (the
// first such). compute-sanitizer slows a kernel 10-1000x: an FFMA GEMM's timed workload ran past
// 100 s under it on an H100 (2026-12-06), and a call past the session's limit is the candidate's
// timeout (Evaluator::adopt_memcheck_failure).
PlannedCall least_work_check(const SessionPlan& plan) {
  auto work = [&](const PlannedCall& c) {
    const auto w = static_cast<std::size_t>(c.workload);
    return w < plan.workload_flops.size() && plan.workload_flops[w] > 0
               ? plan.workload_flops[w]
               : std::numeric_limits<double>::infinity();
  };
  return *std::min_element(
      plan.checks.begin(), plan.checks.end(),
      [&](const PlannedCall& a, const PlannedCall& b) { return work(a) < work(b); });
}

}  // namespace

bool JudgeSession::start(Peers& p, const task::TaskSpec& task, const fs::path& so,
                         const EvalOptions& o, EvalResult& r) {
  auto fail = [&](Outcome out, std::string msg, std::string phase) {
    return fail_with(r, out, std::move(msg), std::move(phase));
  };
  auto planned = plan_session(task, o.trials, r.seed, o.audit_workload, o.input_seed);
  if (!planned.ok()) return fail(Outcome::harness_error, planned.error().to_string(), "planning");
  plan_ = std::move(*planned);
  if (setup_.one_least_work_check) plan_.checks = {least_work_check(plan_)};
  p.so = so;

  // The verifier: this GPU's warm one from the run (verifier_host.h), else a new process. Its
  // session ("open": buffers, references, IPC handles) is asked for before the broker starts.
  OpenCommand open = plan_.verifier;
  open.library_plan = o.library_plan;
  choice_key_ = {task.name, plan_.verifier.workloads.front().problem.workload, o.device};
  if (o.library_choices) open.library_plan_index = o.library_choices->find(choice_key_);
  const auto verifier_start = Clock::now();
  if (!start_verifier(p, o, r)) return false;
  if (!p.verifier->send(open.to_json()).ok() && p.verifier_warm) {
    p.verifier.reset();  // it ended while it waited: a new one
    if (!start_verifier(p, o, r)) return false;
    (void)p.verifier->send(open.to_json());  // a failure shows as its missing reply
  }

  // The broker's and the host's requests, less their directories and copies of the candidate
  // (each pair gets its own); the first pair starts now, beside the verifier, and the broker gets
  // the slots once they exist.
  BrokerRequest& breq = p.broker_request;
  breq.call_timeout_seconds = o.call_timeout_seconds;
  breq.instrument = setup_.audit;
  // The timed session on the CUPTI route counts every call when asked (timed_counts.h); ncu owns
  // the counters under its route, and a session without timing has no timed calls.
  breq.count_calls = o.count_timed_calls && setup_.audit == Instrument::cupti && o.timing;
  // Under ncu or compute-sanitizer: sockets allowed (their injected libraries need them).
  breq.profiled = setup_.audit == Instrument::nvtx || setup_.broker_under_tool;
  breq.sandbox_read = setup_.broker_read;
  breq.workspace_quota = o.workspace_quota;
  host::HostRequest& hreq = p.host_request;
  hreq.contract = setup_.contract;
  hreq.tvm_ffi_library = setup_.tvm_ffi_library;
  hreq.shim_dir = setup_.shim_dir.string();
  if (!launch_broker(p, o, r)) return false;

  Received ready = p.verifier->receive(milliseconds(o.check_timeout));
  r.phase_seconds.verifier = ms_since(verifier_start) / 1000;
  timeline_.add(SpanKind::verifier_start, verifier_start);
  if (std::string cause = no_device_cause(ready, p.verifier, p.verifier_end); !cause.empty())
    return fail(Outcome::harness_error, no_gpu_message(cause), "opening the GPU");
  if (!ready.reply || !ready.reply->ok) {
    // The verifier's words may name any workload of the plan, the hidden ones too.
    r.withheld = "the verifier could not prepare the session: " +
                 (ready.reply ? ready.reply->error : ready.text);
    return fail(Outcome::harness_error,
                "the judge's verifier could not prepare the session's inputs and references (its "
                "error is not shown: it may name a hidden workload)",
                "preparing inputs and references");
  }
  r.verifier_session = p.verifier_sessions + 1;
  r.provenance = ready.reply->extra.value("provenance", Json::object());
  const Json& slots = ready.reply->extra.at("slots");
  for (std::size_t w = 0; w < plan_.verifier.workloads.size(); ++w) {
    RunnerWorkload rw;
    rw.problem = plan_.verifier.workloads[w].problem;
    for (const auto& s : slots.at(w)) {
      auto h = slot_handles_from_json(s);
      if (!h.ok())
        return fail(Outcome::harness_error, "the verifier's slots: " + h.error().to_string(),
                    "preparing inputs and references");
      rw.slots.push_back(std::move(*h));
    }
    p.broker_map.workloads.push_back(std::move(rw));
  }
  // The inputs' descriptors, sent before the reply (worker/shared_inputs.h).
  auto fds = receive_descriptors(p.verifier_descriptors.get(), input_descriptors(p.broker_map),
                                 milliseconds(seconds(30)));
  if (!fds.ok())
    return fail(Outcome::harness_error, "the verifier's input descriptors: " + fds.error().message,
                "preparing inputs and references");
  p.input_fds = std::move(*fds);
  return ready_broker(p, r, true);
}

// Bursts of a built-in no-op in the broker before the candidate is loaded, prepared like real
// timing bursts (kTimingBurst calls): what a call costs beyond its events when nobody lies
// (session_decision.h).
bool JudgeSession::calibrate(Peers& p, EvalResult& r, bool record) {
  TimingDraw draw(plan_, gpu::mix64(r.seed ^ 0xCA11B8A7Eull));
  for (int done = 0; done < kCalibrationCalls;) {
    std::vector<PlannedCall> burst = draw.next_burst(false, kTimingBurst);
    for (auto& c : burst) c.label = "calibration";
    CallCommand cmd;
    if (!prepare_burst(p, burst, cmd, r)) return false;
    const auto t0 = Clock::now();
    Received got = p.broker->send(cmd.to_json("noop")).ok()
                       ? p.broker->receive(milliseconds(seconds(60)))
                       : Received{std::nullopt, ReceiveFailure::closed, "the broker is gone"};
    const double wall = ms_since(t0);
    const std::vector<double> events = got.reply ? events_of(*got.reply) : std::vector<double>{};
    if (!got.reply || !got.reply->ok || events.size() != burst.size()) {
      r.outcome = Outcome::harness_error;
      r.message =
          "the broker failed its calibration calls: " + (got.reply ? got.reply->error : got.text);
      r.phase = "calibration";
      return false;
    }
    for (std::size_t i = 0; i < burst.size(); ++i, ++done) {
      CallRecord rec;
      rec.index = -1;
      rec.plan = burst[i];
      rec.calibration = true;
      rec.wall_ms =
          wall_without_counters(wall, got.reply->extra) / static_cast<double>(burst.size());
      rec.event_ms = events[i];
      if (record) calls_.push_back(std::move(rec));
    }
  }
  return true;
}

}  // namespace ptxbench::eval
