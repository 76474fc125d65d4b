#include "eval/session_decision.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace ptxbench::eval {
namespace {

gpu::CompareStats out_stats(bool passed, std::int64_t numel = 100, std::int64_t unwritten = 0) {
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = numel;
  s.unwritten = unwritten;
  s.failed = passed ? 0 : std::max<std::int64_t>(unwritten, 1);
  s.passed = passed;
  return s;
}

CallRecord call(int index, bool passed, Content content = Content::transformed, int workload = 0) {
  CallRecord c;
  c.index = index;
  c.plan.workload = workload;
  c.plan.content = content;
  c.plan.label = "timed workload timed (M=8)";
  c.check = CallCheck{};
  c.check->outputs = {out_stats(passed)};
  return c;
}

TEST(SessionDecision, AllCallsPassing) {
  auto f = judge_calls({call(0, true), call(1, true)}, {false});
  EXPECT_TRUE(f.passed);
  EXPECT_TRUE(f.flags.empty());
}

TEST(SessionDecision, FirstFailingCallDecides) {
  auto f = judge_calls({call(0, true), call(1, false), call(2, false)}, {false});
  EXPECT_FALSE(f.passed);
  EXPECT_EQ(f.failing_call, 1);
  EXPECT_TRUE(f.flags.empty());
  EXPECT_NE(f.message.find("call 2 of the session"), std::string::npos);
}

TEST(SessionDecision, ModifiedInputsAreNamed) {
  auto bad = call(0, true);
  bad.check->inputs_modified = {"A"};
  auto f = judge_calls({bad}, {false});
  EXPECT_FALSE(f.passed);
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::inputs_modified});
  EXPECT_NE(f.message.find("A"), std::string::npos);
}

TEST(SessionDecision, UnwrittenOutputsAfterAWrittenCallAreACachedResult) {
  auto skipped = call(1, false, Content::repeat);
  skipped.check->outputs = {out_stats(false, 100, 100)};
  skipped.check->all_unwritten = true;
  auto f = judge_calls({call(0, true), skipped}, {false});
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::cached_result});
  // ... but a kernel that never writes anything is just incorrect.
  auto first = skipped;
  first.index = 0;
  auto g = judge_calls({first}, {false});
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.flags, std::vector<Flag>{Flag::output_unwritten});
  EXPECT_NE(g.message.find("output C was never written (all 100 elements still hold the poison"),
            std::string::npos)
      << g.message;
  // ... and an earlier pass on ANOTHER workload does not count.
  auto h = judge_calls({call(0, true, Content::transformed, 1), first}, {false, true});
  EXPECT_EQ(h.flags, std::vector<Flag>{Flag::output_unwritten});
}

// On a hidden call the never-written output's element count would be the hidden size (seen on the
// H100: 379904 = 53 x 7168, M_small): the message names the output, withheld keeps the count.
TEST(SessionDecision, AnUnwrittenOutputOnAHiddenCallGivesNoCount) {
  auto c = call(0, false, Content::transformed, 1);
  c.check->outputs = {out_stats(false, 379904, 379904)};
  auto f = judge_calls({c}, {false, true});
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::output_unwritten});
  EXPECT_NE(f.message.find("output C was never written"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("379904"), std::string::npos) << f.message;
  EXPECT_NE(f.withheld.find("379904"), std::string::npos) << f.withheld;
  c.plan.workload = 0;  // the timed workload after a hidden call: the same
  c.after_hidden = true;
  f = judge_calls({c}, {false, true});
  EXPECT_EQ(f.message.find("379904"), std::string::npos) << f.message;
}

// Issue 36 item 4e: an output never written is named (LSE left poisoned while O is right); one
// written in part is not "never written".
TEST(SessionDecision, AnOutputNeverWrittenIsNamed) {
  auto c = call(0, false);
  c.check->outputs = {out_stats(true), out_stats(false, 64, 64)};
  c.check->outputs[1].tensor = "LSE";
  auto f = judge_calls({c}, {false});
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::output_unwritten});
  EXPECT_NE(f.message.find("output LSE was never written"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("output C was never"), std::string::npos) << f.message;
  c.check->outputs[1] = out_stats(false, 64, 63);
  EXPECT_TRUE(judge_calls({c}, {false}).flags.empty());
}

// What the broker saw in the failing call ends its message (call_diagnoses.h): a pointer kept
// from an earlier call, workspace kept, the default stream.
TEST(SessionDecision, TheFailingCallsMessageSaysWhatTheBrokerSaw) {
  auto c = call(1, false);
  c.seen.stale = {
      "a launch of 'k': bytes 0..8 point into input A of another call, not this "
      "call's"};
  c.seen.kept_bytes = 1024;
  auto f = judge_calls({call(0, true), c}, {false});
  EXPECT_NE(f.message.find("the outputs fail the correctness rule; the broker saw: a launch of "
                           "'k': bytes 0..8 point into input A of another call"),
            std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("1024 bytes of device memory that an earlier call allocated"),
            std::string::npos);
  // After a hidden call, the candidate's choices (its kernel's name, its allocation's size) are
  // not repeated.
  c.after_hidden = true;
  auto g = judge_calls({call(0, true), c}, {false});
  EXPECT_EQ(g.message.find("'k'"), std::string::npos) << g.message;
  EXPECT_EQ(g.message.find("1024"), std::string::npos) << g.message;
  EXPECT_NE(g.message.find("(stale_buffers)"), std::string::npos) << g.message;
  // A passing call's diagnoses are flags only (judge_session.cc), never a failure message.
  auto ok = call(0, true);
  ok.seen.kept_bytes = 1024;
  EXPECT_TRUE(judge_calls({ok}, {false}).message.empty());
}

