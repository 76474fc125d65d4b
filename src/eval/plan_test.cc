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

// The sizes of a plan's hidden workloads, as "M=70" strings (for comparing draws).
std::vector<std::string> hidden_sizes(const SessionPlan& p) {
  std::vector<std::string> out;
  for (std::size_t w = 1; w < p.verifier.workloads.size(); ++w)
    for (const auto& [axis, v] : p.verifier.workloads[w].problem.axes)
      out.push_back(axis + "=" + std::to_string(v));
  return out;
}

TEST(Plan, SessionCoversTimedAndHiddenWithFreshInputsAndARepeat) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 3, 123);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->verifier.workloads.size(), 6u);  // timed first, then the five drawn ones
  EXPECT_EQ(plan->verifier.workloads[0].problem.workload, "timed");
  EXPECT_EQ(plan->verifier.workloads[0].bases.size(), 3u);  // normal, wide_range, near_cancel
  EXPECT_EQ(plan->verifier.workloads[0].slots, kTimedSlots);
  EXPECT_TRUE(plan->verifier.workloads[0].baseline);
  EXPECT_EQ(plan->verifier.workloads[1].problem.workload, "hidden_small");
  EXPECT_EQ(plan->verifier.workloads[4].problem.workload, "hidden_audit");
  EXPECT_EQ(plan->audit_workload, 4);
  EXPECT_EQ(plan->hidden, (std::vector<bool>{false, true, true, true, true, true}));
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

// A run's input seed fixes the base sets (the same for every session of the run, and kept by
// the verifier); the calls' transforms and poisons stay the session's own.
TEST(Plan, AnInputSeedSharesTheBaseSetsAndNothingElse) {
  auto task = testing::gemm_task();
  auto bases = [](const SessionPlan& p) {  // the timed workload's
    std::vector<std::uint64_t> out;
    for (const auto& b : p.verifier.workloads[0].bases) out.push_back(b.seed);
    return out;
  };
  auto keeps = [](const SessionPlan& p) {  // (every timed set kept, any hidden set kept)
    bool all = true, hidden = false;
    for (const auto& b : p.verifier.workloads[0].bases) all = all && b.keep;
    for (std::size_t w = 1; w < p.verifier.workloads.size(); ++w)
      for (const auto& b : p.verifier.workloads[w].bases) hidden = hidden || b.keep;
    return std::pair{all, hidden};
  };
  auto a = plan_session(task, 3, 1, "", 77);
  auto b = plan_session(task, 3, 2, "", 77);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(bases(*a), bases(*b));               // two candidates of one run: the same timed sets
  EXPECT_EQ(keeps(*a), std::pair(true, false));  // the hidden ones are the session's own
  EXPECT_NE(a->checks[0].transform_seed, b->checks[0].transform_seed);  // their own permutations
  EXPECT_NE(a->checks[0].poison_seed, b->checks[0].poison_seed);
  // Another run: other base sets. The calls do not depend on the input seed.
  auto other_run = plan_session(task, 3, 1, "", 78);
  EXPECT_NE(bases(*other_run), bases(*a));
  EXPECT_EQ(other_run->checks[2].transform_seed, a->checks[2].transform_seed);
  // Without one, every session has base sets of its own, freed at its end.
  auto own1 = plan_session(task, 3, 1), own2 = plan_session(task, 3, 2);
  EXPECT_NE(bases(*own1), bases(*own2));
  EXPECT_EQ(keeps(*own1), std::pair(false, false));
  EXPECT_EQ(own1->checks[2].transform_seed, a->checks[2].transform_seed);
  std::set<std::uint64_t> distinct;
  for (auto s : bases(*a)) distinct.insert(s);
  EXPECT_EQ(distinct.size(), bases(*a).size());  // no two base sets alike
  // Another task of the same run (here: the same shapes under another name) draws unrelated
  // base sets.
  task::TaskSpec renamed = task;
  renamed.name = "gemm_test_2";
  auto other_task = plan_session(renamed, 3, 1, "", 77);
  for (auto s : bases(*other_task)) EXPECT_EQ(distinct.count(s), 0u);
  // The hidden sizes are each session's own, in a run too: what a candidate learns of one
  // session's sizes is useless in the next.
  EXPECT_NE(hidden_sizes(*a), hidden_sizes(*b));
  EXPECT_EQ(hidden_sizes(*a), hidden_sizes(*other_run));  // the same session seed
  // The audit may be named: the timed workload, or a drawn one by its name; nothing else.
  EXPECT_EQ(plan_session(task, 3, 5, "timed", 77)->audit_workload, 0);
  EXPECT_EQ(plan_session(task, 3, 5, "hidden_large", 77)->audit_workload, 3);
  auto unknown = plan_session(task, 3, 5, "m100", 77);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().to_string().find("drawn per session"), std::string::npos);
}

