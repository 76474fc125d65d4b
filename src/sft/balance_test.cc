#include "sft/balance.h"

#include <gtest/gtest.h>

#include <map>

namespace ptxbench::sft {
namespace {

Example ex(const std::string& task, const std::string& category, int turn, int n,
           std::string repair_key = "") {
  Example x;
  x.task = task;
  x.category = category;
  x.turn = turn;
  x.key = task + "/" + category + "/" + std::to_string(turn) + "/" + std::to_string(n);
  x.repair_key = repair_key.empty() ? x.key + "/r" : repair_key;
  return x;
}

std::map<std::string, int> per_category(const std::vector<Example>& xs) {
  std::map<std::string, int> m;
  for (const auto& x : xs) ++m[x.category];
  return m;
}

TEST(Balance, CapPerTaskSpreadsOverStrata) {
  std::vector<Example> xs;
  for (int i = 0; i < 50; ++i) xs.push_back(ex("a", "compile_error", 1, i));  // dominant class
  for (int i = 0; i < 3; ++i) xs.push_back(ex("a", "timeout", 2, i));
  for (int i = 0; i < 5; ++i) xs.push_back(ex("a", "incorrect", 1, i));
  for (int i = 0; i < 4; ++i) xs.push_back(ex("b", "compile_error", 1, i));
  auto kept = balance(xs, 10, 7);
  std::map<std::string, int> per_task;
  for (const auto& x : kept) ++per_task[x.task];
  EXPECT_EQ(per_task["a"], 10);
  EXPECT_EQ(per_task["b"], 4);  // under the cap: everything
  std::vector<Example> a;
  for (const auto& x : kept)
    if (x.task == "a") a.push_back(x);
  auto m = per_category(a);
  EXPECT_EQ(m["timeout"], 3);  // the rare strata are taken whole
  EXPECT_GE(m["incorrect"], 3);
  EXPECT_LE(m["compile_error"], 4);  // the dominant class no longer dominates
  EXPECT_EQ(m["compile_error"] + m["incorrect"], 7);
}

TEST(Balance, DeterministicForASeedAndIndependentOfInputOrder) {
  std::vector<Example> xs;
  for (int i = 0; i < 20; ++i) xs.push_back(ex("a", "compile_error", 1 + i % 3, i));
  auto keys = [](const std::vector<Example>& v) {
    std::vector<std::string> k;
    for (const auto& x : v) k.push_back(x.key);
    std::sort(k.begin(), k.end());
    return k;
  };
  auto k1 = keys(balance(xs, 7, 1));
  std::vector<Example> reversed(xs.rbegin(), xs.rend());
  EXPECT_EQ(k1, keys(balance(reversed, 7, 1)));
  EXPECT_EQ(k1, keys(balance(xs, 7, 1)));
  EXPECT_NE(k1, keys(balance(xs, 7, 2)));  // another seed picks others within strata
}

TEST(Balance, KeepsInputOrderAndZeroCapKeepsAll) {
  std::vector<Example> xs;
  for (int i = 0; i < 6; ++i) xs.push_back(ex("a", "timeout", 1 + i % 2, i));
  EXPECT_EQ(balance(xs, 0, 0).size(), 6u);
  auto kept = balance(xs, 4, 0);
  ASSERT_EQ(kept.size(), 4u);
  for (std::size_t i = 1; i < kept.size(); ++i) {
    auto pos = [&](const Example& x) {
      return std::find_if(xs.begin(), xs.end(), [&](const Example& y) { return y.key == x.key; }) -
             xs.begin();
    };
    EXPECT_LT(pos(kept[i - 1]), pos(kept[i]));
  }
  std::map<int, int> per_turn;
  for (const auto& x : kept) ++per_turn[x.turn];
  EXPECT_EQ(per_turn[1], 2);
  EXPECT_EQ(per_turn[2], 2);
}

TEST(PairRows, OneRowPerRepairFromTheLatestFailure) {
  std::vector<Example> xs = {ex("a", "compile_error", 1, 0, "r1"), ex("a", "incorrect", 2, 0, "r1"),
                             ex("a", "timeout", 4, 0, "r2")};
  auto one = pair_rows(xs, Pairing::one);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].turn, 2);
  EXPECT_EQ(one[1].turn, 4);
  EXPECT_EQ(pair_rows(xs, Pairing::all).size(), 3u);
}

}  // namespace
}  // namespace ptxbench::sft
