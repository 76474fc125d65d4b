#include "core/text.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(Text, TrimSplitJoin) {
  EXPECT_EQ(trim("  a b \n"), "a b");
  EXPECT_EQ(split("a,b,,c", ','), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(split_lines("x\r\ny\n"), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(join({"a", "b"}, ", "), "a, b");
  EXPECT_EQ(to_lower("HGMMA"), "hgmma");
}

TEST(Text, LastLineStarting) {
  constexpr auto npos = std::string_view::npos;
  EXPECT_EQ(last_line_starting("a x\nb\na y\n", "a "), 6u);
  EXPECT_EQ(last_line_starting("a x\nb a y", "a "), 0u);  // not at a line's start: skipped
  EXPECT_EQ(last_line_starting("b\nc", "a"), npos);
  EXPECT_EQ(last_line_starting("", "a"), npos);
  EXPECT_EQ(last_line_starting("abc", ""), npos);
}

TEST(Text, HumanCount) {
  EXPECT_EQ(human_count(12), "12");
  EXPECT_EQ(human_count(1234567), "1.23M");
}

}  // namespace
}  // namespace ptxbench