// Checks under another schedule: one of the timed workload's, at a place the seed draws among its
// checks (so no shape or place marks it), and every hidden workload again after its ordinary
// check, in a drawn order (leak11/small_m_splitk_unloaded.cu: a class never loaded).
TEST(Plan, EveryWorkloadHasACheckUnderAnotherScheduleTheTimedOneAtADrawnPlace) {
  std::set<std::size_t> places;
  std::set<std::string> first_again;  // the first hidden workload re-checked, across seeds
  for (std::uint64_t seed = 1; seed < 40; ++seed) {
    auto plan = plan_session(testing::gemm_task(), 3, seed);
    ASSERT_TRUE(plan.ok());
    std::vector<std::size_t> loaded;
    for (std::size_t i = 0; i < plan->checks.size(); ++i)
      if (plan->checks[i].sm_load) loaded.push_back(i);
    ASSERT_EQ(loaded.size(), 6u);  // the timed workload and the 5 hidden ones
    const PlannedCall& timed = plan->checks[loaded[0]];
    EXPECT_EQ(timed.workload, 0);
    EXPECT_EQ(timed.content, Content::transformed);
    EXPECT_GE(loaded[0], 2u + 5u);  // after the first call, its repeat and the 5 hidden ones
    places.insert(loaded[0]);
    std::set<int> hidden;
    for (std::size_t k = 1; k < loaded.size(); ++k) {
      const PlannedCall& again = plan->checks[loaded[k]];
      EXPECT_EQ(loaded[k], plan->checks.size() - 6 + k);  // the last, after the ordinary checks
      EXPECT_GT(again.workload, 0);
      hidden.insert(again.workload);
    }
    EXPECT_EQ(hidden.size(), 5u);
    first_again.insert(
        plan->verifier.workloads[static_cast<std::size_t>(plan->checks[loaded[1]].workload)]
            .problem.workload);
    for (std::size_t i : loaded)
      EXPECT_NE(plan->checks[i].label.find("another schedule"), std::string::npos);
  }
  EXPECT_GE(places.size(), 3u);       // the timed one's place varies with the seed
  EXPECT_GE(first_again.size(), 3u);  // and the hidden ones' order
}

// Each loaded check's share is drawn, and every session has one of all but an eighth of the SMs
// (a grid that needs only half the GPU resident at once fits beside the half:
// leak8/zero_smem_coresident.cu). Which one it is varies with the seed.
TEST(Plan, EverySessionHasACheckUnderTheLargerShare) {
  std::set<std::pair<std::size_t, LoadShare>> seen;  // (loaded check, share)
  for (std::uint64_t seed = 1; seed < 60; ++seed) {
    auto plan = plan_session(testing::gemm_task(), 3, seed);
    ASSERT_TRUE(plan.ok());
    int most = 0;
    std::size_t k = 0;
    for (const auto& c : plan->checks) {
      if (!c.sm_load) continue;
      seen.insert({k++, c.sm_load_share});
      most += c.sm_load_share == LoadShare::most;
      const bool says_most = c.label.find("all but an eighth") != std::string::npos;
      EXPECT_EQ(says_most, c.sm_load_share == LoadShare::most) << c.label;
    }
    EXPECT_GE(most, 1) << "seed " << seed;
  }
  EXPECT_EQ(seen.size(), 12u);  // every loaded check under either share, across seeds
}