TEST(SessionDecision, OutputsOfThePreviousInputsAreACachedResult) {
  auto stale = call(1, false);
  stale.check->matches_previous = true;
  auto f = judge_calls({call(0, true), stale}, {false});
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::cached_result});
}

TEST(SessionDecision, HiddenWorkloadsAreNotDescribed) {
  auto bad = call(0, false, Content::transformed, 1);
  bad.plan.label = "hidden workload m1001 (M=1001)";
  auto f = judge_calls({bad}, {false, true});
  EXPECT_EQ(f.message.find("1001"), std::string::npos);
  EXPECT_NE(f.message.find("hidden workload"), std::string::npos);
}

// Wrong under the SM load after a right call on the same workload: schedule_dependent. Wrong
// under the load with no earlier right call: an ordinary failure.
TEST(SessionDecision, AFailureOnlyUnderAnotherScheduleIsScheduleDependent) {
  CallRecord loaded = call(2, false, Content::transformed, 1);
  loaded.plan.sm_load = true;
  auto f =
      judge_calls({call(0, true, Content::transformed, 1), call(1, true), loaded}, {false, true});
  EXPECT_FALSE(f.passed);
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::schedule_dependent});
  EXPECT_NE(f.message.find("half the GPU's SMs were busy"), std::string::npos) << f.message;
  loaded.plan.sm_load_share = LoadShare::most;  // the message names the load's share
  EXPECT_NE(
      judge_calls({call(0, true, Content::transformed, 1), call(1, true), loaded}, {false, true})
          .message.find("all but an eighth of the GPU's SMs were busy"),
      std::string::npos);
  loaded.plan.sm_load_share = LoadShare::half;
  EXPECT_NE(f.message.find("a hidden workload"), std::string::npos) << f.message;
  auto alone = judge_calls({call(0, true), loaded}, {false, true});
  EXPECT_TRUE(alone.flags.empty());
}

// A loaded call whose work outlasted the load (it waited the load out, red team
// leak4/sched_outwait_load.cu) fails although its outputs are right: schedule_dependent. Unless
// every launch of it was cooperative (its blocks start together: waiting for the load is the
// launch's, as it may). The load lasts kSmLoadTimesUnloaded times the longest unloaded call on
// that workload per call of the burst, plus kSmLoadFloorMs.
TEST(SessionDecision, ALoadedCallThatOutlastedTheLoadIsScheduleDependent) {
  CallRecord waited = call(1, true);
  waited.plan.sm_load = true;
  waited.load_outlasted = true;
  auto f = judge_calls({call(0, true), waited}, {false});
  EXPECT_FALSE(f.passed);
  EXPECT_EQ(f.failing_call, 1);
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::schedule_dependent});
  EXPECT_NE(f.message.find("still running when the load"), std::string::npos) << f.message;
  waited.load_note = "the load's time 140 ms, the call's work 150 ms";
  f = judge_calls({call(0, true), waited}, {false});
  EXPECT_EQ(f.message.find("150 ms"), std::string::npos) << f.message;  // for people only
  EXPECT_NE(f.withheld.find("the call's work 150 ms"), std::string::npos) << f.withheld;
  waited.load_outlasted = false;  // what candidate_burst sets for an all-cooperative call
  EXPECT_TRUE(judge_calls({call(0, true), waited}, {false}).passed);

  std::vector<CallRecord> calls{call(0, true), call(1, true),
                                call(2, true, Content::transformed, 1)};
  calls[0].wall_ms = 3, calls[1].wall_ms = 7, calls[2].wall_ms = 500;  // 2: another workload
  EXPECT_DOUBLE_EQ(sm_load_ms(calls, 0, 1), kSmLoadFloorMs + kSmLoadTimesUnloaded * 7);
  // A loaded timing round of 5 calls: one load covers them all.
  EXPECT_DOUBLE_EQ(sm_load_ms(calls, 0, 5), kSmLoadFloorMs + kSmLoadTimesUnloaded * 7 * 5);
  // All but an eighth of the SMs: kSmLoadMostFactor times as long.
  EXPECT_DOUBLE_EQ(sm_load_ms(calls, 0, 1, LoadShare::most),
                   kSmLoadFloorMs + kSmLoadTimesUnloaded * kSmLoadMostFactor * 7);
  calls[0].event_ms = 9;  // events longer than the wall time (the host's wait taken out of it)
  EXPECT_DOUBLE_EQ(sm_load_ms(calls, 0, 1), kSmLoadFloorMs + kSmLoadTimesUnloaded * 9);
  calls[0].event_ms = 0;
  calls[1].host_ms = 200;  // the load holds through the host's time too
  EXPECT_DOUBLE_EQ(sm_load_ms(calls, 0, 1), kSmLoadFloorMs + kSmLoadTimesUnloaded * 207);
  calls[1].host_ms = 0;
  calls[1].plan.sm_load = true;  // a loaded call's own time does not size the next load
  EXPECT_DOUBLE_EQ(sm_load_ms(calls, 0, 1), kSmLoadFloorMs + kSmLoadTimesUnloaded * 3);
  EXPECT_DOUBLE_EQ(sm_load_ms({}, 0, 1), kSmLoadFloorMs);
}

// The library as the yardstick: a check of one output with these errors.
CallCheck check_of(const std::string& tensor, std::int64_t failed, double rel_l2,
                   std::int64_t nonfinite = 0, double worst = 1.5) {
  gpu::CompareStats s;
  s.tensor = tensor;
  s.numel = 1 << 20;
  s.failed = failed;
  s.rel_l2 = rel_l2;
  s.nonfinite = nonfinite;
  s.worst_rule_ratio = worst;
  CallCheck c;
  c.outputs = {s};
  return c;
}

