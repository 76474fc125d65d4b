// The judging session's protocol: one candidate, four processes, one parent.
//
//   verifier  (ptxbench-worker, mode "verifier"): trusted, never loads the candidate; serves
//             sessions one at a time ("open" .. "close", VerifierRequest), so a run keeps one per
//             GPU (verifier_host.h). It owns every device buffer of the session: per workload,
//             base input sets (random from a seed) with their fp32 references, and "slots"
//             (input + output buffers, each in whole zeroed 2 MiB blocks of its own:
//             gpu::DeviceBuffer::exported) that it exports to the broker through CUDA IPC. Before
//             each call it writes the slot's inputs (a base under a fresh transform, transform.h,
//             or exactly the previous call's inputs), poisons the outputs with a per-call poison
//             (poison.h), checksums the inputs; after the call it re-checksums the inputs and
//             compares the outputs with the reference. It also times the library baseline, always
//             on tensors of its own that no other process maps (op "baseline" and "library").
//   broker    (ptxbench-worker, mode "broker"): trusted, holds the session's CUDA context. It
//             maps the slots, loads the candidate's DEVICE code (never its host code) and, for
//             each "call" (a burst of one or more calls on distinct slots), has the host process
//             run the entry point and executes the CUDA work it asks for, checked, on its own
//             stream between its own events (worker/broker_calls.h), then waits once. It never
//             sees a seed, a reference or whether a call is checked: every call is verified.
//   host      (ptxbench-host): the candidate's process, with no GPU, under the OS sandbox
//             (sandbox/sandbox.h): loads the candidate's shared object and runs its host code; its
//             CUDA runtime and driver are shims speaking the host protocol (host_protocol.h) to
//             the broker, the only process it can talk to. Nothing it says decides blame.
//   parent    (ptxbench, no CUDA; eval/judge_session.h) plans the calls, measures the wall time
//             of every call from outside, and decides.
//
// Requests travel as a JSON file in the process's private directory (the verifier's holds only
// that directory; its sessions come as "open" commands); commands and replies between the parent
// and the verifier or broker as one JSON line each on fds 3 (commands in) and 4 (replies out)
// (core/child_process.h). The host's stdout/stderr stay free for whatever the candidate prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/contract.h"
#include "core/json.h"
#include "core/result.h"
#include "eval/gpu/compare_stats.h"
#include "eval/gpu/library_plan.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/rng.h"