// A check's load share, set again (the session's all but one SM, plan_load's lowering): its
// label names the share it runs under, once, and the words before it stay.
TEST(Plan, ALoadShareSetAgainRenamesTheLabel) {
  PlannedCall c;
  c.label = "hidden workload 2, new inputs";
  set_load_share(c, LoadShare::most);
  EXPECT_TRUE(c.sm_load);
  EXPECT_EQ(c.label,
            "hidden workload 2, new inputs, all but an eighth of the SMs busy (another "
            "schedule)");
  set_load_share(c, LoadShare::all_but_one);
  EXPECT_EQ(c.sm_load_share, LoadShare::all_but_one);
  EXPECT_EQ(c.label,
            "hidden workload 2, new inputs, all but one of the SMs busy (another "
            "schedule)");
  set_load_share(c, LoadShare::half);
  EXPECT_EQ(c.label, "hidden workload 2, new inputs, half the SMs busy (another schedule)");
}

// No check is planned under all but one SM: the session gives that share by the calls' speed
// (all_but_one_checks, session_decision_test.cc).
TEST(Plan, NoCheckIsPlannedUnderAllButOneSm) {
  for (std::uint64_t seed = 1; seed < 30; ++seed) {
    auto plan = plan_session(testing::gemm_task(), 3, seed);
    ASSERT_TRUE(plan.ok());
    for (const auto& c : plan->checks) EXPECT_NE(c.sm_load_share, LoadShare::all_but_one);
  }
}

// Two sessions with different seeds check different hidden sizes; one seed, the same sizes.
TEST(Plan, EachSessionDrawsItsOwnHiddenWorkloads) {
  auto all = task::load_tasks(Paths::discover().tasks());
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  for (const auto& task : *all) {
    std::set<std::vector<std::string>> seen;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      auto plan = plan_session(task, 3, seed);
      ASSERT_TRUE(plan.ok()) << task.name;
      EXPECT_EQ(hidden_sizes(*plan), hidden_sizes(*plan_session(task, 3, seed))) << task.name;
      seen.insert(hidden_sizes(*plan));
      for (std::size_t w = 1; w < plan->labels.size(); ++w) EXPECT_TRUE(plan->hidden[w]);
    }
    EXPECT_EQ(seen.size(), 4u) << task.name;
  }
}

TEST(Plan, TimingBurstsUseEverySlotOnceAndSometimesRepeatTheLastCall) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 3, 5);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->verifier.workloads.front().slots, kTimedSlots);
  TimingDraw draw(*plan, 77);
  int repeats = 0, n = 400;
  std::set<int> bases, firsts;
  int last_slot = -1;
  for (int i = 0; i < n; ++i) {
    std::vector<PlannedCall> burst = draw.next_burst(true);
    ASSERT_EQ(burst.size(), static_cast<std::size_t>(kTimedSlots));
    std::set<int> slots;
    for (std::size_t k = 0; k < burst.size(); ++k) {
      const PlannedCall& c = burst[k];
      EXPECT_EQ(c.workload, 0);
      slots.insert(c.slot);
      if (c.content == Content::fresh) bases.insert(c.base);
      if (c.content == Content::repeat) {
        EXPECT_EQ(k, 0u);  // only first, on the slot the previous burst ended with
        EXPECT_EQ(c.slot, last_slot);
        ++repeats;
      }
    }
    EXPECT_EQ(slots.size(), burst.size());  // distinct slots
    firsts.insert(burst.front().slot);
    last_slot = burst.back().slot;
  }
  EXPECT_GT(repeats, n / 8);  // about a quarter of the bursts
  EXPECT_LT(repeats, n / 2);
  EXPECT_EQ(firsts.size(), static_cast<std::size_t>(kTimedSlots));  // the order is drawn
  EXPECT_EQ(bases.size(), 3u);
  TimingDraw fresh_only(*plan, 77);
  for (int i = 0; i < 50; ++i)
    for (const auto& c : fresh_only.next_burst(false)) EXPECT_EQ(c.content, Content::fresh);
  TimingDraw single(*plan, 78);
  std::set<int> single_slots;
  for (int i = 0; i < 100; ++i) {
    auto b = single.next_burst(true, kTimingBurst);
    ASSERT_EQ(b.size(), static_cast<std::size_t>(kTimingBurst));
    single_slots.insert(b.front().slot);
  }
  EXPECT_EQ(single_slots.size(), static_cast<std::size_t>(kTimedSlots));  // every buffer set used
}