// cuDNN's backward misses the rule on a few elements of spiky inputs; a kernel with errors of
// its size is excused (task_suite_error), one that zeroes the output is not.
TEST(SessionDecision, TheLibraryIsTheYardstickWhereItMissesTheRule) {
  const CallCheck library = check_of("dQ", 16, 3e-3);
  EXPECT_TRUE(compare_with_library(check_of("dQ", 20, 4e-3), library).as_accurate);
  EXPECT_TRUE(compare_with_library(check_of("dQ", 3, 1e-3), library).as_accurate);
  Yardstick zeroed = compare_with_library(check_of("dQ", 1 << 20, 1.0), library);
  EXPECT_FALSE(zeroed.as_accurate);
  EXPECT_NE(zeroed.why.find("dQ: relative L2 error 1, the library's 0.003"), std::string::npos)
      << zeroed.why;
  // Within the L2 error but far more failing elements, or any non-finite one more: worse.
  EXPECT_FALSE(compare_with_library(check_of("dQ", 41, 3e-3), library).as_accurate);
  EXPECT_TRUE(compare_with_library(check_of("dQ", 40, 3e-3), library).as_accurate);
  EXPECT_FALSE(compare_with_library(check_of("dQ", 16, 3e-3, 1), library).as_accurate);
  // A library with no failing element (another output failed) still bounds this one.
  EXPECT_FALSE(compare_with_library(check_of("dQ", 9, 1e-3), check_of("dQ", 0, 1e-3)).as_accurate);
  // Eight elements pushed 25x past what the rule allows, among the library's 16 borderline ones.
  EXPECT_FALSE(compare_with_library(check_of("dQ", 16, 3e-3, 0, 25.0), library).as_accurate);
  EXPECT_TRUE(compare_with_library(check_of("dQ", 16, 3e-3, 0, 2.9), library).as_accurate);
  CallCheck two = check_of("dQ", 0, 1e-3);
  two.outputs.push_back(two.outputs[0]);
  EXPECT_FALSE(compare_with_library(two, library).as_accurate);  // outputs do not match
}

TEST(SessionDecision, BaselineCallsNeverFailTheCandidate) {
  auto b = call(0, false);
  b.baseline = true;
  EXPECT_TRUE(judge_calls({b, call(1, true)}, {false}).passed);
}

std::vector<CallRecord> timing_calls(double cand_event, double cand_wall, double base_event,
                                     double base_wall, double repeat_event, int n = 20,
                                     double calibration_overhead = 0.05) {
  std::vector<CallRecord> v;
  for (int i = 0; i < 8; ++i) {
    CallRecord c;
    c.calibration = true;
    c.event_ms = 0.002;
    c.wall_ms = 0.002 + calibration_overhead;
    v.push_back(c);
  }
  for (int i = 0; i < n; ++i) {
    CallRecord c = call(static_cast<int>(v.size()), true);
    c.timing = true;
    c.event_ms = cand_event;
    c.wall_ms = cand_wall;
    v.push_back(c);
    CallRecord b = c;
    b.baseline = true;
    b.event_ms = base_event;
    b.wall_ms = base_wall;
    v.push_back(b);
    if (i % 4 == 0) {
      CallRecord r = c;
      r.plan.content = Content::repeat;
      r.event_ms = repeat_event;
      v.push_back(r);
    }
  }
  return v;
}

TEST(SessionDecision, HonestTimingUsesEvents) {
  auto t = judge_timing(timing_calls(1.0, 1.08, 1.1, 1.15, 1.0));
  EXPECT_TRUE(t.flags.empty());
  EXPECT_FALSE(t.incorrect);
  ASSERT_TRUE(t.speedup);
  EXPECT_DOUBLE_EQ(*t.speedup, 1.1);
  EXPECT_EQ(t.speedup_basis, SpeedupBasis::events);
}

TEST(SessionDecision, WorkOutsideTheEventsIsSideStreamAndTimedByWallClock) {
  // Events say 0.1 ms, the call took 1.05 ms from outside; a no-op call costs 0.05 ms.
  auto t = judge_timing(timing_calls(0.1, 1.05, 1.1, 1.15, 0.1));
  EXPECT_EQ(t.flags, std::vector<Flag>{Flag::side_stream});
  ASSERT_TRUE(t.speedup);
  EXPECT_NEAR(*t.speedup, 1.1 / 1.0, 1e-9);
  EXPECT_EQ(t.speedup_basis, SpeedupBasis::wall_clock);
  EXPECT_NEAR(t.calibrated_overhead_ms, 0.05, 1e-12);
}

TEST(SessionDecision, OverheadWithinTheAllowanceIsNotSideStream) {
  // The calibrated 0.3 ms (a context switch) plus 0.05 ms + 3% is tolerated ...
  auto t = judge_timing(timing_calls(1.0, 1.38, 1.1, 1.15, 1.0, 20, 0.3));
  EXPECT_TRUE(t.flags.empty());
  // ... a forged event time 10% short of the truth is not.
  auto f = judge_timing(timing_calls(0.9, 1.38, 1.1, 1.15, 0.9, 20, 0.3));
  EXPECT_EQ(f.flags, std::vector<Flag>{Flag::side_stream});
}

// Repeats are judged by their events: inside a burst a call has no wall time of its own.
TEST(SessionDecision, FastRepeatsAreACachedResult) {
  auto t = judge_timing(timing_calls(1.0, 1.05, 1.1, 1.15, 0.2));
  EXPECT_TRUE(t.incorrect);
  EXPECT_EQ(t.flags.front(), Flag::cached_result);
  EXPECT_NE(t.message.find("repeated"), std::string::npos);
  // Too few repeats to tell: no verdict.
  auto few = judge_timing(timing_calls(1.0, 1.05, 1.1, 1.15, 0.2, 4));
  EXPECT_FALSE(few.incorrect);
}

