// The shipped suite under tasks/: every spec loads, and the core suite has the
// paper's names and shapes (field notes §1).
#include <gtest/gtest.h>

#include "core/paths.h"
#include "task/loader.h"

namespace ptxbench::task {
namespace {

std::vector<TaskSpec> shipped() {
  auto r = load_tasks(Paths::discover().tasks());
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : std::vector<TaskSpec>{};
}

const TaskSpec* by_name(const std::vector<TaskSpec>& all, const std::string& name) {
  for (const auto& t : all)
    if (t.name == name) return &t;
  return nullptr;
}

TEST(Suite, CoreSuiteMatchesThePaper) {
  auto all = shipped();
  std::vector<std::string> core;
  for (const auto& t : all)
    if (t.in_suite("core")) core.push_back(t.name);
  EXPECT_EQ(core,
            (std::vector<std::string>{"gemm_n7168_k5120", "mha_bwd_d128", "mha_bwd_d128_causal",
                                      "mha_with_lse_d128", "mha_with_lse_d128_causal"}));
  const TaskSpec* g = by_name(all, "gemm_n7168_k5120");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->timed().axes,
            (std::map<std::string, std::int64_t>{{"K", 5120}, {"M", 8192}, {"N", 7168}}));
  const TaskSpec* f = by_name(all, "mha_with_lse_d128_causal");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->causal);
  EXPECT_EQ(f->timed().axes.at("B"), 4);
  EXPECT_EQ(f->timed().axes.at("H"), 48);
  EXPECT_EQ(f->timed().axes.at("S"), 4096);
  EXPECT_EQ(f->outputs.back().name, "LSE");
  EXPECT_EQ(f->outputs.back().dtype, DType::fp32);
  const TaskSpec* b = by_name(all, "mha_bwd_d128");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->inputs.size(), 6u);
  EXPECT_EQ(b->outputs.size(), 3u);
  // bwd FLOPs are 2.5x the forward's.
  EXPECT_DOUBLE_EQ(*b->flop_count(b->timed()),
                   2.5 * *by_name(all, "mha_with_lse_d128")->flop_count(b->timed()));
}

TEST(Suite, ExtendedSuiteHasTheLayerShapes) {
  auto all = shipped();
  int gemm = 0, fwd = 0, bwd = 0;
  for (const auto& t : all) {
    if (!t.in_suite("extended")) continue;
    gemm += t.family == Family::gemm;
    fwd += t.family == Family::attention_fwd;
    bwd += t.family == Family::attention_bwd;
  }
  EXPECT_EQ(gemm, 17);
  EXPECT_EQ(fwd, 8);  // d64/96/128/256 x {non-causal, causal}
  EXPECT_EQ(bwd, 6);  // d64/96/128 x {non-causal, causal}
}

TEST(Suite, EveryTaskHasHiddenWorkloadsAndBothArches) {
  for (const auto& t : shipped()) {
    EXPECT_FALSE(t.hidden().empty()) << t.name;
    EXPECT_TRUE(t.supports("sm_90a")) << t.name;
    EXPECT_TRUE(t.supports("sm_100a")) << t.name;
  }
}

}  // namespace
}  // namespace ptxbench::task