// A loaded timing round: new inputs under the SM load on any buffer set, never a repeat; about
// one round in kLoadedTimingOdds is drawn loaded.
TEST(Plan, ALoadedTimingRoundIsAFreshCheckOnAnyBufferSet) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 3, 5);
  ASSERT_TRUE(plan.ok());
  TimingDraw draw(*plan, 93);
  (void)draw.next_burst(true, kTimingBurst);
  std::set<int> slots;
  std::set<LoadShare> shares;  // a loaded round's share is drawn too
  int loaded = 0;
  for (int i = 0; i < 600; ++i) {
    const auto b = draw.next_burst(true, kTimingBurst, true, true);  // a repeat asked: refused
    ASSERT_EQ(b.size(), 1u);
    EXPECT_TRUE(b.front().sm_load);
    EXPECT_EQ(b.front().content, Content::fresh);
    const LoadShare sh = b.front().sm_load_share;
    EXPECT_NE(b.front().label.find(sh == LoadShare::most          ? "all but an eighth of the SMs"
                                   : sh == LoadShare::all_but_one ? "all but one of the SMs"
                                                                  : "half the SMs busy"),
              std::string::npos);
    shares.insert(b.front().sm_load_share);
    slots.insert(b.front().slot);
    loaded += draw.loaded_round();
  }
  EXPECT_EQ(slots.size(), static_cast<std::size_t>(kTimedSlots));
  EXPECT_EQ(shares.size(), 3u);  // all but one SM too (leak13/timing_slots_eighth_fit.cu)
  EXPECT_GT(loaded, 600 / static_cast<int>(kLoadedTimingOdds) / 2);
  EXPECT_LT(loaded, 2 * 600 / static_cast<int>(kLoadedTimingOdds));
  EXPECT_FALSE(draw.next_burst(true, kTimingBurst).front().sm_load);
}

// The timing phase's share draw: all three, or only the half and the larger share once its
// round with all but one SM busy is made.
TEST(Plan, ATimingShareDrawLeavesAllButOneOutWhenAsked) {
  auto plan = plan_session(testing::gemm_task(), 3, 5);
  ASSERT_TRUE(plan.ok());
  TimingDraw draw(*plan, 95);
  std::set<LoadShare> all, two;
  for (int i = 0; i < 200; ++i) {
    all.insert(draw.draw_share(true));
    two.insert(draw.draw_share(false));
  }
  EXPECT_EQ(all.size(), 3u);
  EXPECT_EQ(two, (std::set<LoadShare>{LoadShare::half, LoadShare::most}));
}

// The timing phase's closing rounds with all but one SM busy: one on a buffer set named, and
// the sets in a drawn order, each once.
TEST(Plan, ALoadedRoundOnABufferSetNamed) {
  auto plan = plan_session(testing::gemm_task(), 3, 5);
  ASSERT_TRUE(plan.ok());
  TimingDraw draw(*plan, 96);
  std::set<std::vector<int>> orders;
  for (int i = 0; i < 20; ++i) {
    const auto order = draw.drawn_slots();
    EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(),
              static_cast<std::size_t>(kTimedSlots));
    orders.insert(order);
  }
  EXPECT_GT(orders.size(), 1u);
  const auto b = draw.loaded_on(3, LoadShare::all_but_one);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b.front().slot, 3);
  EXPECT_EQ(b.front().content, Content::fresh);
  EXPECT_TRUE(b.front().sm_load);
  EXPECT_NE(b.front().label.find("all but one of the SMs busy"), std::string::npos);
}

