#include "core/outcome.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(Outcome, RoundTripsEveryName) {
  for (Outcome o :
       {Outcome::passed, Outcome::incorrect, Outcome::no_code, Outcome::policy_violation,
        Outcome::compile_error, Outcome::compile_timeout, Outcome::runtime_error, Outcome::timeout,
        Outcome::not_run, Outcome::harness_error}) {
    auto back = outcome_from_string(to_string(o));
    ASSERT_TRUE(back.has_value()) << to_string(o);
    EXPECT_EQ(*back, o);
  }
  EXPECT_FALSE(outcome_from_string("pass").has_value());
}

}  // namespace
}  // namespace ptxbench
