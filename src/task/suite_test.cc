// The shipped suite under tasks/: every spec loads, and the core suite has the
// paper's names and shapes (field notes §1).
#include <gtest/gtest.h>

#include <set>

#include "core/paths.h"
#include "task/hidden_draw.h"
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

// Every GEMM task promises any M from 1 to 16384 and lists no hidden M; the draws of many seeds
// give an M below 64, ragged ones and large ones, each within the promise.
TEST(Suite, GemmPromisesARangeOfMAndDrawsRaggedOnes) {
  int gemms = 0;
  for (const auto& t : shipped()) {
    if (t.family != Family::gemm) continue;
    ++gemms;
    ASSERT_EQ(t.workloads.size(), 1u) << t.name;  // the timed one alone
    ASSERT_TRUE(t.constraints.count("M")) << t.name;
    EXPECT_EQ(t.constraints.at("M").min, 1);
    EXPECT_EQ(t.constraints.at("M").max, 16384);
    std::set<std::int64_t> ms;
    for (std::uint64_t seed = 1; seed <= 8; ++seed)
      for (const auto& h : draw_hidden_workloads(t, seed)) ms.insert(h.workload.axes.at("M"));
    EXPECT_GE(ms.size(), 16u) << t.name;
    EXPECT_LT(*ms.begin(), 64) << t.name;
    EXPECT_GT(*ms.rbegin(), 4096) << t.name;
    // The derived atol depends on K (task/tolerance.h); the prompt states one rule per task.
    EXPECT_EQ(t.axes.at("K").size(), 1u) << t.name;
  }
  EXPECT_EQ(gemms, 18);
}

// Attention tasks promise B, H and S ranges (S a multiple of 128); the draws keep S a multiple of
// 128 and give B, H and S other than the timed ones.
TEST(Suite, AttentionPromisesRangesOfBHAndS) {
  int attention = 0;
  for (const auto& t : shipped()) {
    if (t.family == Family::gemm) continue;
    ++attention;
    ASSERT_EQ(t.workloads.size(), 1u) << t.name;
    ASSERT_TRUE(t.constraints.count("S")) << t.name;
    EXPECT_EQ(t.constraints.at("S").multiple_of, 128);
    std::set<std::int64_t> bs, hs, ss;
    for (std::uint64_t seed = 1; seed <= 8; ++seed)
      for (const auto& h : draw_hidden_workloads(t, seed)) {
        bs.insert(h.workload.axes.at("B"));
        hs.insert(h.workload.axes.at("H"));
        ss.insert(h.workload.axes.at("S"));
      }
    EXPECT_GE(bs.size(), 2u) << t.name;
    EXPECT_GE(hs.size(), 4u) << t.name;
    EXPECT_GE(ss.size(), 8u) << t.name;
    for (std::int64_t s : ss) EXPECT_EQ(s % 128, 0) << t.name;
  }
  EXPECT_EQ(attention, 14);
}

// A constraint is what the task's text promises, so the text states it ("M from 1 to 16384",
// "S a multiple of 128 from 128 to 8192").
TEST(Suite, EveryConstraintIsStatedInTheDescription) {
  for (const auto& t : shipped())
    for (const auto& [axis, c] : t.constraints) {
      bool stated = t.description.find(axis + " " + c.describe()) != std::string::npos ||
                    t.description.find(axis + " is " + c.describe()) != std::string::npos;
      EXPECT_TRUE(stated) << t.name << ": " << axis << " " << c.describe();
    }
}

TEST(Suite, EveryTaskDrawsHiddenWorkloadsAndHasBothArches) {
  for (const auto& t : shipped()) {
    EXPECT_TRUE(hidden_draw_supported(t).ok()) << t.name;
    EXPECT_TRUE(t.supports("sm_90a")) << t.name;
    EXPECT_TRUE(t.supports("sm_100a")) << t.name;
  }
}

}  // namespace
}  // namespace ptxbench::task
