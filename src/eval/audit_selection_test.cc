#include "eval/audit_selection.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval/audit_trace.h"

namespace ptxbench::eval {
namespace {

std::vector<FunctionTime> equal_functions(int n, double ms) {
  std::vector<FunctionTime> fs;
  for (int i = 0; i < n; ++i) fs.push_back({"k" + std::to_string(i), ms, 0});
  return fs;
}

TEST(AuditSelection, OneFunctionCarryingTheWorkIsTheOnlyOneAudited) {
  // 28 functions, the 9th carrying 99% of the time (the others 1% together).
  std::vector<FunctionTime> fs = equal_functions(28, 0.01 / 27);
  fs[8].ms = 0.99;
  const AuditChoice c = choose_audited(fs);
  EXPECT_TRUE(c.measured);
  ASSERT_EQ(c.audited.size(), 1u);
  EXPECT_EQ(c.audited[0].name, "k8");
  EXPECT_NEAR(c.audited[0].share, 0.99, 1e-9);
  ASSERT_EQ(c.skipped.size(), 27u);
  for (const auto& [f, why] : c.skipped) {
    EXPECT_EQ(why, AuditSkip::small_share) << f.name;
    EXPECT_NEAR(f.share, 0.01 / 27, 1e-9) << f.name;
  }
  EXPECT_NEAR(c.audited_share(), 0.99, 1e-9);
}

TEST(AuditSelection, ManyEqualFunctionsAuditOneAndCannotReachTheTarget) {
  for (int n : {28, 280}) {
    const AuditChoice c = choose_audited(equal_functions(n, 0.5));
    ASSERT_LE(c.audited.size(), static_cast<std::size_t>(kMaxAuditedFunctions));
    // The largest kMaxAuditedFunctions cover 4/n < 95%: only the largest (the first launched
    // among equals) is audited, and its share is far below the target.
    ASSERT_EQ(c.audited.size(), 1u) << n;
    EXPECT_EQ(c.audited[0].name, "k0");
    EXPECT_EQ(c.skipped.size(), static_cast<std::size_t>(n - 1));
    for (const auto& s : c.skipped) EXPECT_EQ(s.second, AuditSkip::unreachable);
    EXPECT_LT(c.audited_share(), kAuditTimeTarget);
    EXPECT_NEAR(c.audited_share(), 1.0 / n, 1e-9);
  }
}

TEST(AuditSelection, FunctionsAreTakenUntilTheTargetIsCovered) {
  // A backward pass: main kernel 70%, dQ conversion 20%, preprocess 8%, a memset kernel 2%.
  const std::vector<FunctionTime> fs{
      {"pre", 8, 0}, {"main", 70, 0}, {"memset", 2, 0}, {"dq", 20, 0}};
  const AuditChoice c = choose_audited(fs);
  ASSERT_EQ(c.audited.size(), 3u);
  EXPECT_EQ(c.audited[0].name, "main");
  EXPECT_EQ(c.audited[1].name, "dq");
  EXPECT_EQ(c.audited[2].name, "pre");
  ASSERT_EQ(c.skipped.size(), 1u);
  EXPECT_EQ(c.skipped[0].first.name, "memset");
  EXPECT_EQ(c.skipped[0].second, AuditSkip::small_share);
  EXPECT_NEAR(c.audited_share(), 0.98, 1e-9);
}

TEST(AuditSelection, TiesGoToTheFirstLaunched) {
  // Two halves: both are needed for 95%; among equals the first launched comes first.
  const AuditChoice two = choose_audited({{"b", 5, 0}, {"a", 5, 0}});
  ASSERT_EQ(two.audited.size(), 2u);
  EXPECT_EQ(two.audited[0].name, "b");
  EXPECT_EQ(two.audited[1].name, "a");
  EXPECT_TRUE(two.skipped.empty());
  EXPECT_DOUBLE_EQ(two.audited_share(), 1);
  // Four equal functions exactly reach the target with kMaxAuditedFunctions = 4 (100%); a fifth
  // makes it unreachable (80%).
  EXPECT_EQ(choose_audited(equal_functions(4, 1)).audited.size(), 4u);
  const AuditChoice five = choose_audited(equal_functions(5, 1));
  ASSERT_EQ(five.audited.size(), 1u);
  EXPECT_EQ(five.audited[0].name, "k0");
}

TEST(AuditSelection, ZeroTimeFunctionsAreNeverAudited) {
  // "late" was launched only in calls without function times.
  const AuditChoice c = choose_audited({{"late", 0, 0}, {"main", 3, 0}});
  ASSERT_EQ(c.audited.size(), 1u);
  EXPECT_EQ(c.audited[0].name, "main");
  ASSERT_EQ(c.skipped.size(), 1u);
  EXPECT_EQ(c.skipped[0].first.name, "late");
  EXPECT_EQ(c.skipped[0].second, AuditSkip::no_time);
  EXPECT_DOUBLE_EQ(c.audited_share(), 1);
}

TEST(AuditSelection, NothingMeasuredFallsBackToLaunchOrderWithUnknownShares) {
  const AuditChoice few = choose_audited(equal_functions(3, 0));
  EXPECT_FALSE(few.measured);
  EXPECT_EQ(few.audited.size(), 3u);
  EXPECT_DOUBLE_EQ(few.audited_share(), 1);  // every launched function audited
  const AuditChoice many = choose_audited(equal_functions(280, 0));
  EXPECT_EQ(many.audited.size(), static_cast<std::size_t>(kMaxAuditedFunctions));
  EXPECT_EQ(many.audited[0].name, "k0");
  EXPECT_EQ(many.skipped.size(), 280u - kMaxAuditedFunctions);
  EXPECT_EQ(many.skipped.back().second, AuditSkip::over_cap);
  EXPECT_DOUBLE_EQ(many.audited_share(), 0);  // unproven: no credit
}

TEST(AuditSelection, NoFunctionsNoChoice) {
  const AuditChoice c = choose_audited({});
  EXPECT_TRUE(c.audited.empty());
  EXPECT_TRUE(c.skipped.empty());
}

TEST(AuditBudget, FurtherFunctionsStartOnlyWithinTheBudget) {
  const AuditBudget b;                    // kAuditPhaseBudgetSeconds
  EXPECT_TRUE(b.may_start(0, 1e6, 1e6));  // the first always: the session's own broker
  EXPECT_TRUE(b.may_start(1, 3, 3));
  EXPECT_TRUE(b.may_start(2, kAuditPhaseBudgetSeconds - 3, 3));
  EXPECT_FALSE(b.may_start(2, kAuditPhaseBudgetSeconds - 3, 3.5));
  // Injected durations: functions costing 12 s each after a 2 s first one.
  std::vector<double> cost{2, 12, 12, 12};
  double elapsed = 0, last = 0;
  std::size_t started = 0;
  for (std::size_t k = 0; k < cost.size() && b.may_start(k, elapsed, last); ++k) {
    elapsed += cost[k];
    last = cost[k];
    ++started;
  }
  EXPECT_EQ(started, 3u);  // 0 + 2 + 12 = 14 s, then 14 + 12 = 26 <= 30, then 26 + 12 > 30
  EXPECT_LE(elapsed, kAuditPhaseBudgetSeconds + cost.back());
}

TEST(AuditBudget, SkippedForBudgetAreListed) {
  AuditTrace t;
  t.shares_measured = true;
  for (auto [name, share] : {std::pair{"a", 0.5}, {"b", 0.3}, {"c", 0.2}}) {
    TracedFunction f{name, 0, false, {}, {}};
    f.share = share;
    t.functions.push_back(f);
  }
  skip_for_budget(t, 1);
  ASSERT_EQ(t.functions.size(), 1u);
  ASSERT_EQ(t.skipped.size(), 2u);
  EXPECT_EQ(t.skipped[0].name, "b");
  EXPECT_EQ(t.skipped[0].why, AuditSkip::budget);
  EXPECT_NEAR(t.skipped[1].share, 0.2, 1e-9);
  EXPECT_NEAR(t.audited_share, 0.5, 1e-9);
  EXPECT_LT(t.audited_share, kAuditTimeTarget);
  EXPECT_EQ(t.to_json()["skipped"][0]["why"], "budget");
  skip_for_budget(t, 5);  // past the end: nothing changes
  EXPECT_EQ(t.functions.size(), 1u);
}

TEST(AuditSelection, SkipReasonsHaveNames) {
  EXPECT_EQ(to_string(AuditSkip::small_share), "small_share");
  EXPECT_EQ(to_string(AuditSkip::unreachable), "target_unreachable");
  EXPECT_EQ(to_string(AuditSkip::budget), "budget");
  EXPECT_EQ(to_string(AuditSkip::no_time), "no_time");
  EXPECT_EQ(to_string(AuditSkip::over_cap), "over_cap");
}

}  // namespace
}  // namespace ptxbench::eval
