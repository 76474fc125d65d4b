#include "core/result.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

Result<int> parse_positive(int v) {
  if (v <= 0) return make_error("not positive", "pass a number > 0");
  return v;
}

Result<int> doubled(int v) {
  PTXB_TRY(int x, parse_positive(v));
  return 2 * x;
}

TEST(Result, HoldsValueOrError) {
  auto ok = parse_positive(3);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 3);
  auto bad = parse_positive(-1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "not positive");
  EXPECT_EQ(bad.error().to_string(), "not positive (pass a number > 0)");
}

TEST(Result, TryPropagatesErrors) {
  EXPECT_EQ(*doubled(4), 8);
  EXPECT_EQ(doubled(0).error().message, "not positive");
}

enum class Why { too_big, too_small };

Result<int, Why> bounded(int v) {
  if (v > 10) return Why::too_big;
  if (v < 0) return Why::too_small;
  return v;
}

TEST(Result, TypedErrors) {
  EXPECT_EQ(*bounded(4), 4);
  ASSERT_FALSE(bounded(11).ok());
  EXPECT_EQ(bounded(11).error(), Why::too_big);
  EXPECT_EQ(bounded(-1).error(), Why::too_small);
}

TEST(Result, VoidStatus) {
  Status s;
  EXPECT_TRUE(s.ok());
  Status e = make_error("x");
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "x");
}

TEST(ResultDeathTest, ValueOnErrorAborts) {
  auto bad = parse_positive(-1);
  EXPECT_DEATH((void)bad.value(), "internal error");
}

}  // namespace
}  // namespace ptxbench