namespace ptxbench::eval {

// One base input set of a workload: its inputs drawn from (seed, dist), with their fp32
// reference. `keep`: the run shares it (plan.h input_seed), so the verifier keeps it with its
// reference for later sessions (worker/base_cache.h); otherwise it is the session's own and freed
// at "close".
struct BaseSet {
  std::uint64_t seed = 0;
  gpu::Distribution dist = gpu::Distribution::normal;
  bool keep = false;
};

struct SessionWorkload {
  gpu::Problem problem;
  std::vector<BaseSet> bases;  // at least one
  int slots = 1;
  bool baseline = false;  // build the library baseline for this workload
};

// The verifier process (its request file): only its private directory. It sets up CUDA and its
// own tools, then serves sessions: "open" (OpenCommand) starts one, "close" ends it and frees its
// buffers (the process waits for the next "open"), "quit" or the end of its command channel ends
// the process. A one-candidate `ptxbench eval` opens one session and quits; `ptxbench run` and
// `ptxbench gate` keep one verifier per GPU for the whole run (verifier_host.h).
struct VerifierRequest {
  std::string dir;
  Json to_json() const;
  static Result<VerifierRequest> from_json(const Json& j);
};

// "open": one session's workloads. The verifier makes their base sets (inputs from the seeds;
// a kept one an earlier session of the process made is used as it is), references and slots, zeroes
// every buffer it will export (memory an earlier session of the same process freed is not cleared
// by CUDA), and replies {slots, provenance}. The library baseline of a (problem, plan) it built in
// an earlier session of the process is reused, never its tensors (library.reused in the first
// baseline reply). A second "open" before "close" is a bad_request.
struct OpenCommand {
  std::vector<SessionWorkload> workloads;
  gpu::LibraryPlan library_plan = gpu::LibraryPlan::fastest;  // the baseline's plan
  // The timed workload's library plan chosen by timing earlier in the run (the first baseline
  // reply's extra.plan_index then; gpu::make_unready_baseline's `chosen`); -1: choose here.
  int library_plan_index = -1;
  Json to_json() const;
  static Result<OpenCommand> from_json(const Json& j);
};

// How the broker maps one slot's tensors. Inputs: each a CUDA virtual-memory allocation of
// input_capacities[i] bytes whose descriptor comes on the descriptor socket (kDescriptorFd), in
// order of workload, slot and input, one per input of every slot (worker/shared_inputs.h: the
// broker maps them read-only). Outputs: the IPC handles (hex of cudaIpcMemHandle_t). And where
// each tensor starts in its allocation, in bytes (gpu::DeviceBuffer::exported puts it at the
// end). The verifier's "open" reply and the map command carry them as {input_capacities,
// outputs, input_offsets, output_offsets} (required: the verifier, the parent and the broker are
// one build).
struct SlotHandles {
  std::vector<std::uint64_t> input_capacities;
  std::vector<std::string> outputs;
  std::vector<std::uint64_t> input_offsets, output_offsets;
  Json to_json() const;
};

Result<SlotHandles> slot_handles_from_json(const Json& j);

struct RunnerWorkload {
  gpu::Problem problem;  // shapes and types only matter here
  std::vector<SlotHandles> slots;
};

// How the runner is instrumented for the instruction audit (worker/instrument.h): not at all
// (no audit, or a memcheck session), a CUPTI subscriber in the runner itself, or NVTX ranges
// for Nsight Compute running the runner.
enum class Instrument { none, cupti, nvtx };
std::string_view to_string(Instrument i);
std::optional<Instrument> instrument_from_string(std::string_view s);

// The runner starts beside the verifier, before the session's buffers exist; its request has
// none. Its first command is "map" {workloads}, sent once the verifier has made them: the runner
// maps every slot, closes its sandbox and only then replies ready (or "quit" before that).
struct MapCommand {
  std::vector<RunnerWorkload> workloads;  // at least one, each with a slot
  // The broker maps the inputs writable: only for the re-run of a call whose fault may have been
  // a write to an input (JudgeSession::input_write_rerun); every other broker maps them read-only.
  bool inputs_writable = false;
  Json to_json() const;
};
Result<MapCommand> map_from_json(const Json& j);
// How many input descriptors the map's slots take from the descriptor socket, in order.
std::size_t input_descriptors(const MapCommand& m);

// The broker (ptxbench-worker, mode "broker"): the trusted process that holds the session's CUDA
// context and runs the candidate's device code for it (worker/broker.h). It never loads the
// candidate's shared object: from its copy `candidate` it reads only the device code. It talks
// to the candidate's host process over the host protocol (host_protocol.h) on kBrokerFromHostFd
// and kBrokerToHostFd, pipes the parent made.
inline constexpr int kBrokerFromHostFd = 5;
inline constexpr int kBrokerToHostFd = 6;
// The verifier's and each broker's Unix socket to the parent (core/fd_passing.h): the verifier
// sends its slots' input descriptors on it before its "open" reply; the parent sends copies to
// each broker before its "map" command.
inline constexpr int kDescriptorFd = 7;
// What the candidate may hold in device memory (cudaMallocAsync) beside its tensors, and what
// the local-memory frames of its kernels may make the driver reserve.
inline constexpr std::uint64_t kDefaultWorkspaceQuota = 4ull << 30;

struct BrokerRequest {
  std::string dir;
  std::string candidate;  // a copy of the candidate's shared object: only its device code is read
  double call_timeout_seconds = 20;
  bool sandbox = true;                    // apply sandbox/sandbox.h after CUDA is set up
  std::vector<std::string> sandbox_read;  // extra read-only paths (ncu's folder)
  Instrument instrument = Instrument::none;
  // Under Nsight Compute (instrument nvtx): the sandbox also allows sockets (ncu's injected
  // library talks to ncu over them), reported as a weaker sandbox.
  bool profiled = false;
  std::uint64_t workspace_quota = kDefaultWorkspaceQuota;
  // Hardware counters around every call (worker/call_counters.h), read with "counters" before the
  // audit: what the timed calls themselves ran on the tensor cores and TMA (timed_counts.h).
  bool count_calls = false;
  Json to_json() const;
  static Result<BrokerRequest> from_json(const Json& j);
};

// ---- verifier commands -------------------------------------------------------------------
// What a slot gets for a call: a base set under a new transform (checked against the base's
// reference, every element) | exactly the previous call's inputs | new inputs the verifier draws
// from its own random source, like base set `base`'s distribution, checked at sampled positions
// (gpu/sample_check.h: the timing, audited and library calls of families that can be sampled).
enum class Content { transformed, repeat, fresh };
const char* to_string(Content c);
bool content_from_string(const std::string& s, Content& out);
// Whether a call of this content has inputs no earlier call had (transformed or fresh).
inline bool new_inputs(Content c) {
  return c != Content::repeat;
}

struct PrepareCommand {
  int workload = 0, slot = 0;
  Content content = Content::transformed;
  int base = 0;                      // transformed: which base set; fresh: whose distribution
  std::uint64_t transform_seed = 0;  // transformed: 0 = identity; fresh: unused
  std::uint64_t poison_seed = 0;
  Json to_json() const;
};

struct VerifyCommand {
  int workload = 0, slot = 0;
  Json to_json() const;
};

// "baseline": one timed run of the library on exactly the slot's current inputs, made on a
// tensor set of the verifier's own (a copy of the slot's inputs, its outputs poisoned with the
// slot's poison): the library's output is never written to memory the broker maps. With `check`
// the reply carries the library's own check against the reference (Reply::check).
struct BaselineCommand {
  int workload = 0, slot = 0;
  bool check = false;
  Json to_json() const;
};

// "library": `count` runs of the library baseline, back to back, each after an L2 flush and
// between two events, on the verifier's private tensors of `workload`, never exported to the
// runner. The verifier keeps one private tensor set per slot of the workload (private set s
// holds base set s % bases); run i uses private set (slot + i) % slots, so the library walks
// the same number of buffer sets in the same order as the candidate's calls of the round (a
// library reusing one warm buffer set while the candidate rotates over four measured 2-3%
// faster on the H200: docs/results/2026-12-01-h200-third.md). Reply: event_ms = the sum,
// extra.events_ms.
struct LibraryCommand {
  int workload = 0, count = 1, slot = 0;
  Json to_json() const;
};

// "heat": the library run back to back on its private tensors of the timed workload for `ms`
// milliseconds of wall time, then a wait for the GPU; sent before every burst of the
// candidate's calls when EvalOptions::sustained_load_ms > 0, so that every call, checked,
// timed or audited, starts on a GPU in the state a tight benchmark loop keeps it in (clocks
// settled under the power cap). Reply: extra.runs, extra.ms.
struct HeatCommand {
  double ms = 0;
  Json to_json() const;
};

// "scrub": the verifier zeroes again the slack around every exported tensor (the bytes of its
// 2 MiB blocks before and after the tensor: gpu::DeviceBuffer::exported). A candidate may write
// there unnoticed (nothing of the verifier's is there, and its checks cover the tensors); the
// parent sends it before every runner of a session but the first, once the one before has
// ended, so nothing one runner leaves there reaches the next (an audit runner could otherwise
// tell it is one). Reply: ok.

// What the verifier found after one call.
struct CallCheck {
  std::vector<gpu::CompareStats> outputs;
  std::vector<std::string> inputs_modified;  // names of inputs whose checksum changed
  bool all_unwritten = false;                // every output element still holds this call's poison
  bool matches_previous = false;  // failed, but matches what the slot's previous inputs give
  bool passed() const;
  Json to_json() const;
  static Result<CallCheck> from_json(const Json& j);
};

// ---- broker commands ---------------------------------------------------------------------
// One call of the candidate on one slot.
struct CallTarget {
  int workload = 0, slot = 0;
};

// "call": a burst of calls on distinct slots, made back to back (per call: the host runs the
// entry point, then the broker enqueues an L2 flush, the start event, the call's work and the end
// event) and waited for once, so the GPU works as it would in a loop of calls. "noop" is the same
// burst of the broker's own no-op (calibration, before the candidate is loaded). The reply:
// event_ms = the sum, extra.events_ms per call, extra.launches per call [[function, count], ...]
// in first-launch order (every kernel launch the broker made for it), extra.host_ms per call (the
// host's time before its work began: not GPU time), extra.side_streams per call (stream
// handles other than the one the candidate was given), extra.stale per call (sentences: launches
// or copies carrying another call's buffers) and extra.kept_bytes per call (workspace an earlier
// call left held; eval/call_diagnoses.h reads these three). A failed call's reply status says
// whose it was (BrokerStatus).
// With function_times (the parent asks it for checked calls, never for timing samples: the
// events between launches cost a little GPU time) the broker also records an event pair around
// each kernel launch, the first kMaxTimedLaunchesPerCall of a call, and replies
// extra.function_ms per call [[function, ms], ...] (the GPU time of its launches, first-launch
// order) and extra.untimed_launches per call (launches past that bound). The audit chooses the
// functions it instruments by these times (audit_selection.h); the broker measured them, the
// candidate's process cannot report them.
inline constexpr int kMaxTimedLaunchesPerCall = 4096;
// How much of the GPU the broker's SM load takes (gpu/sm_load.h): half the SMs, all but an
// eighth of them ("most"), or all but one ("all_but_one"; a launch in clusters meets the half
// only).
// Ordered by size: plan_load keeps the largest a burst's calls ask for.
enum class LoadShare { half, most, all_but_one };
const char* to_string(LoadShare s);
bool load_share_from_string(const std::string& s, LoadShare& out);
// The share in words for people, before "SMs" or "GPU's SMs": "half the", "all but an eighth of
// the", "all but one of the" (a check's label, a verdict's message).
const char* share_words(LoadShare s);

struct CallCommand {
  std::vector<CallTarget> calls;  // at least one
  bool function_times = false;
  // The SMs of `sm_load_share` busy with the broker's own kernel during the burst
  // (gpu/sm_load.h): another schedule for the candidate's blocks. The reply's extra.sm_load says
  // whether it was held, and extra.sm_load_outlasted whether the burst's work was still running
  // (by the broker's clock) when the load's `sm_load_ms` had passed (0: the broker's default,
  // kSmLoadDefaultMs), i.e. whether some of it ran without the load; extra.sm_load_bare whether
  // a launch of it ran beside no part of the load (cooperative, or in wide clusters).
  bool sm_load = false;
  double sm_load_ms = 0;
  LoadShare sm_load_share = LoadShare::half;
  Json to_json(const char* op = "call") const;
};

// "audit_arm" {function}: cupti: the SASS metrics start at `function`'s next launch; nvtx: the
// audit range opens. "audit_collect": cupti: flush, reply extra = {chip, enabled_for, records:
// [[function, pc, warp_executed, thread_pred_on], ...], dropped_records, error, error_kind};
// nvtx: the range closes. Calls between the two are ordinary calls.
// How much longer an audited call may take than the call limit (at most
// kAuditedCallMaxSeconds): instrumented kernels run 10-1000x slower (SASS patching; ncu's
// replay passes). Applied by the runner to its deadline and by the parent to its wait while
// the audit is armed (audited_call_limit).
inline constexpr double kAuditedCallSlowdown = 20;
inline constexpr double kAuditedCallMaxSeconds = 60;  // and never more than this
// What the parent assumes an instrumented call costs against an uninstrumented one when it
// chooses the audited workloads (CUPTI SASS patching).
// Naive kernels ran >1000x slower on the H200 (2026-12-01), so this is not a bound: an audited
// call past its limit leaves the audit without its counts (no credit), never a timeout verdict.
inline constexpr double kInstrumentedSlowdown = 300;
// An audited call on the audit workload estimated (at kInstrumentedSlowdown) to take longer than
// this moves to a smaller hidden workload (JudgeSession::pick_audited): a naive attention
// backward kernel's audit on the largest hidden one took 2.0 s (two audited calls, one per
// kernel function, and a runner's start; docs/results/2026-12-01-h200-seventh.md).
inline constexpr double kAuditWorkloadBudgetSeconds = 0.5;

inline double audited_call_limit(double call_timeout_seconds) {
  const double widened = call_timeout_seconds * kAuditedCallSlowdown;
  return widened < kAuditedCallMaxSeconds ? widened : kAuditedCallMaxSeconds;
}

struct AuditArmCommand {
  std::string function;
  Json to_json() const;
};
Result<AuditArmCommand> audit_arm_from_json(const Json& j);

// How a broker command ended (its reply's status). Whose failure each is: judge_session.cc.
enum class BrokerStatus {
  ok,
  call_timeout,  // the host's entry point or the device's work outlived the call limit
  cuda_error,    // a CUDA error while the broker ran the candidate's work
  // An illegal memory access while it ran the candidate's work (cudaErrorIllegalAddress): any
  // write to an input (mapped read-only) faults so, as does an access outside every buffer.
  illegal_address,
  input_written,    // the host's request would write into an input (error: which and where)
  candidate_error,  // the candidate's entry point threw (or its tvm-ffi run failed)
  host_protocol,    // the host process wrote what is not a request, or one out of turn
  host_ended,       // the host process ended (the parent reads how: a refusal, a crash)
  refused_request,  // a request the contract does not allow (memory it does not own, ...)
  policy_refused,   // a driver function off the allow-list (error: its name)
  load_error,       // the candidate could not be loaded (error: why)
  bad_request,      // the parent's command was malformed
  harness_error,    // the broker itself failed
  // audit_arm / audit_collect: the broker's instrumentation (CUPTI) could not arm or collect; the
  // audit fails, not the session (the broker goes on serving). Last: broker_status_from_string.
  audit_error,
};
std::string_view to_string(BrokerStatus s);  // a switch: a status without its name won't compile
std::optional<BrokerStatus> broker_status_from_string(std::string_view s);

// How a verifier command ended (its reply's status).
enum class VerifierStatus {
  ok,
  // No CUDA device could be used at all (no driver, none visible), found before the first
  // command: its error is CUDA's and names no workload, so the parent may show it.
  no_device,
  bad_request,     // the parent's command was malformed, or out of turn
  library_failed,  // the library baseline failed ("heat": the session goes on without it)
  harness_error,   // the verifier itself failed (its error may name any workload, hidden too);
                   // last: verifier_status_from_string
};
std::string_view to_string(VerifierStatus s);
std::optional<VerifierStatus> verifier_status_from_string(std::string_view s);

// A reply's status: the BrokerStatus or VerifierStatus its process wrote. On the wire it is the
// status's name (ok, bad_request and harness_error are names of both); a name of neither makes
// the reply malformed (Reply::parse). Readers ask for the enum of the process they talk to.
class ReplyStatus {
 public:
  ReplyStatus() = default;                                // harness_error
  ReplyStatus(BrokerStatus s) : name_(to_string(s)) {}    // NOLINT: implicit on purpose
  ReplyStatus(VerifierStatus s) : name_(to_string(s)) {}  // NOLINT: implicit on purpose
  static std::optional<ReplyStatus> from_name(std::string_view name);
  std::optional<BrokerStatus> broker() const { return broker_status_from_string(name_); }
  std::optional<VerifierStatus> verifier() const { return verifier_status_from_string(name_); }
  std::string_view name() const { return name_; }
  bool operator==(BrokerStatus s) const { return name_ == to_string(s); }
  bool operator==(VerifierStatus s) const { return name_ == to_string(s); }

