#include "core/outcome.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(Outcome, RoundTripsEveryName) {
  for (Outcome o : kOutcomes) {
    auto back = outcome_from_string(to_string(o));
    ASSERT_TRUE(back.has_value()) << to_string(o);
    EXPECT_EQ(*back, o);
  }
  EXPECT_FALSE(outcome_from_string("pass").has_value());
}

TEST(Outcome, TheTableHoldsEveryOutcomeOnceInDeclarationOrder) {
  for (std::size_t i = 0; i < kOutcomes.size(); ++i)
    EXPECT_EQ(static_cast<std::size_t>(kOutcomes[i]), i) << to_string(kOutcomes[i]);
  EXPECT_EQ(kOutcomes.back(), Outcome::task_suite_error);  // the last enumerator
  EXPECT_EQ(to_string(static_cast<Outcome>(kOutcomes.size())), "unknown");
}

}  // namespace
}  // namespace ptxbench
