#include "eval/plan.h"

#include <gtest/gtest.h>

#include <set>

#include "core/paths.h"
#include "eval/peak.h"
#include "eval/test_support.h"
#include "task/tolerance.h"

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

TEST(Plan, TrialsCheckEveryWorkloadEvenWithFewTrials) {
  auto all = task::load_tasks(Paths::discover().tasks());
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  for (const auto& task : *all) {
    auto t = plan_trials(task, 3, 9);
    ASSERT_TRUE(t.ok()) << task.name;
    std::set<std::string> seen;
    for (const auto& x : *t) seen.insert(x.problem.workload);
    EXPECT_EQ(seen.size(), task.workloads.size()) << task.name;
    EXPECT_EQ(t->size(), task.workloads.size() + 1) << task.name;  // + the after-timing repeat
    bool spiky = false;
    for (const auto& x : *t) spiky |= x.dist == gpu::Distribution::spiky;
    EXPECT_EQ(spiky, task.family == task::Family::attention_bwd) << task.name;
  }
}

TEST(Plan, InputScaleOfEachFamily) {
  EXPECT_EQ(input_rms(task::Family::gemm), 1.0);
  EXPECT_EQ(input_rms(task::Family::attention_fwd), 1.0);
  EXPECT_NEAR(input_rms(task::Family::attention_bwd), 1.01424, 1e-5);
}

// make_problem judges by the derived rule, and it is the rule the prompt states (the prompt
// derives it with inputs of RMS 1, which every family whose rule depends on it uses).
TEST(Plan, ProblemsCarryTheDerivedRuleThePromptStates) {
  auto all = task::load_tasks(Paths::discover().tasks());
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  for (const auto& task : *all)
    for (const auto& w : task.workloads) {
      auto p = make_problem(task, w);
      ASSERT_TRUE(p.ok()) << task.name;
      task::Tolerance stated = task::derive_tolerance(task, task.timed(), 1.0);
      EXPECT_EQ(p->tolerance.atol, stated.atol) << task.name << " " << w.name;
      EXPECT_EQ(p->tolerance.rtol, stated.rtol) << task.name;
      EXPECT_EQ(p->tolerance.max_rel_l2, stated.max_rel_l2) << task.name;
      if (task.name == "gemm_n7168_k5120") {
        EXPECT_EQ(p->tolerance.atol, 1e-2);
      }
      if (task.name == "gemm_n8192_k28672") {
        EXPECT_NEAR(p->tolerance.atol, 0.0440, 1e-4);
      }
      if (task.family != task::Family::gemm) {
        EXPECT_EQ(p->tolerance.atol, task.tolerance.atol);
      }
    }
}

TEST(Peak, Table) {
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H200"), 989.4);
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H100 80GB HBM3"), 989.4);
  EXPECT_DOUBLE_EQ(*dense_bf16_peak_tflops("NVIDIA H100 PCIe"), 756.5);
  EXPECT_FALSE(dense_bf16_peak_tflops("NVIDIA GeForce RTX 4090").has_value());
}

}  // namespace
}  // namespace ptxbench::eval