 private:
  std::string_view name_ = "harness_error";  // a name of the two tables (static storage)
};

// One reply line of either process.
struct Reply {
  bool ok = false;
  ReplyStatus status;
  std::string error;
  std::string phase;
  double event_ms = 0;             // call / baseline / library: time between the events (sum)
  std::optional<CallCheck> check;  // verify / baseline (when asked)
  Json extra = Json::object();     // ready: handles, provenance
  Json to_json() const;
  static Result<Reply> parse(const std::string& line);
};

// A burst's reply carries each call's event time (extra.events_ms) and their sum (event_ms):
// written by the runner and the verifier, read by the parent (empty when malformed).
void set_events(Reply& r, const std::vector<double>& events_ms);
std::vector<double> events_of(const Reply& r);
// One call's extra.function_ms entry: [[function, ms], ...] (CallCommand::function_times); a
// malformed pair or a negative or non-finite time is dropped.
std::vector<std::pair<std::string, double>> function_times_of(const Json& call);

// Parses one command line: {"op": ..., ...}; an Error for anything malformed.
struct Command {
  std::string op;  // prepare | verify | baseline | library | noop | load | call | quit ...
  Json body;
  static Result<Command> parse(const std::string& line);
};

Result<PrepareCommand> prepare_from_json(const Json& j);
Result<VerifyCommand> verify_from_json(const Json& j);
Result<BaselineCommand> baseline_from_json(const Json& j);
Result<CallCommand> call_from_json(const Json& j);
Result<LibraryCommand> library_from_json(const Json& j);
Result<HeatCommand> heat_from_json(const Json& j);

std::string to_hex(const void* data, std::size_t n);
Result<std::vector<unsigned char>> from_hex(const std::string& s);

}  // namespace ptxbench::eval