// The checked repeat (plan.h) counts: with two timed ones it makes kMinRepeats.
TEST(SessionDecision, TheCheckedRepeatCountsTowardsTheRepeats) {
  auto v = timing_calls(1.0, 1.05, 1.1, 1.15, 0.2, 4);  // 1 timed repeat: too few
  CallRecord checked = call(0, true, Content::repeat);
  checked.event_ms = 0.2;
  v.insert(v.begin(), checked);
  EXPECT_EQ(timed_repeats(v), 2u);
  EXPECT_FALSE(judge_timing(v).incorrect);
  CallRecord hidden = checked;  // a hidden workload's calls never count
  hidden.plan.workload = 1;
  v.insert(v.begin(), hidden);
  EXPECT_FALSE(judge_timing(v).incorrect);
  v.insert(v.begin(), checked);
  EXPECT_EQ(timed_repeats(v), 3u);
  EXPECT_TRUE(judge_timing(v).incorrect);
}

// The session's checked calls: the first (cold), the repeat, a hidden workload, two more on the
// timed workload; then the library's opening check.
std::vector<CallRecord> checked_calls(double fresh_ms, double first_ms) {
  std::vector<CallRecord> v;
  auto add = [&](Content content, int workload, double ms) {
    CallRecord c = call(static_cast<int>(v.size()), true, content, workload);
    c.event_ms = ms;
    v.push_back(c);
  };
  add(Content::transformed, 0, first_ms);
  add(Content::repeat, 0, fresh_ms);
  add(Content::transformed, 1, 0.01);
  add(Content::transformed, 0, fresh_ms);
  add(Content::transformed, 0, fresh_ms * 1.01);
  CallRecord lib = call(static_cast<int>(v.size()), true);
  lib.baseline = true;
  lib.event_ms = 1.0;
  v.push_back(lib);
  return v;
}

TEST(SessionDecision, KnownSlowNeedsTwoLaterCheckedCallsFarBelowTheLibrary) {
  EXPECT_EQ(later_checked_timed_calls(checked_calls(5, 50)), (std::vector<std::size_t>{1, 3, 4}));
  EXPECT_TRUE(known_slow(checked_calls(5, 5), 1.0, 0.5));   // 0.2x
  EXPECT_FALSE(known_slow(checked_calls(3, 3), 1.0, 0.5));  // 0.33x: timed as usual
  // The cold first call does not count, however slow.
  EXPECT_FALSE(known_slow(checked_calls(3, 1000), 1.0, 0.5));
  // Nor the hidden workload's, nor the repeat: one later fresh call is not enough.
  auto v = checked_calls(5, 5);
  v.erase(v.begin() + 4);
  EXPECT_FALSE(known_slow(v, 1.0, 0.5));
  EXPECT_FALSE(known_slow(checked_calls(5, 5), 0, 0.5));  // no library time
}

// Timed on its checked calls: they are the candidate's samples, events and wall times alike;
// without calibration calls nothing is measured against the wall clock.
TEST(SessionDecision, CheckedSamplesAreTheCandidatesSamples) {
  auto v = checked_calls(5, 5);
  v[3].checked_sample = v[4].checked_sample = true;
  v[3].wall_ms = v[4].wall_ms = 50;
  for (int i = 0; i < 3; ++i) {
    CallRecord lib = v.back();
    lib.timing = true;
    v.push_back(lib);
  }
  auto t = judge_timing(v);
  EXPECT_EQ(t.candidate.n, 2u);
  EXPECT_EQ(t.candidate_wall.n, 2u);
  ASSERT_TRUE(t.speedup);
  EXPECT_NEAR(*t.speedup, 1.0 / 5.025, 1e-9);
  EXPECT_EQ(t.speedup_basis, SpeedupBasis::events);
  EXPECT_TRUE(t.flags.empty());
}

// Timed on its checked calls (5 ms), then its closing repeats: at 5 ms still slow; at 2 ms (a
// kernel slow in its first calls only, or fast on repeats only) far faster since its checks.
TEST(SessionDecision, ClosingRepeatsFarFasterThanTheCheckedSamples) {
  for (const double repeat_ms : {5.0, 3.6, 2.0}) {
    auto v = checked_calls(5, 5);
    v[3].checked_sample = v[4].checked_sample = true;
    for (int i = 0; i < 2; ++i) {
      CallRecord rep = call(static_cast<int>(v.size()), true, Content::repeat);
      rep.timing = true;
      rep.event_ms = repeat_ms;
      v.push_back(rep);
    }
    EXPECT_EQ(faster_since_checks(v), repeat_ms < 3.5) << repeat_ms;
    v[1].event_ms = 0.1;  // the checked repeat is not a call since the checks
    EXPECT_EQ(faster_since_checks(v), repeat_ms < 3.5) << repeat_ms;
  }
  EXPECT_FALSE(faster_since_checks(checked_calls(5, 5)));  // not timed on its checked calls
}

// Timed on its checked calls, a candidate's repeat-speed check needs kMinRepeatsKnownSlow (2)
// repeats, not kMinRepeats: its checked repeat (0.5 ms) with one closing repeat (5 ms) has a
// median of 2.75 ms, under kRepeatRatio of its checked samples' 5 ms.
TEST(SessionDecision, AKnownSlowCandidatesRepeatCheckNeedsTwoRepeats) {
  auto v = checked_calls(5, 5);
  v[1].event_ms = 0.5;
  v[3].checked_sample = v[4].checked_sample = true;
  for (int i = 0; i < 3; ++i) {
    CallRecord lib = v.back();
    lib.timing = true;
    v.push_back(lib);
  }
  EXPECT_FALSE(judge_timing(v).incorrect);  // one repeat: too few
  CallRecord rep = call(static_cast<int>(v.size()), true, Content::repeat);
  rep.timing = true;
  rep.event_ms = 5;
  v.push_back(rep);
  EXPECT_EQ(timed_repeats(v), kMinRepeatsKnownSlow);
  const TimingFindings t = judge_timing(v);
  EXPECT_TRUE(t.incorrect);
  EXPECT_EQ(t.flags, std::vector<Flag>{Flag::cached_result});
  for (auto& c : v) c.checked_sample = false;  // timed as usual: two repeats are too few
  EXPECT_FALSE(judge_timing(v).incorrect);
}

