#include "eval/timed_counts.h"

#include <gtest/gtest.h>

namespace ptxbench::eval {
namespace {

CallRecord timed(int index, std::uint64_t broker_call) {
  CallRecord c;
  c.index = index;
  c.timing = true;
  c.broker = 1;
  c.broker_call = broker_call;
  return c;
}

Json row(std::uint64_t call, double flops, double tma_bytes) {
  return Json::array({call, flops, 1000.0, 10.0, tma_bytes});
}

Json reply(Json rows, std::string error = "", bool unsupported = false) {
  return Json{{"counted", std::move(rows)}, {"error", error}, {"unsupported", unsupported}};
}

TEST(TimedCounts, TheLeastShareOverTheTimedCallsDecides) {
  std::vector<CallRecord> calls = {timed(3, 7), timed(5, 9)};
  CallRecord checked;  // a checked call (not timed): its counts do not matter
  checked.broker = 1;
  checked.broker_call = 8;
  calls.push_back(checked);
  auto t = summarize_timed_counts(
      reply(Json::array({row(7, 100, 30), row(8, 0, 0), row(9, 60, 50)})), calls, 100, 40);
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->counted);
  EXPECT_EQ(t->calls, 2);
  EXPECT_DOUBLE_EQ(t->min_tensor_share, 0.6);
  EXPECT_DOUBLE_EQ(t->min_tma_input_ratio, 0.75);
}

TEST(TimedCounts, AMissedTimedCallLeavesTheCallsUncounted) {
  auto t = summarize_timed_counts(reply(Json::array({row(7, 100, 30)})), {timed(3, 7), timed(5, 9)},
                                  100, 40);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  EXPECT_EQ(t->why_not, "timed call 5 was not counted");
}

TEST(TimedCounts, TheBrokersErrorIsTheReason) {
  auto t = summarize_timed_counts(reply(Json::array(), "cuptiRangeProfilerEnable failed"),
                                  {timed(3, 7)}, 100, 40);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  EXPECT_EQ(t->why_not, "cuptiRangeProfilerEnable failed");
}

TEST(TimedCounts, ACallWithoutABrokerNumberIsNotCounted) {
  auto t = summarize_timed_counts(reply(Json::array({row(0, 100, 30)})), {timed(3, 0)}, 100, 40);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
}

TEST(TimedCounts, MalformedRowsAndRepliesCountNothing) {
  Json bad = Json::array({Json::array({7, "many", 1, 1, 1}), Json::array({9, 1, 1})});
  auto t = summarize_timed_counts(reply(bad), {timed(3, 7)}, 100, 40);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  auto none = summarize_timed_counts(Json(nullptr), {timed(3, 7)}, 100, 40);
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->counted);
}

TEST(TimedCounts, NoTimedCallIsNotCounted) {
  auto t = summarize_timed_counts(reply(Json::array({row(7, 100, 30)})), {}, 100, 40);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  EXPECT_EQ(t->why_not, "no timed call to count");
}

TEST(TimedCounts, AChipWithoutKnownCountersIsNotCountedByDesign) {
  EXPECT_FALSE(summarize_timed_counts(reply(Json::array(), "no call counters are known", true),
                                      {timed(3, 7)}, 100, 40)
                   .has_value());
}

TEST(TimedCounts, AuditedAndOtherBrokersCallsAreNotTimedSamples) {
  CallRecord audited = timed(4, 11);
  audited.audited = true;
  CallRecord second = timed(6, 12);
  second.broker = 2;
  auto t = summarize_timed_counts(reply(Json::array({row(7, 100, 30)})),
                                  {timed(3, 7), audited, second}, 100, 40);
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->counted);
  EXPECT_EQ(t->calls, 1);
}

}  // namespace
}  // namespace ptxbench::eval
