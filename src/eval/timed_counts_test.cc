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

Json row(std::uint64_t call, double flops, double tma_bytes, double threads = 0, double hmma = 0,
         double dmma = 0, double imma = 0) {
  return Json{{"call", call},
              {"tensor_flops", flops},
              {"sparse_tensor_flops", 0.0},
              {"tma_load_bytes", tma_bytes},
              {"thread_instructions", threads},
              {"hmma_instructions", hmma},
              {"dmma_instructions", dmma},
              {"imma_instructions", imma}};
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
  auto t =
      summarize_timed_counts(reply(Json::array({row(7, 100, 30), row(8, 0, 0), row(9, 60, 50)})),
                             calls, {100}, 40, {false});
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->counted);
  EXPECT_EQ(t->calls, 2);
  EXPECT_DOUBLE_EQ(t->min_tensor_share, 0.6);
  EXPECT_DOUBLE_EQ(t->min_tma_input_ratio, 0.75);
}

// What every other unit could have done, over the task's multiply-adds (task_flops / 2): the
// most over the timed calls, a loaded call aside (the broker's SM load spins there).
TEST(TimedCounts, TheOtherUnitsMathIsBoundedByTheirInstructions) {
  std::vector<CallRecord> calls = {timed(3, 7), timed(5, 9), timed(6, 10)};
  calls[2].plan.sm_load = true;
  // Task: 1000 FLOPs = 500 multiply-adds. Call 7: 50 thread instructions (100 MACs) and one
  // DMMA (kMacsPerDmma); call 9: 10 thread instructions; call 10: loaded, 1e9 instructions.
  auto t = summarize_timed_counts(
      reply(Json::array({row(7, 1000, 40, 50, 0, 1, 0), row(9, 1000, 40, 10, 0, 0, 0),
                         row(10, 1000, 40, 1e9, 0, 0, 0)})),
      calls, {1000}, 40, {false});
  ASSERT_TRUE(t && t->counted) << (t ? t->why_not : "");
  EXPECT_DOUBLE_EQ(t->max_other_math_share,
                   (kMacsPerThreadInstruction * 50 + kMacsPerDmma) / 500.0);
  // One mma.sync warp instruction or IMMA counts at its unit's bound.
  auto h = summarize_timed_counts(reply(Json::array({row(7, 1000, 40, 0, 1, 0, 2)})), {timed(3, 7)},
                                  {1e5}, 40, {false});
  ASSERT_TRUE(h && h->counted);
  EXPECT_DOUBLE_EQ(h->max_other_math_share, (kMacsPerHmma + 2 * kMacsPerImma) / 5e4);
}

// The checked calls on hidden workloads, together: wgmma only at the public timed shape
// (leak5/wgmma_public_m_only) reads low; a timed call, a check of the timed workload or a loaded
// call does not count here.
TEST(TimedCounts, TheHiddenChecksShareIsTheirSum) {
  CallRecord a = timed(3, 7), b = timed(4, 8), public_check = timed(5, 9);
  for (CallRecord* c : {&a, &b, &public_check}) c->timing = false;
  a.plan.workload = 1;  // hidden, 100 FLOPs a call
  b.plan.workload = 2;  // hidden, 900 FLOPs a call
  public_check.plan.workload = 0;
  std::vector<CallRecord> calls = {a, b, public_check, timed(6, 10)};
  auto t = summarize_timed_counts(
      reply(Json::array({row(7, 100, 1), row(8, 0, 1), row(9, 0, 1), row(10, 1000, 40)})), calls,
      {1000, 100, 900}, 40, {false, true, true});
  ASSERT_TRUE(t && t->counted) << (t ? t->why_not : "");
  ASSERT_TRUE(t->hidden_tensor_share.has_value());
  EXPECT_DOUBLE_EQ(*t->hidden_tensor_share, 0.1);  // (100 + 0) / (100 + 900)
  // Each hidden check of at least 1/32 of the timed FLOPs on its own: workload 2 ran none.
  ASSERT_TRUE(t->min_substantial_hidden_share.has_value());
  EXPECT_DOUBLE_EQ(*t->min_substantial_hidden_share, 0.0);
  EXPECT_DOUBLE_EQ(t->min_tensor_share, 1.0);
  // A hidden check the broker did not count leaves the calls uncounted.
  auto missed = summarize_timed_counts(reply(Json::array({row(10, 1000, 40)})), calls,
                                       {1000, 100, 900}, 40, {false, true, true});
  ASSERT_TRUE(missed);
  EXPECT_FALSE(missed->counted);
  EXPECT_EQ(missed->why_not, "hidden check 3 was not counted");
  // No hidden check: nothing said.
  auto none = summarize_timed_counts(reply(Json::array({row(10, 1000, 40)})), {timed(6, 10)},
                                     {1000}, 40, {false});
  ASSERT_TRUE(none && none->counted);
  EXPECT_FALSE(none->hidden_tensor_share.has_value());
}