// The checked calls of checked_calls() after a calibration of 0.2 ms overhead a call, each with
// `extra` ms of wall time beyond its events and that overhead.
std::vector<CallRecord> checked_calls_outside(double fresh_ms, double extra) {
  auto v = checked_calls(fresh_ms, fresh_ms);
  for (auto& c : v)
    if (!c.baseline) c.wall_ms = c.event_ms + 0.2 + extra;
  CallRecord cal = call(-1, true);
  cal.calibration = true;
  cal.event_ms = 0.01;
  cal.wall_ms = 0.21;
  v.insert(v.begin(), cal);
  return v;
}

// Checked calls that spend more beyond their events than the calibrated overhead allows (the
// median over the later checked calls, each against 0.1 ms + 5% of its own wall time) are
// measured by the wall clock less that overhead: a kernel fast by its events and slow by the
// clock is known slow, and its time is the clock's.
TEST(SessionDecision, CheckedCallsWorkingOutsideTheirEventsAreMeasuredByTheWallClock) {
  auto v = checked_calls_outside(5, 0.2);  // within 0.1 ms + 5% of ~5.4 ms
  EXPECT_FALSE(checked_work_outside_events(v));
  EXPECT_TRUE(known_slow(v, 1.0, 0.5));
  EXPECT_EQ(checked_times_ms(v, {4, 5}), (std::vector<double>{5, 5.05}));
  v = checked_calls_outside(5, 2.0);  // 2 ms a call outside the events
  EXPECT_TRUE(checked_work_outside_events(v));
  EXPECT_TRUE(known_slow(v, 1.0, 0.5));
  const auto t = checked_times_ms(v, {4, 5});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_NEAR(t[0], 7.0, 1e-9);
  EXPECT_NEAR(t[1], 7.05, 1e-9);
  // 1 ms by its events (1x the library), 11 ms by the clock: known slow by the clock only.
  EXPECT_FALSE(known_slow(checked_calls_outside(1, 0.0), 1.0, 0.5));
  EXPECT_TRUE(known_slow(checked_calls_outside(1, 10.0), 1.0, 0.5));
  // One late call out of five does not make the median.
  v = checked_calls_outside(5, 0.0);
  v[2].wall_ms += 30;
  EXPECT_FALSE(checked_work_outside_events(v));
  EXPECT_FALSE(checked_work_outside_events(checked_calls(5, 5)));  // no calibration: never
}

// Timed on checked calls that worked outside their events: side_stream, the speedup by the wall
// clock less the calibrated overhead, and the repeat-speed check on the same clock.
TEST(SessionDecision, CheckedSamplesOutsideTheirEventsAreSideStream) {
  auto v = checked_calls_outside(1, 10.0);  // 1 ms by the events, 11 ms by the clock
  v[4].checked_sample = v[5].checked_sample = true;
  for (int i = 0; i < 3; ++i) {
    CallRecord lib = v.back();
    lib.timing = true;
    v.push_back(lib);
  }
  auto t = judge_timing(v);
  EXPECT_EQ(t.flags, std::vector<Flag>{Flag::side_stream});
  EXPECT_EQ(t.speedup_basis, SpeedupBasis::wall_clock);
  ASSERT_TRUE(t.speedup);
  EXPECT_NEAR(*t.speedup, 1.0 / 11.005, 1e-9);
  EXPECT_FALSE(t.incorrect);
  // Repeats as fast as new inputs by their events, 10x faster by the clock: cached_result.
  for (int i = 0; i < 2; ++i) {
    CallRecord rep = call(static_cast<int>(v.size()), true, Content::repeat);
    rep.timing = true;
    rep.event_ms = 1.0;
    rep.wall_ms = 1.3;
    v.push_back(rep);
  }
  v[2].wall_ms = 1.3;  // the checked repeat
  t = judge_timing(v);
  EXPECT_TRUE(t.incorrect);
  EXPECT_EQ(t.flags, (std::vector<Flag>{Flag::side_stream, Flag::cached_result}));
}

// review-7: the checked calls of a GEMM task as plan_session makes them (5 hidden workloads, as
// every tasks/gemm task has): the cold first call, the repeat, one call per hidden workload, two
// more timed calls. A hostile candidate works outside its events on the timed workload only (its
// shape is public): 20 ms by its (forged) events, 80 ms by the clock; honest (event = wall) on
// the hidden shapes (it needs to tell nothing but the shape). The hidden calls outvote the timed
// ones in the median over all later checked calls, so the timed calls' events, which are the
// candidate's samples, were taken for its time: 0.15x claimed (no side_stream) for a 0.0375x
// kernel.
std::vector<CallRecord> gemm_checks_outside_on_timed_only() {
  std::vector<CallRecord> v;
  CallRecord cal = call(-1, true);
  cal.calibration = true;
  cal.event_ms = 0.01;
  cal.wall_ms = 0.21;
  v.push_back(cal);
  auto add = [&](Content content, int workload, double event_ms, double wall_ms) {
    CallRecord c = call(static_cast<int>(v.size()), true, content, workload);
    c.event_ms = event_ms;
    c.wall_ms = wall_ms;
    v.push_back(c);
  };
  add(Content::transformed, 0, 80, 80.2);  // the session's first call: honest
  add(Content::repeat, 0, 20, 80.2);       // the repeat: as every timed call
  for (int h = 1; h <= 5; ++h) add(Content::transformed, h, 10, 10.2);  // hidden: honest
  add(Content::transformed, 0, 20, 80.2);  // timed, new inputs: 60 ms outside the events
  add(Content::transformed, 0, 20, 80.2);
  CallRecord lib = call(static_cast<int>(v.size()), true);
  lib.baseline = true;
  lib.event_ms = 3.0;
  v.push_back(lib);
  return v;
}

