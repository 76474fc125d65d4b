#include "eval/plan.h"

#include <gtest/gtest.h>

#include <set>

#include "eval/peak.h"
#include "eval/test_support.h"

namespace ptxbench::eval {
namespace {

TEST(Plan, ProblemFromTask) {
  auto task = testing::gemm_task();
  auto p = make_problem(task, task.timed());
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  EXPECT_EQ(p->kind, gpu::Kind::gemm);
  EXPECT_EQ(p->inputs[0].shape, (std::vector<std::int64_t>{256, 64}));
  EXPECT_EQ(p->outputs[0].shape, (std::vector<std::int64_t>{256, 128}));
  EXPECT_EQ(p->outputs[0].bytes(), 256u * 128u * 2u);
}

TEST(Plan, SessionCoversTimedAndHiddenWithFreshInputsAndARepeat) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 3, 123);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->verifier.workloads.size(), 2u);  // timed first, then the hidden one
  EXPECT_EQ(plan->verifier.workloads[0].problem.workload, "timed");
  EXPECT_EQ(plan->verifier.workloads[0].bases.size(), 2u);
  EXPECT_EQ(plan->verifier.workloads[0].slots, 2);
  EXPECT_TRUE(plan->verifier.workloads[0].baseline);
  EXPECT_EQ(plan->verifier.workloads[1].problem.workload, "m100");
  EXPECT_EQ(plan->hidden, (std::vector<bool>{false, true}));
  const auto& c = plan->checks;
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(c[0].content, Content::transformed);
  EXPECT_EQ(c[1].content, Content::repeat);  // the same inputs again, in the same buffers
  EXPECT_EQ(c[1].slot, c[0].slot);
  EXPECT_EQ(c[2].workload, 1);  // the hidden workload
  int fresh = 0;
  std::set<std::uint64_t> seeds;
  for (const auto& x : c) {
    fresh += x.content == Content::transformed;
    if (x.content == Content::transformed) {
      EXPECT_NE(x.transform_seed, 0u);  // never the identity
    }
    seeds.insert(x.poison_seed);
  }
  EXPECT_GE(fresh, 3);
  EXPECT_EQ(seeds.size(), c.size());  // a new poison for every call
  bool slot1 = false, base1 = false;
  for (const auto& x : c) slot1 |= x.workload == 0 && x.slot == 1, base1 |= x.base == 1;
  EXPECT_TRUE(slot1 && base1);  // both buffer sets and both input sets are used
  auto again = plan_session(task, 3, 123);
  EXPECT_EQ(again->checks[2].transform_seed, c[2].transform_seed);  // reproducible
  EXPECT_NE(plan_session(task, 3, 124)->checks[2].transform_seed, c[2].transform_seed);
  EXPECT_FALSE(plan_session(task, 2, 1).ok());
}

TEST(Plan, TimingDrawsMixRepeatsAndNewInputsOnTheTimedWorkload) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 3, 5);
  ASSERT_TRUE(plan.ok());
  TimingDraw draw(*plan, 77);
  int repeats = 0, n = 400;
  std::set<int> slots, bases;
  for (int i = 0; i < n; ++i) {
    PlannedCall c = draw.next(true);
    EXPECT_EQ(c.workload, 0);
    repeats += c.content == Content::repeat;
    slots.insert(c.slot);
    if (c.content == Content::transformed) bases.insert(c.base);
  }
  EXPECT_GT(repeats, n / 8);  // about a quarter
  EXPECT_LT(repeats, n / 2);
  EXPECT_EQ(slots.size(), 2u);
  EXPECT_EQ(bases.size(), 2u);
  TimingDraw fresh_only(*plan, 77);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(fresh_only.next(false).content, Content::transformed);
}

TEST(Peak, Table) {
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H200"), 989.4);
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H100 80GB HBM3"), 989.4);
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H100 PCIe"), 756.5);
  EXPECT_FALSE(dense_bf16_peak_tflops("NVIDIA GeForce RTX 4090").has_value());
}

}  // namespace
}  // namespace ptxbench::eval
