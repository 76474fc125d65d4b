#include "eval/timeline.h"

#include <gtest/gtest.h>

#include <thread>

namespace ptxbench::eval {
namespace {

TEST(Timeline, RecordsNothingWhenDisabled) {
  Timeline t;
  t.start(false);
  t.add(SpanKind::prepare, Timeline::Clock::now(), 0, 1);
  EXPECT_TRUE(t.spans().empty());
}

TEST(Timeline, SpansCarryPhaseKindAndTimesFromTheStart) {
  Timeline t;
  t.start(true);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto t0 = Timeline::Clock::now();
  t.set_phase(SessionPhase::checks);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  t.add(SpanKind::candidate_call, t0, 2, 1);
  ASSERT_EQ(t.spans().size(), 1u);
  const TimelineSpan& s = t.spans().front();
  EXPECT_EQ(s.phase, SessionPhase::checks);
  EXPECT_EQ(s.kind, SpanKind::candidate_call);
  EXPECT_GE(s.at_ms, 4.0);
  EXPECT_GE(s.ms, 4.0);
  EXPECT_EQ(s.workload, 2);
  const Json j = s.to_json();
  EXPECT_EQ(j[0], "checks");
  EXPECT_EQ(j[1], "candidate_call");
  EXPECT_EQ(j[4], 2);
  EXPECT_EQ(j[5], 1);
}

TEST(Timeline, EveryKindAndPhaseHasAName) {
  for (SpanKind k : {SpanKind::verifier_start, SpanKind::broker_start, SpanKind::broker_stop,
                     SpanKind::prepare, SpanKind::candidate_call, SpanKind::verify,
                     SpanKind::library, SpanKind::audit_command, SpanKind::verifier_stop})
    EXPECT_NE(to_string(k), "?");
  for (SessionPhase p : {SessionPhase::start, SessionPhase::checks, SessionPhase::timing,
                         SessionPhase::audit, SessionPhase::end})
    EXPECT_NE(to_string(p), "?");
}

}  // namespace
}  // namespace ptxbench::eval
