// The shipped suite under tasks/: every spec loads, and the core suite has the
// paper's names and shapes (field notes §1).
#include <gtest/gtest.h>

#include <set>

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

std::set<std::int64_t> hidden_values(const TaskSpec& t, const std::string& axis) {
  std::set<std::int64_t> out;
  for (const Workload* w : t.hidden()) out.insert(w->axes.at(axis));
  return out;
}

// Every GEMM task promises any M >= 1: its hidden workloads include M = 1 and Ms that are
// no multiple of 8, 16, 64 or 128 (70, 1001), besides the first suite's 1000 and 2048.
TEST(Suite, GemmHiddenWorkloadsCoverRaggedM) {
  int gemms = 0;
  for (const auto& t : shipped()) {
    if (t.family != Family::gemm) continue;
    ++gemms;
    auto ms = hidden_values(t, "M");
    for (std::int64_t m : {1, 70, 1001, 1000, 2048})
      EXPECT_TRUE(ms.count(m)) << t.name << " M=" << m;
    int ragged = 0;
    for (std::int64_t m : ms) ragged += (m % 8 != 0);
    EXPECT_GE(ragged, 3) << t.name;
    ASSERT_TRUE(t.constraints.count("M")) << t.name;
    EXPECT_EQ(t.constraints.at("M").min, 1);
    // The derived atol depends on K (task/tolerance.h); the prompt states one rule per task.
    EXPECT_EQ(t.axes.at("K").size(), 1u) << t.name;
  }
  EXPECT_EQ(gemms, 18);
}

// Attention tasks promise "S is a multiple of 128" and nothing about B and H: the hidden
// workloads keep S a multiple of 128 (the loader enforces the constraint) and vary B and H,
// with values that are no power of two (H = 3, 5; B = 3) and one S that is no multiple of 256.
TEST(Suite, AttentionHiddenWorkloadsVaryBAndH) {
  int attention = 0;
  for (const auto& t : shipped()) {
    if (t.family == Family::gemm) continue;
    ++attention;
    ASSERT_TRUE(t.constraints.count("S")) << t.name;
    EXPECT_EQ(t.constraints.at("S").multiple_of, 128);
    auto bs = hidden_values(t, "B"), hs = hidden_values(t, "H"), ss = hidden_values(t, "S");
    EXPECT_TRUE(bs.count(1) && bs.count(3)) << t.name;
    EXPECT_TRUE(hs.count(3) && hs.count(5)) << t.name;
    EXPECT_TRUE(ss.count(384)) << t.name;
    EXPECT_GE(ss.size(), 3u) << t.name;
    for (std::int64_t s : ss) EXPECT_EQ(s % 128, 0) << t.name;
  }
  EXPECT_EQ(attention, 14);
}

// A constraint is what the task's text promises, so the text states it ("M >= 1", "S is a
// multiple of 128").
TEST(Suite, EveryConstraintIsStatedInTheDescription) {
  for (const auto& t : shipped())
    for (const auto& [axis, c] : t.constraints) {
      bool stated = t.description.find(axis + " " + c.describe()) != std::string::npos ||
                    t.description.find(axis + " is " + c.describe()) != std::string::npos;
      EXPECT_TRUE(stated) << t.name << ": " << axis << " " << c.describe();
    }
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