// The hidden checks also bound the other units' math (a discarded wgmma burn beside a CUDA-core
// GEMM on the hidden shapes only: leak6/hidden_checks_burn) and give TMA's share of their input
// bytes (TMA at the public shape only: leak6/tma_public_m_only). A loaded hidden check's threads
// (the broker's load spins there) are left out of the math bound.
TEST(TimedCounts, TheHiddenChecksBoundOtherMathAndTmaBytesToo) {
  CallRecord a = timed(3, 7), b = timed(4, 8), loaded = timed(5, 9);
  for (CallRecord* c : {&a, &b, &loaded}) c->timing = false, c->plan.workload = 1;
  b.plan.workload = 2;
  loaded.plan.sm_load = true;
  std::vector<CallRecord> calls = {a, b, loaded, timed(6, 10)};
  // Hidden FLOPs 100 and 300 (50 + 150 multiply-adds); 60 and 40 thread instructions (120 + 80
  // MACs); the loaded one 1e9. Input bytes 10 and 30; TMA 5 and 15, the loaded one 1000.
  auto t = summarize_timed_counts(reply(Json::array({row(7, 100, 5, 60), row(8, 300, 15, 40),
                                                     row(9, 100, 1000, 1e9), row(10, 1000, 40)})),
                                  calls, {1000, 100, 300}, 40, {false, true, true}, {40, 10, 30});
  ASSERT_TRUE(t && t->counted) << (t ? t->why_not : "");
  ASSERT_TRUE(t->hidden_other_math_share && t->hidden_tma_input_ratio);
  EXPECT_DOUBLE_EQ(*t->hidden_other_math_share, kMacsPerThreadInstruction * 100 / 200.0);
  EXPECT_DOUBLE_EQ(*t->hidden_tma_input_ratio, 1020.0 / 50.0);  // the loaded check counts here
  EXPECT_EQ(t->to_json().at("hidden_other_math_share"), Json(*t->hidden_other_math_share));
  // Without the workloads' input bytes, no TMA ratio is said.
  auto no_bytes =
      summarize_timed_counts(reply(Json::array({row(7, 100, 5, 60), row(8, 300, 15, 40),
                                                row(9, 100, 1000, 1e9), row(10, 1000, 40)})),
                             calls, {1000, 100, 300}, 40, {false, true, true});
  ASSERT_TRUE(no_bytes && no_bytes->counted);
  EXPECT_FALSE(no_bytes->hidden_tma_input_ratio.has_value());
}

// TMA's share of what the SMs read from L2 (32-byte sectors), the least over the timed calls;
// unsaid when the broker did not count L2 reads.
TEST(TimedCounts, TmaMustBringMostOfWhatTheSmsRead) {
  Json a = row(7, 100, 3200), b = row(9, 100, 1000);
  a["l2_read_sectors"] = 100;   // 3200 of 3200 bytes by TMA
  b["l2_read_sectors"] = 1000;  // 1000 of 32000
  auto t = summarize_timed_counts(reply(Json::array({a, b})), {timed(3, 7), timed(5, 9)}, {100}, 40,
                                  {false});
  ASSERT_TRUE(t && t->counted);
  ASSERT_TRUE(t->min_tma_load_share.has_value());
  EXPECT_DOUBLE_EQ(*t->min_tma_load_share, 1000.0 / 32000);
  auto old = summarize_timed_counts(reply(Json::array({row(7, 100, 3200)})), {timed(3, 7)}, {100},
                                    40, {false});
  ASSERT_TRUE(old && old->counted);
  EXPECT_FALSE(old->min_tma_load_share.has_value());
}

TEST(TimedCounts, AMissedTimedCallLeavesTheCallsUncounted) {
  auto t = summarize_timed_counts(reply(Json::array({row(7, 100, 30)})), {timed(3, 7), timed(5, 9)},
                                  {100}, 40, {false});
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  EXPECT_EQ(t->why_not, "timed call 5 was not counted");
}

TEST(TimedCounts, TheBrokersErrorIsTheReason) {
  auto t = summarize_timed_counts(reply(Json::array(), "cuptiRangeProfilerEnable failed"),
                                  {timed(3, 7)}, {100}, 40, {false});
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  EXPECT_EQ(t->why_not, "cuptiRangeProfilerEnable failed");
}

TEST(TimedCounts, ACallWithoutABrokerNumberIsNotCounted) {
  auto t = summarize_timed_counts(reply(Json::array({row(0, 100, 30)})), {timed(3, 0)}, {100}, 40,
                                  {false});
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
}

TEST(TimedCounts, MalformedRowsAndRepliesCountNothing) {
  Json many = row(7, 1, 1);
  many["tensor_flops"] = "many";
  Json negative = row(7, 1, 1);
  negative["thread_instructions"] = -5.0;
  Json unnamed = row(7, 1, 1);
  unnamed.erase("call");
  Json bad = Json::array({many, negative, unnamed, Json::array({7, 1, 1, 1, 1})});
  auto t = summarize_timed_counts(reply(bad), {timed(3, 7)}, {100}, 40, {false});
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  auto none = summarize_timed_counts(Json(nullptr), {timed(3, 7)}, {100}, 40, {false});
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->counted);
}

TEST(TimedCounts, NoTimedCallIsNotCounted) {
  auto t = summarize_timed_counts(reply(Json::array({row(7, 100, 30)})), {}, {100}, 40, {false});
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->counted);
  EXPECT_EQ(t->why_not, "no timed call to count");
}

TEST(TimedCounts, AChipWithoutKnownCountersIsNotCountedByDesign) {
  EXPECT_FALSE(summarize_timed_counts(reply(Json::array(), "no call counters are known", true),
                                      {timed(3, 7)}, {100}, 40, {false})
                   .has_value());
}

TEST(TimedCounts, AuditedAndOtherBrokersCallsAreNotTimedSamples) {
  CallRecord audited = timed(4, 11);
  audited.audited = true;
  CallRecord second = timed(6, 12);
  second.broker = 2;
  auto t = summarize_timed_counts(reply(Json::array({row(7, 100, 30)})),
                                  {timed(3, 7), audited, second}, {100}, 40, {false});
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->counted);
  EXPECT_EQ(t->calls, 1);
}

}  // namespace
}  // namespace ptxbench::eval
