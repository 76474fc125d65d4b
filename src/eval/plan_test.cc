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

TEST(Plan, TrialsCoverTimedAndHiddenWithFreshSeedsAndARepeat) {
  auto task = testing::gemm_task();
  auto t = plan_trials(task, 3, 123);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->size(), 4u);
  EXPECT_EQ((*t)[0].problem.workload, "timed");
  EXPECT_EQ((*t)[1].problem.workload, "m100");
  EXPECT_EQ((*t)[2].problem.workload, "timed");
  EXPECT_TRUE((*t)[3].after_timing);
  EXPECT_EQ((*t)[3].problem.workload, "timed");
  std::set<std::uint64_t> seeds;
  for (const auto& x : *t) seeds.insert(x.seed);
  seeds.insert(timing_seed(123));
  EXPECT_EQ(seeds.size(), 5u);  // every trial and the timing run get their own inputs
  auto again = plan_trials(task, 3, 123);
  EXPECT_EQ((*again)[1].seed, (*t)[1].seed);  // reproducible from the recorded seed
  EXPECT_NE(plan_trials(task, 3, 124)->at(1).seed, (*t)[1].seed);
  EXPECT_FALSE(plan_trials(task, 2, 1).ok());
}

TEST(Peak, Table) {
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H200"), 989.4);
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H100 80GB HBM3"), 989.4);
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H100 PCIe"), 756.5);
  EXPECT_FALSE(dense_bf16_peak_tflops("NVIDIA GeForce RTX 4090").has_value());
}

}  // namespace
}  // namespace ptxbench::eval
