// What a judging session's calls add up to: pure functions over what the parent recorded,
// unit-tested without a GPU (session_decision_test.cc).
//
// Correctness: the first candidate call whose check failed decides (every call is checked).
//   inputs_modified  an input's checksum differed before and after the call (inputs are
//                    read-only; a kernel that writes them changes the problem later calls see)
//   cached_result    the call left every output element as the verifier poisoned it although
//                    an earlier call on the same workload wrote its outputs, or its outputs are
//                    what the slot's PREVIOUS inputs give: a result carried over from an
//                    earlier call. Also when repeated-input calls ran much faster than new-input
//                    calls (below): the kernel recognised inputs it had seen.
//   output_unwritten an output of the failing call with every element still poisoned (not
//                    cached_result: no earlier call on the workload wrote it either).
// The failing call's message ends with what the broker saw in it (call_diagnoses.h: a stale
// pointer or tensor map, workspace kept from an earlier call, the default stream).
// Timing consistency (the broker reports event times; the parent's wall clock around each call
// cannot be forged from inside the broker):
//   side_stream      the candidate's median wall-minus-event overhead exceeds the broker's own
//                    (its calibration calls of a no-op, made before the candidate was loaded and
//                    timed the same way) by more than kOverheadAllowanceMs +
//                    kOverheadAllowanceShare x the candidate's wall time: device work ran outside
//                    the two events (another stream), or the event times were forged. The speedup
//                    is then taken from the wall time less the calibrated overhead. So a forger
//                    gains at most that allowance (0.1 ms + 5%; the overhead of an honest call
//                    spread by about that much on the H200, docs/results/2026-11-30-h200-judge.md).
//   cached_result    repeat calls' median time < kRepeatRatio x new-input calls' median, with at
//                    least kMinRepeats repeats (kMinRepeatsKnownSlow for a candidate timed on
//                    its checked calls), on the speedup's basis (events; the wall clock
//                    less the calibrated overhead under side_stream). The repeats are every call
//                    on the timed workload that repeated the previous call's inputs, the checked
//                    one (plan.h) and the timing phase's; the timing phase always ends with
//                    that many (judge_session.cc).
// A candidate known to be slow (known_slow) is timed on its checked calls: its speedup is the
// library's samples' median over theirs. When those calls worked outside their events
// (checked_work_outside_events) they are side_stream, and both the known-slow test and the
// speedup use their wall times less the calibrated overhead: events forged or on one stream of
// several are not the candidate's time (a 0.001x kernel could otherwise claim 0.12x).
// Every candidate call is a burst of one (plan.h); the calibration no-ops run in bursts of
// kTimingBurst (= 1), so a call's wall time is its own round trip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/outcome.h"
#include "eval/call_diagnoses.h"
#include "eval/flags.h"
#include "eval/plan.h"
#include "eval/session_protocol.h"
#include "eval/speedup_basis.h"
#include "eval/stats.h"