// A loaded round asked with a share gets that share, its label saying so.
TEST(Plan, ALoadedTimingRoundTakesTheShareAsked) {
  auto plan = plan_session(testing::gemm_task(), 3, 5);
  ASSERT_TRUE(plan.ok());
  TimingDraw draw(*plan, 94);
  for (int i = 0; i < 20; ++i) {
    const auto b = draw.next_burst(true, kTimingBurst, false, true, LoadShare::all_but_one);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.front().sm_load_share, LoadShare::all_but_one);
    EXPECT_NE(b.front().label.find("all but one of the SMs busy"), std::string::npos);
  }
}

TEST(Plan, AForcedRepeatAlwaysRepeatsThePreviousCall) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 3, 5);
  ASSERT_TRUE(plan.ok());
  TimingDraw draw(*plan, 91);
  const auto first = draw.next_burst(true, kTimingBurst);
  for (int i = 0; i < 3; ++i) {  // the closing repeats, back to back on the same buffer set
    const auto b = draw.next_burst(true, kTimingBurst, true);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.front().content, Content::repeat);
    EXPECT_EQ(b.front().slot, first.back().slot);
  }
  // Unforced, the stream goes on drawing fresh inputs most of the time.
  int fresh = 0;
  for (int i = 0; i < 40; ++i)
    fresh += draw.next_burst(true, kTimingBurst).front().content == Content::fresh;
  EXPECT_GT(fresh, 20);
  // Before any call there is nothing to repeat, forced or not.
  TimingDraw cold(*plan, 92);
  EXPECT_EQ(cold.next_burst(true, kTimingBurst, true).front().content, Content::fresh);
}

// The timing, audited and library calls get inputs nobody saw before (the verifier draws them and
// checks the outputs at sampled positions: gpu/sample_check.h), so no memo of a base set's rows
// serves them (red team redteam/memo_two_bases.cu), in every family: the attention backward's
// fresh O and LSE come from the verifier's forward (red team leak6, memo of the backward's bases).
// The draws do not depend on the family: the stream of slots, bases and poisons is the same.
TEST(Plan, TimedAndAuditedCallsGetFreshInputsInEveryFamily) {
  auto plan = plan_session(testing::gemm_task(), 3, 5);
  ASSERT_TRUE(plan.ok());
  SessionPlan bwd = *plan;
  for (auto& w : bwd.verifier.workloads) w.problem.kind = gpu::Kind::attention_bwd;
  TimingDraw gemm_draw(*plan, 17), bwd_draw(bwd, 17);
  for (int i = 0; i < 50; ++i) {
    const PlannedCall g = gemm_draw.next_burst(false, kTimingBurst).front();
    const PlannedCall b = bwd_draw.next_burst(false, kTimingBurst).front();
    for (const PlannedCall* c : {&g, &b}) {
      EXPECT_EQ(c->content, Content::fresh);
      EXPECT_EQ(c->transform_seed, 0u);  // the verifier's secret draws the inputs, not the plan
      EXPECT_NE(c->label.find("new inputs"), std::string::npos);
    }
    EXPECT_EQ(g.slot, b.slot);
    EXPECT_EQ(g.base, b.base);
    EXPECT_EQ(g.poison_seed, b.poison_seed);
  }
  EXPECT_EQ(gemm_draw.fresh_on(1, "audited call").content, Content::fresh);
  EXPECT_EQ(gemm_draw.next_library().content, Content::fresh);
  EXPECT_EQ(bwd_draw.fresh_on(1, "audited call").content, Content::fresh);
  EXPECT_EQ(bwd_draw.next_library().content, Content::fresh);
  // The checks keep base sets under transforms: every element against a known reference.
  for (const auto& c : plan->checks) EXPECT_NE(c.content, Content::fresh);
}