TEST(SessionDecision, HiddenWorkloadsDoNotOutvoteTheTimedSamplesWorkOutsideTheirEvents) {
  auto v = gemm_checks_outside_on_timed_only();
  EXPECT_TRUE(checked_work_outside_events(v));
  ASSERT_TRUE(known_slow(v, 3.0, 0.5));
  const auto later = later_checked_timed_calls(v);
  // The samples' times are the clock's (80 ms less the overhead), not the forged 20 ms.
  for (double ms : checked_times_ms(v, later)) EXPECT_GT(ms, 79.0);
  v[8].checked_sample = v[9].checked_sample = true;
  for (int i = 0; i < 3; ++i) {
    CallRecord lib = v.back();
    lib.timing = true;
    v.push_back(lib);
  }
  const auto t = judge_timing(v);
  EXPECT_EQ(t.speedup_basis, SpeedupBasis::wall_clock);
  EXPECT_TRUE(std::find(t.flags.begin(), t.flags.end(), Flag::side_stream) != t.flags.end());
  ASSERT_TRUE(t.speedup);
  EXPECT_LT(*t.speedup, 0.04);
}

// review-7: the same test is made again by judge_timing after the audit, when the session also
// holds each further audit broker's ordinary call (broker 2, 3, ...: the first call of a fresh
// process, where a hostile candidate is honest for free). A candidate with many kernel functions
// adds as many honest calls on the timed workload and turns side_stream off after it was known
// slow by the clock: the speedup then comes from its forged events.
TEST(SessionDecision, AuditRunnersCallsDoNotChangeTheCheckedCallsBasis) {
  auto v = checked_calls_outside(20, 60.0);  // 20 ms by events, 80 ms by the clock
  ASSERT_TRUE(checked_work_outside_events(v));
  ASSERT_TRUE(known_slow(v, 3.0, 0.5));
  v[4].checked_sample = v[5].checked_sample = true;
  for (int i = 0; i < 3; ++i) {
    CallRecord lib = v.back();
    lib.timing = true;
    v.push_back(lib);
  }
  for (int broker = 2; broker <= 6; ++broker) {  // five more kernel functions
    CallRecord c = call(static_cast<int>(v.size()), true);
    c.broker = broker;
    c.event_ms = 80;
    c.wall_ms = 80.2;
    v.push_back(c);
  }
  EXPECT_TRUE(checked_work_outside_events(v));
  const auto t = judge_timing(v);
  EXPECT_EQ(t.speedup_basis, SpeedupBasis::wall_clock);
  ASSERT_TRUE(t.speedup);
  EXPECT_LT(*t.speedup, 0.04);
}

// The checked calls' budget counts what the candidate spent on checks, timed or not: per call
// the larger of the events and the wall clock; timing samples, the library's and the audited
// calls, and the calibration are not checks.
TEST(SessionDecision, ChecksSecondsCountOnlyCheckedCalls) {
  std::vector<CallRecord> calls;
  for (int i = 0; i < 3; ++i) {
    CallRecord c = call(i, true, Content::transformed, i % 2);
    c.event_ms = 18000;  // a hidden check spun on the GPU
    c.wall_ms = 17000;
    calls.push_back(c);
  }
  calls[1].event_ms = 10;
  calls[1].wall_ms = 4000;  // the host spun instead
  CallRecord sample = call(3, true);
  sample.timing = true;
  sample.event_ms = 50000;
  CallRecord audited = call(4, true);
  audited.audited = true;
  audited.event_ms = 50000;
  CallRecord library = call(5, true);
  library.baseline = true;
  library.wall_ms = 50000;
  CallRecord calibration = call(6, true);
  calibration.calibration = true;
  calibration.wall_ms = 50000;
  for (const auto& c : {sample, audited, library, calibration}) calls.push_back(c);
  EXPECT_DOUBLE_EQ(checks_seconds(calls), 40.0);
  EXPECT_GT(checks_seconds(calls) + 21, kChecksBudgetCalls * 20);  // a fourth such call is past it
  EXPECT_LT(checks_seconds(calls), kChecksBudgetCalls * 20);
}

// A loaded check counts as its workload's longest unloaded call: the load's slowdown is the
// judge's (an honest 1.2 s call took 2.4 s under the half load).
TEST(SessionDecision, ALoadedCheckCountsAsItsUnloadedTime) {
  std::vector<CallRecord> calls;
  CallRecord plain = call(0, true, Content::transformed, 1);
  plain.event_ms = plain.wall_ms = 1200;
  CallRecord loaded = call(1, true, Content::transformed, 1);
  loaded.plan.sm_load = true;
  loaded.event_ms = loaded.wall_ms = 2400;
  calls = {plain, loaded};
  EXPECT_DOUBLE_EQ(checks_seconds(calls), 2.4);
  calls[1].event_ms = 900;  // faster loaded: its own time
  calls[1].wall_ms = 900;
  EXPECT_DOUBLE_EQ(checks_seconds(calls), 2.1);
  calls = {loaded};  // no unloaded call on its workload yet: its own time
  EXPECT_DOUBLE_EQ(checks_seconds(calls), 2.4);
}

