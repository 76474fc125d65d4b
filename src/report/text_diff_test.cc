#include "report/text_diff.h"

#include <gtest/gtest.h>

namespace ptxbench::report {
namespace {

using Kind = DiffLine::Kind;

std::string numbered(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += "line " + std::to_string(i) + "\n";
  return s;
}

TEST(TextDiff, SameLinesHaveNoHunk) {
  const LineDiff d = line_diff("a\nb\n", "a\nb");  // a final newline adds no line
  EXPECT_TRUE(d.hunks.empty());
  EXPECT_EQ(d.added + d.removed, 0);
}

TEST(TextDiff, OneChangedLineIsAHunkWithItsContext) {
  std::string after = numbered(1, 20);
  after.replace(after.find("line 10\n"), 8, "line ten\n");
  const LineDiff d = line_diff(numbered(1, 20), after, 2);
  ASSERT_EQ(d.hunks.size(), 1u);
  EXPECT_EQ(d.added, 1);
  EXPECT_EQ(d.removed, 1);
  const DiffHunk& h = d.hunks[0];
  EXPECT_EQ(h.old_start, 8);
  EXPECT_EQ(h.old_count, 5);
  EXPECT_EQ(h.new_start, 8);
  EXPECT_EQ(h.new_count, 5);
  ASSERT_EQ(h.lines.size(), 6u);
  EXPECT_EQ(h.lines[0].text, "line 8");
  EXPECT_EQ(h.lines[0].kind, Kind::same);
  EXPECT_EQ(h.lines[2].kind, Kind::removed);
  EXPECT_EQ(h.lines[2].text, "line 10");
  EXPECT_EQ(h.lines[3].kind, Kind::added);
  EXPECT_EQ(h.lines[3].text, "line ten");
  EXPECT_EQ(h.lines[5].text, "line 12");
}

TEST(TextDiff, FarApartChangesAreTwoHunks) {
  std::string after = numbered(1, 40);
  after.replace(after.find("line 5\n"), 7, "");
  after += "line 41\n";
  const LineDiff d = line_diff(numbered(1, 40), after, 3);
  ASSERT_EQ(d.hunks.size(), 2u);
  EXPECT_EQ(d.removed, 1);
  EXPECT_EQ(d.added, 1);
  EXPECT_EQ(d.hunks[1].lines.back().text, "line 41");
  EXPECT_EQ(d.hunks[1].lines.back().kind, Kind::added);
}

TEST(TextDiff, FromNothingEveryLineIsAdded) {
  const LineDiff d = line_diff("", "x\ny\n");
  ASSERT_EQ(d.hunks.size(), 1u);
  EXPECT_EQ(d.added, 2);
  EXPECT_EQ(d.hunks[0].lines[1].text, "y");
}

}  // namespace
}  // namespace ptxbench::report