namespace ptxbench::eval {

// One call of the session as the parent saw it.
struct CallRecord {
  int index = 0;
  PlannedCall plan;
  bool baseline = false;  // the library, run by the verifier
  bool timing = false;    // a sample of the timing phase (after warm-up)
  // A checked call that is also a timing sample: a candidate known to be slow before its timing
  // phase (known_slow below) is timed on its checked calls.
  bool checked_sample = false;
  bool calibration = false;  // the broker's no-op before the candidate was loaded
  double event_ms = 0;       // as reported by the process that ran it
  double wall_ms = 0;        // measured by the parent around the command
  double host_ms = 0;        // the host's time before its work, taken out of wall_ms
  std::optional<CallCheck> check;
  bool audited = false;  // made while the instruction audit was armed (audit_trace.h)
  // The candidate's host process had made a call on a hidden workload before this one: what
  // this call outputs is the candidate's and may carry that workload's sizes.
  bool after_hidden = false;
  int broker = 0;  // which broker process of the session made it (1 = the first)
  // That broker's number of the call (host::RunCall::call; 0 = not said): its counters' range
  // (worker/call_counters.h, timed_counts.h).
  std::uint64_t broker_call = 0;
  // Kernel launches the broker's instrumentation saw in this call, (function, count).
  std::vector<std::pair<std::string, int>> launches;
  // GPU time of each function's launches in this call, measured by the broker (CallCommand::
  // function_times; checked calls only), and the launches past its bound (not measured).
  std::vector<std::pair<std::string, double>> function_ms;
  int untimed_launches = 0;
  CallDiagnoses seen;  // what the broker saw the host code do (call_diagnoses.h)
  // Every launch of the call asked for a cooperative grid (its blocks start together: under the
  // SM load it may wait for the load to end).
  bool cooperative = false;
  // A loaded call (plan.sm_load) whose work was still running, by the broker's clock, when the
  // load's time (sm_load_ms) was up, without a cooperative launch: it waited the load out.
  bool load_outlasted = false;
  std::string load_note;  // the broker's times of it (for people: EvalResult::withheld)
  // The call faulted with an illegal address and this is its re-run in a broker that mapped the
  // inputs writable (JudgeSession::input_write_rerun): kept only when it changed an input.
  bool rerun_after_fault = false;
};

// How long the SM load of a loaded burst of `burst_calls` calls on `workload` holds
// (CallCommand::sm_load_ms; one load covers the whole burst): kSmLoadTimesUnloaded times the
// longest time of the candidate's earlier unloaded calls on that workload (its wall time or its
// events, whichever is longer, plus the host's time before its work: the load holds from
// before the host runs), once per call of
// the burst, plus kSmLoadFloorMs: half the SMs slow an honest kernel 2.0x (measured on an H100,
// gpu/sm_load.h), so only work that waits for the load's SMs outlasts it (red team
// leak4/sched_outwait_load.cu). Until 2026-12-07 a loaded timing round of several calls got one
// call's load, and slow honest kernels outlasted it.
// The larger share (all but an eighth of the SMs) slows an honest kernel about 8x, 4 times the
// half's 2x: its load holds kSmLoadMostFactor times as long, and a burst gets it only when
// kSmLoadMostSlowdown times its longest unloaded call fits in half the call limit (else the
// half): on an H100 (2026-12-07) naive kernels of 1.2 s a call timed out under the larger share
// with the controls runner's 5 s limit, where they pass under the half.
inline constexpr double kSmLoadFloorMs = 100;
inline constexpr double kSmLoadTimesUnloaded = 4;
inline constexpr double kSmLoadMostFactor = 5;
inline constexpr double kSmLoadMostSlowdown = 10;
// All but one SM busy slows a grid of many blocks about as many times as the GPU has SMs (132 on
// an H100): its load holds kSmLoadAllButOneSlowdown times the longest unloaded call, and a burst
// gets it only when that is at most kSmLoadAllButOneMaxMs (and half the call limit), else the
// larger share's rule decides: a check of about 5 ms at most, slowed to about 0.7 s. Not yet
// measured on a GPU.
inline constexpr double kSmLoadAllButOneSlowdown = 200;
inline constexpr double kSmLoadAllButOneMaxMs = 1000;
// The longest unloaded call on `workload`, ms: its wall time or its events, whichever is longer,
// plus the host's time before its work (the load holds from before the host runs). 0 before any.
double longest_unloaded(const std::vector<CallRecord>& calls, int workload);
double sm_load_ms(const std::vector<CallRecord>& calls, int workload, std::size_t burst_calls,
                  LoadShare share = LoadShare::half);
// Whether `workload`'s calls are fast enough for all but one SM busy: kSmLoadAllButOneSlowdown
// times its gate time within kSmLoadAllButOneMaxMs and half the call limit. The gate time (the
// work's, without the host's time before it): the median of the timing samples once there are
// some (the timing phase: the candidate cannot raise it without losing speed), else the longest
// unloaded call (the checks: the candidate can raise it for free, red team leak13). False before
// any unloaded call on it.
bool fits_all_but_one(const std::vector<CallRecord>& calls, int workload,
                      double call_limit_seconds);
// How many timing rounds with all but one SM busy the timing phase makes on `workload` (one per
// buffer set at most, JudgeSession::timing_phase): 0 where it does not fit (fits_all_but_one),
// else as many as kSmLoadAllButOneMaxMs of load allows in all (kSmLoadAllButOneSlowdown times
// the gate time each), at least one, at most `slots`.
std::size_t all_but_one_rounds(const std::vector<CallRecord>& calls, int workload,
                               double call_limit_seconds, int slots = 4);
// The hidden workloads (`hidden`, per workload) fit for a check with all but one SM busy after
// the timing phase: each one's time estimated from the timed workload's (its gate time, the
// timing samples' median, which the candidate pays to raise) scaled by the workloads' FLOPs
// (`flops`, per workload; 0: unknown, never fit), within kSmLoadAllButOneMaxMs and half the call
// limit, and none that already had such a check. The hidden calls' own times (the candidate's to
// raise for free, red team leak13/steer_share_to_safe.cu) decide nothing here.
std::vector<int> hidden_all_but_one_workloads(const std::vector<CallRecord>& calls,
                                              const std::vector<double>& flops,
                                              const std::vector<bool>& hidden,
                                              double call_limit_seconds);
// Which loaded checks of `checks` (from index `from` on, the checks not yet made) get all but one
// SM busy, decided by the session at its first loaded check, when every hidden workload and the
// timed one have had unloaded calls: the first of the timed workload's, where a kernel's
// shortcut pays, and one of the hidden workloads', drawn by `draw`, each only where it fits
// (fits_all_but_one). Since the share follows the calls' speed, a kernel slow on the hidden
// sizes (their speed is never timed) keeps the share off them, not off the timed workload's check
// (a reviewer's reading of the plan-time draw, 2026-12-07). Indices into `checks`, ascending.
std::vector<std::size_t> all_but_one_checks(const std::vector<PlannedCall>& checks,
                                            std::size_t from, const std::vector<CallRecord>& calls,
                                            double call_limit_seconds, std::uint64_t draw);
// A burst's load, from its calls' plans: loaded when any is, the largest share any asks for,
// lowered (all but one -> most -> half) while the workload's gate time (fits_all_but_one) is too
// slow for it under `call_limit_seconds` (above), for sm_load_ms (which follows the longest).
void plan_load(CallCommand& cmd, const std::vector<CallRecord>& calls,
               const std::vector<PlannedCall>& burst, double call_limit_seconds);

struct CorrectnessFindings {
  bool passed = true;
  int failing_call = -1;  // index into the records
  std::vector<Flag> flags;
  std::string message;   // names no call and no input the candidate chose after a hidden call
  std::string withheld;  // then: which call and which inputs, for people (EvalResult::withheld)
};
// The checked calls' session budget: together they may take kChecksBudgetCalls call limits
// (each is also held to one). A candidate's time on calls nobody times (the hidden checks) is its
// own: past the budget the session ends, `timeout`, so slowness kept off the timed calls costs
// the judge at most this much (red team: 18 s spent in each hidden check under a 20 s limit).
inline constexpr double kChecksBudgetCalls = 3;
// The time the checked calls among `calls` took together, in seconds: per call the larger of the
// broker's events and the parent's wall clock (the host's time before its work excluded). Timing
// samples, the library's calls, the calibration and audited calls do not count. A check under the
// SM load counts no more than the longest unloaded call on its workload: the load's slowdown is
// the judge's, and a loaded call past 4x that fails anyway (sm_load_ms, load_outlasted). Since
// every hidden workload is re-checked under the load (71522b1), an honest naive GEMM of 1.2 s a
// call went past 3 call limits of 5 s (H100, 2026-12-07: compat/helper_named_cudacheck).
double checks_seconds(const std::vector<CallRecord>& calls);

CorrectnessFindings judge_calls(const std::vector<CallRecord>& calls,
                                const std::vector<bool>& workload_hidden);

// The library as the yardstick. Where the library itself misses the task's rule on the inputs a
// candidate failed on (JudgeSession::library_fails_too), the failure is not the candidate's only
// when the candidate is at least as accurate as the library there, output by output: no more
// non-finite or unwritten elements than the library's, a relative L2 error at most
// kYardstickSlack times the library's (plus kYardstickL2Floor), failing elements at most
// kYardstickSlack times the library's plus kYardstickFailedFloor, and a worst element at most
// kYardstickSlack times the library's worst, in units of what the rule allows it (so a few
// elements pushed far off, hiding among the library's borderline ones, are the candidate's:
// red team 2026-12-04, attn_bwd_yardstick_nudge). A kernel that zeroes an output
// on outlier-heavy inputs (relative L2 1.0 against the library's ~1e-3) is clearly worse:
// incorrect, not excused. `why` says which output decided it and by how much.
inline constexpr double kYardstickSlack = 2.0;
inline constexpr double kYardstickL2Floor = 1e-4;
inline constexpr std::int64_t kYardstickFailedFloor = 8;
struct Yardstick {
  bool as_accurate = false;
  std::string why;
};
Yardstick compare_with_library(const CallCheck& candidate, const CallCheck& library);

// The candidate's call time under side_stream: its median wall time less the broker's
// calibrated overhead (never below 1 ns); its speedup and TFLOP/s both use it.
inline double wall_clock_call_ms(double wall_median_ms, double calibrated_overhead_ms) {
  const double ms = wall_median_ms - calibrated_overhead_ms;
  return ms > 1e-6 ? ms : 1e-6;
}

inline constexpr double kOverheadAllowanceMs = 0.10;
inline constexpr double kOverheadAllowanceShare = 0.05;
inline constexpr double kRepeatRatio = 0.7;
inline constexpr std::size_t kMinRepeats = 3;
// For a candidate known to be slow (timed on its checked calls, at most a quarter of the
// library's speed): its checked repeat and one closing repeat. Its calls are long, so two
// repeats are far from the kRepeatRatio line unless it skips work, and each one more cost the
// naive attention backward kernels 0.66 s (docs/results/2026-12-01-h200-seventh.md).
inline constexpr std::size_t kMinRepeatsKnownSlow = 2;

struct TimingFindings {
  std::vector<Flag> flags;
  bool incorrect = false;  // cached_result from timing makes the candidate incorrect
  std::string message;
  SampleSummary candidate, candidate_wall, baseline, baseline_wall, repeats;
  double calibrated_overhead_ms = 0;          // median wall - event of the calibration calls
  std::optional<double> speedup;              // from events, or from wall times under side_stream
  std::optional<double> speedup_rel_ci95;     // of the event-time speedup (stats.h)
  std::optional<SpeedupBasis> speedup_basis;  // none: no speedup
};
TimingFindings judge_timing(const std::vector<CallRecord>& calls);

// A call on the timed workload that repeated the previous call's inputs (checked or timed).
bool timed_repeat(const CallRecord& c);
std::size_t timed_repeats(const std::vector<CallRecord>& calls);

// The checked calls (before the timing phase) on the timed workload after the session's first
// candidate call (cold: its module, caches and clocks start there), as indices into `calls`.
std::vector<std::size_t> later_checked_timed_calls(const std::vector<CallRecord>& calls);

// Did the checked calls after the session's first do work outside their events (another
// stream, or forged event times)? The median over those on the timed workload with new inputs
// (the calls whose times are known_slow's and the checked samples'; not a further audit broker's
// call) of each one's round trip less its events, less the broker's calibrated overhead and
// side_stream's allowance (above), is above zero. False without calibration calls.
bool checked_work_outside_events(const std::vector<CallRecord>& calls);

// The times (ms) of the calls `which` (indices into `calls`, checked calls) on the basis of the
// checked calls: their events, or their wall times less the calibrated overhead when
// checked_work_outside_events.
std::vector<double> checked_times_ms(const std::vector<CallRecord>& calls,
                                     const std::vector<std::size_t>& which);

// Is the candidate far below the library before its timing phase? Its later checked calls with
// new inputs (at least 2, on checked_times_ms's basis) against the library's opening check,
// `library_ms` (one cold call: if anything slower than the library's samples, so the test errs
// towards timing as usual): library_ms / their median < slow_speedup / 2. Such a candidate is
// timed on those calls (judge_session.cc): the slow stop (stats.h) then needs no round of its
// own.
bool known_slow(const std::vector<CallRecord>& calls, double library_ms, double slow_speedup);

// Has a candidate timed on its checked calls (known_slow) become far faster since? Its repeats
// of the timing phase against its checked samples (on checked_times_ms's basis), by the ratio of
// the repeat-speed check (kRepeatRatio): a kernel slow in its first calls only would otherwise be a
// false cached_result, timed on calls that are not its speed. Such a candidate is timed as usual (a
// kernel fast on repeats only is then caught by its timing calls).
bool faster_since_checks(const std::vector<CallRecord>& calls);

// May a warm verifier be given back for the next session after one that ended with `outcome`?
// Not after harness_error (something on the trusted side failed: a verifier that timed out may
// still be answering); after every outcome of the candidate's, and after task_suite_error (the
// library's own check failed the task's rule: the verifier did its work), it may.
bool verifier_reusable_after(Outcome outcome);

}  // namespace ptxbench::eval
