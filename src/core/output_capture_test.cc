#include "core/output_capture.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(OutputCapture, KeepsEverythingUnderTheCap) {
  OutputCapture c(100);
  c.add("hello ", 6);
  c.add("world", 5);
  bool cut = true;
  EXPECT_EQ(c.text(&cut), "hello world");
  EXPECT_FALSE(cut);
}

TEST(OutputCapture, KeepsHeadAndTailOfALongStream) {
  OutputCapture c(100);
  c.add("BEGIN", 5);
  std::string filler(1000, '.');
  for (int i = 0; i < 100; ++i) c.add(filler.data(), filler.size());
  c.add("END", 3);
  bool cut = false;
  std::string t = c.text(&cut);
  EXPECT_TRUE(cut);
  EXPECT_EQ(t.rfind("BEGIN", 0), 0u);
  EXPECT_TRUE(t.ends_with("END"));
  EXPECT_NE(t.find("[... 99908 bytes cut by ptxbench ...]"), std::string::npos);
  EXPECT_EQ(c.text(), t);  // text() does not consume
}

}  // namespace
}  // namespace ptxbench