TEST(SessionDecision, TheVerifierIsKeptAfterATaskSuiteErrorAndQuitAfterAHarnessError) {
  EXPECT_FALSE(verifier_reusable_after(Outcome::harness_error));
  for (Outcome o : kOutcomes) {
    if (o != Outcome::harness_error) {
      EXPECT_TRUE(verifier_reusable_after(o)) << to_string(o);
    }
  }
}

// A burst is loaded when any of its calls is, under the larger share when any asks for it, and
// its load is sized for that share.
TEST(SessionDecision, ABurstsLoadTakesItsCallsShare) {
  std::vector<CallRecord> calls(1);
  calls[0].wall_ms = 10;
  std::vector<PlannedCall> burst(2);
  CallCommand plain;
  plan_load(plain, calls, burst, 20);
  EXPECT_FALSE(plain.sm_load);
  EXPECT_DOUBLE_EQ(plain.sm_load_ms, 0);
  burst[1].sm_load = true;
  CallCommand half;
  plan_load(half, calls, burst, 20);
  EXPECT_TRUE(half.sm_load);
  EXPECT_EQ(half.sm_load_share, LoadShare::half);
  EXPECT_DOUBLE_EQ(half.sm_load_ms, sm_load_ms(calls, 0, 2));
  burst[0].sm_load_share = LoadShare::most;  // not loaded itself: its share means nothing
  CallCommand still_half;
  plan_load(still_half, calls, burst, 20);
  EXPECT_EQ(still_half.sm_load_share, LoadShare::half);
  burst[1].sm_load_share = LoadShare::most;
  CallCommand most;
  plan_load(most, calls, burst, 20);
  EXPECT_EQ(most.sm_load_share, LoadShare::most);
  EXPECT_DOUBLE_EQ(most.sm_load_ms, sm_load_ms(calls, 0, 2, LoadShare::most));
  EXPECT_GT(most.sm_load_ms, half.sm_load_ms);
  // A burst too slow for the larger share within the call limit gets the half: 10 ms calls
  // under a 0.1 s limit (measured: naive kernels of 1.2 s timed out under it at 5 s).
  CallCommand slow;
  plan_load(slow, calls, burst, 0.1);
  EXPECT_EQ(slow.sm_load_share, LoadShare::half);
  EXPECT_DOUBLE_EQ(slow.sm_load_ms, sm_load_ms(calls, 0, 2));
  CallCommand fits;  // 10 x 10 ms = 0.1 s, half of a 0.2 s limit
  plan_load(fits, calls, burst, 0.2);
  EXPECT_EQ(fits.sm_load_share, LoadShare::most);
  // The host's time before its work costs the candidate nothing: it buys no smaller share,
  // though the load still holds through it.
  calls[0].host_ms = 500;
  CallCommand slept;
  plan_load(slept, calls, burst, 0.2);
  EXPECT_EQ(slept.sm_load_share, LoadShare::most);
  EXPECT_GT(slept.sm_load_ms, fits.sm_load_ms);
}

// All but one SM busy: only for a burst fast enough (200x its longest call within 1 s and half
// the limit), else the larger share's rule decides; its load holds 200x the longest call.
TEST(SessionDecision, AllButOneSmOnlyForAFastBurst) {
  std::vector<CallRecord> calls(1);
  calls[0].wall_ms = 4;  // 200 x 4 ms = 0.8 s
  std::vector<PlannedCall> burst(1);
  burst[0].sm_load = true;
  burst[0].sm_load_share = LoadShare::all_but_one;
  CallCommand one;
  plan_load(one, calls, burst, 20);
  EXPECT_EQ(one.sm_load_share, LoadShare::all_but_one);
  EXPECT_DOUBLE_EQ(one.sm_load_ms, kSmLoadFloorMs + 200 * 4);
  EXPECT_GT(one.sm_load_ms, sm_load_ms(calls, 0, 1, LoadShare::most));
  calls[0].wall_ms = 6;  // 1.2 s: too costly for all but one, the larger share then
  CallCommand most;
  plan_load(most, calls, burst, 20);
  EXPECT_EQ(most.sm_load_share, LoadShare::most);
  calls[0].wall_ms = 4;  // fast, but 0.8 s is more than half a 1 s limit: and too slow for most
  CallCommand half;
  plan_load(half, calls, burst, 0.06);
  EXPECT_EQ(half.sm_load_share, LoadShare::half);
}

// All but one SM, given at the session's first loaded check by the unloaded calls' speed: the
// timed workload's first loaded check and one drawn hidden workload's, each only where it fits.
// A kernel slow on every hidden size keeps the share off them, not off the timed workload.
TEST(SessionDecision, AllButOneSmGoesToTheChecksFastEnough) {
  std::vector<PlannedCall> checks(6);
  for (int i = 0; i < 6; ++i) checks[static_cast<std::size_t>(i)].workload = i < 3 ? i : i - 3;
  // Unloaded: 0, 1, 2 (timed, hidden 1, hidden 2); loaded: 3 (timed), 4 (hidden 1), 5 (hidden 2).
  for (std::size_t i = 3; i < 6; ++i) checks[i].sm_load = true;
  std::vector<CallRecord> calls(3);
  for (std::size_t i = 0; i < 3; ++i) {
    calls[i].plan = checks[i];
    calls[i].wall_ms = 1;
  }
  std::set<std::size_t> hidden_seen;
  for (std::uint64_t draw = 0; draw < 8; ++draw) {
    const auto got = all_but_one_checks(checks, 3, calls, 20, draw);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0], 3u);
    EXPECT_TRUE(got[1] == 4 || got[1] == 5) << got[1];
    hidden_seen.insert(got[1]);
  }
  EXPECT_EQ(hidden_seen.size(), 2u);         // the draw picks either hidden workload
  calls[1].wall_ms = calls[2].wall_ms = 50;  // slow hidden sizes: the timed check keeps it
  EXPECT_EQ(all_but_one_checks(checks, 3, calls, 20, 0), std::vector<std::size_t>{3});
  calls[2].wall_ms = 1;  // one hidden size fast: that one, whatever the draw
  for (std::uint64_t draw = 0; draw < 4; ++draw)
    EXPECT_EQ(all_but_one_checks(checks, 3, calls, 20, draw), (std::vector<std::size_t>{3, 5}));
  calls[0].wall_ms = 50;  // a slow timed workload: only the hidden one
  EXPECT_EQ(all_but_one_checks(checks, 3, calls, 20, 0), std::vector<std::size_t>{5});
  // Checks already made are not given it; no unloaded call on a workload, no share.
  EXPECT_TRUE(all_but_one_checks(checks, 6, calls, 20, 0).empty());
  EXPECT_TRUE(all_but_one_checks(checks, 3, {}, 20, 0).empty());
}

