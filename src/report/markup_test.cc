#include "report/markup.h"

#include <gtest/gtest.h>

namespace ptxbench::report {
namespace {

TEST(Markup, EscapesTheFiveCharacters) {
  EXPECT_EQ(escape_markup("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
}

TEST(Markup, ShowsControlBytesAndKeepsLineBreaks) {
  EXPECT_EQ(escape_markup("x\x1b[2Jy\n\tz\x7f"), "x\\x1b[2Jy\n\tz\\x7f");
}

TEST(Markup, ReplacesInvalidUtf8) {
  EXPECT_EQ(escape_markup("a\xff"
                          "b"),
            "a\xef\xbf\xbd"
            "b");
  EXPECT_EQ(escape_markup("\xc3\x97"), "\xc3\x97");  // valid text stays as it is
}

}  // namespace
}  // namespace ptxbench::report