// The repeat comes right after the call it repeats: same workload, slot and inputs.
TEST(Plan, TheCheckedRepeatFollowsTheCallItRepeats) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 5, 5);
  ASSERT_TRUE(plan.ok());
  ASSERT_GE(plan->checks.size(), 2u);
  const PlannedCall &first = plan->checks[0], &repeat = plan->checks[1];
  EXPECT_EQ(repeat.content, Content::repeat);
  EXPECT_EQ(repeat.workload, first.workload);
  EXPECT_EQ(repeat.slot, first.slot);
  EXPECT_EQ(repeat.base, first.base);
}

TEST(Plan, EveryWorkloadOfEveryTaskIsCheckedWhateverTheTrialCount) {
  auto all = task::load_tasks(Paths::discover().tasks());
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  for (const auto& task : *all) {
    auto plan = plan_session(task, 3, 9);
    ASSERT_TRUE(plan.ok()) << task.name;
    std::set<int> checked;
    for (const auto& c : plan->checks) checked.insert(c.workload);
    EXPECT_EQ(checked.size(), plan->verifier.workloads.size()) << task.name;
    EXPECT_EQ(checked.size(), 6u) << task.name;  // the timed one and five drawn
    // Every distribution of the family is checked, and the first input set is normal.
    std::set<gpu::Distribution> dists;
    for (const auto& w : plan->verifier.workloads)
      for (const auto& b : w.bases) dists.insert(b.dist);
    const auto want = input_distributions(task.family);
    EXPECT_EQ(dists, std::set<gpu::Distribution>(want.begin(), want.end())) << task.name;
    EXPECT_EQ(plan->verifier.workloads[0].bases[0].dist, gpu::Distribution::normal);
  }
}

TEST(Plan, InputScaleOfEachFamily) {
  EXPECT_EQ(input_rms(task::Family::gemm), 1.0);
  EXPECT_NEAR(input_rms(task::Family::attention_fwd), 1.01424, 1e-5);
  EXPECT_NEAR(input_rms(task::Family::attention_bwd), 1.01424, 1e-5);
}

// Which hidden workload gets which distribution is drawn: two seeds differ.
TEST(Plan, TheDistributionsOfTheHiddenCallsAreDrawn) {
  auto all = task::load_tasks(Paths::discover().tasks());
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  auto order = [](const SessionPlan& p) {
    std::vector<gpu::Distribution> out;
    for (const auto& w : p.verifier.workloads)
      for (const auto& b : w.bases) out.push_back(b.dist);
    return out;
  };
  for (const auto& task : *all) {
    std::set<std::vector<gpu::Distribution>> seen;
    for (std::uint64_t seed = 1; seed <= 12; ++seed)
      seen.insert(order(*plan_session(task, 3, seed)));
    EXPECT_GE(seen.size(), 3u) << task.name;
  }
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
      // The forward's LSE is a logarithm, judged by log_atol alone (task/tolerance.h); the
      // verifier gets both through the problem's JSON.
      const bool fwd = task.family == task::Family::attention_fwd;
      EXPECT_EQ(p->tolerance.log_atol, fwd ? task::kLogAtol : 0.0) << task.name;
      for (std::size_t k = 0; k < p->outputs.size(); ++k)
        EXPECT_EQ(p->outputs[k].log, fwd && k == 1) << task.name << " " << p->outputs[k].name;
      auto back = gpu::problem_from_json(gpu::to_json(*p));
      ASSERT_TRUE(back.ok()) << back.error().to_string();
      EXPECT_EQ(back->tolerance.log_atol, p->tolerance.log_atol);
      EXPECT_EQ(back->tolerance.log_rtol, p->tolerance.log_rtol);
      EXPECT_EQ(p->tolerance.log_rtol, fwd ? task::kLogRtol : 0.0) << task.name;
      EXPECT_EQ(back->outputs.back().log, p->outputs.back().log);
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