// What a share is decided by: in the checks, the longest unloaded call (an honest slow call is
// never put under a share it cannot finish in; the candidate can raise it, red team leak13,
// open); once the timing phase has samples, their median, which the candidate pays for: padded
// checks (leak13/pad_spin_half_only) no longer lower the timing rounds' shares. The load's length
// covers the longest call either way.
TEST(SessionDecision, TheTimingSamplesDecideTheShareOnceThereAreSome) {
  std::vector<CallRecord> calls(2);
  for (auto& c : calls) c.wall_ms = 1200;  // padded checks
  std::vector<PlannedCall> burst(1);
  burst[0].sm_load = true;
  burst[0].sm_load_share = LoadShare::most;
  CallCommand checks;
  plan_load(checks, calls, burst, 5);
  EXPECT_EQ(checks.sm_load_share, LoadShare::half);
  EXPECT_FALSE(fits_all_but_one(calls, 0, 5));
  for (int i = 0; i < 5; ++i) {  // fast timing samples, one of them slow
    CallRecord t;
    t.timing = true;
    t.event_ms = i == 0 ? 1200 : 1;
    calls.push_back(t);
  }
  CallCommand timing;
  plan_load(timing, calls, burst, 5);
  EXPECT_EQ(timing.sm_load_share, LoadShare::most);
  EXPECT_TRUE(fits_all_but_one(calls, 0, 5));
  burst[0].sm_load_share = LoadShare::all_but_one;
  CallCommand one;
  plan_load(one, calls, burst, 5);
  EXPECT_EQ(one.sm_load_share, LoadShare::all_but_one);
  EXPECT_GE(one.sm_load_ms, 200 * 1200.0);                       // the longest call's
  for (std::size_t i = 3; i < 6; ++i) calls[i].event_ms = 1200;  // most samples slow: lowered
  EXPECT_FALSE(fits_all_but_one(calls, 0, 5));
  // A hidden workload has no samples: its longest call decides.
  calls[0].plan.workload = 1;
  calls[0].wall_ms = 1;
  EXPECT_TRUE(fits_all_but_one(calls, 1, 5));
}

// The timing phase's rounds with all but one SM busy: as many as 1 s of load allows, one per
// buffer set at most, at least one where the typical call fits, none where it does not.
TEST(SessionDecision, AllButOneRoundsFollowTheirBudget) {
  std::vector<CallRecord> calls(3);
  auto typical = [&](double ms) {
    for (auto& c : calls) c.wall_ms = ms;
    return all_but_one_rounds(calls, 0, 20);
  };
  EXPECT_EQ(typical(0.8), 4u);  // 160 ms each: every buffer set
  EXPECT_EQ(typical(2.4), 2u);  // 480 ms each
  EXPECT_EQ(typical(4.9), 1u);  // 980 ms
  EXPECT_EQ(typical(6), 0u);    // 1.2 s: too costly
  EXPECT_EQ(all_but_one_rounds({}, 0, 20), 0u);
}

// After the timing phase, a hidden workload fits all but one SM by the timed median scaled by
// its FLOPs, whatever its own call took (leak13/steer_share_to_safe.cu padded the unsafe ones).
TEST(SessionDecision, TheTimedSpeedSaysWhichHiddenWorkloadsFit) {
  std::vector<CallRecord> calls(3);
  for (int w = 0; w < 3; ++w) {
    calls[static_cast<std::size_t>(w)].plan.workload = w;
    calls[static_cast<std::size_t>(w)].wall_ms = w == 0 ? 1 : 60;  // hidden ones padded
  }
  for (int i = 0; i < 3; ++i) {  // timing samples of 4 ms
    CallRecord t;
    t.timing = true;
    t.event_ms = 4;
    calls.push_back(t);
  }
  const std::vector<bool> hidden = {false, true, true};
  // 200 x 4 ms x 1/8 = 0.1 s fits; 200 x 4 ms x 2 = 1.6 s does not.
  EXPECT_EQ(hidden_all_but_one_workloads(calls, {8, 1, 16}, hidden, 20), std::vector<int>{1});
  EXPECT_EQ(hidden_all_but_one_workloads(calls, {8, 1, 1}, hidden, 20), (std::vector<int>{1, 2}));
  EXPECT_TRUE(hidden_all_but_one_workloads(calls, {0, 1, 1}, hidden, 20).empty());  // unknown
  EXPECT_TRUE(hidden_all_but_one_workloads(calls, {}, hidden, 20).empty());
  // One that had such a check already is not given another.
  CallRecord had;
  had.plan.workload = 2;
  had.plan.sm_load = true;
  had.plan.sm_load_share = LoadShare::all_but_one;
  calls.push_back(had);
  EXPECT_EQ(hidden_all_but_one_workloads(calls, {8, 1, 1}, hidden, 20), std::vector<int>{1});
}

}  // namespace
}  // namespace ptxbench::eval
