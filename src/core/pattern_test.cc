#include "core/pattern.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxbench {
namespace {

TEST(Pattern, SpacesAreEcmaScriptSpaces) {
  const Pattern call(R"(\bsystem\s*\()");
  for (std::string_view s :
       {"system(", "system (", "system\t(", "system\v(", "system\f(", "system\r\n("})
    EXPECT_TRUE(call.search(s)) << s;
  EXPECT_FALSE(call.search("mysystem("));
  EXPECT_FALSE(call.search("system\x85("));  // a byte above 0x7f is not a space
  EXPECT_TRUE(Pattern(R"([^\s:]+)").matches("a\x85z"));
  EXPECT_FALSE(Pattern(R"([^\s:]+)").matches("a\vz"));
  EXPECT_TRUE(Pattern(R"(^\S+$)").matches("abc"));
  EXPECT_FALSE(Pattern(R"(^\S+$)").matches("a\vc"));
}

TEST(Pattern, DotStopsAtLineEnds) {
  EXPECT_TRUE(Pattern("^linux/.*$").matches("linux/a.h"));
  EXPECT_FALSE(Pattern("^linux/.*$").matches("linux/a.h\r"));
  EXPECT_FALSE(Pattern("^linux/.*$").matches("linux/a\n.h"));
  EXPECT_EQ(to_re2_syntax(R"(a.b\.c[.]\\s)"), R"(a[^\n\r]b\.c[.]\\s)");
  EXPECT_EQ(to_re2_syntax(R"([[:space:]x\s])"), R"([[:space:]x\t-\r ])");
}

TEST(Pattern, AnchorsAreTheTextsEnds) {
  const Pattern p(R"(^\s*#\s*include)");
  EXPECT_TRUE(p.search("  # include <a>"));
  EXPECT_FALSE(p.search("x\n#include <a>"));
  EXPECT_FALSE(Pattern("a$").search("a\n"));
}

TEST(Pattern, FindGroupsAndContext) {
  const Pattern p(R"((\d+)\s+(bytes|registers))");
  auto all = p.find_all("Used 58 registers, 16 bytes smem");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].str(1), "58");
  EXPECT_EQ(all[0].str(2), "registers");
  EXPECT_EQ(all[1].position, 19u);
  EXPECT_EQ(all[1].str(0), "16 bytes");
  // \b sees the byte before `from`.
  EXPECT_FALSE(Pattern(R"(\bfoo)").find("xfoo", 1));
  EXPECT_TRUE(Pattern(R"(\bfoo)").find(" foo", 1));
  // A group that took no part is empty.
  auto m = Pattern("(a)|(b)").find("b");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->str(1), "");
  EXPECT_EQ(m->str(2), "b");
  EXPECT_FALSE(Pattern("x*").find("abc", 4));
  EXPECT_EQ(Pattern("x*").find_all("ab").size(), 3u);  // empty matches advance
}

TEST(Pattern, WholeMatchAndReplace) {
  auto m = Pattern(R"(^([A-Za-z_]\w*)$)").match_whole("abc_1");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->str(1), "abc_1");
  EXPECT_FALSE(Pattern(R"([a-z]+)").match_whole("abc1"));
  EXPECT_EQ(Pattern(R"(/(\w+)/)").replace_all("a/b/c/d", "<\\1>"), "a<b>c/d");
  EXPECT_EQ(Pattern("^ptxas:\\s*").replace_first("ptxas: x ptxas: y", ""), "x ptxas: y");
}

// What crashed std::regex (issue 38): one line of millions of spaces or of base64-like text,
// searched with patterns that have \s* and alternations. RE2 neither recurses nor backtracks.
TEST(Pattern, HugeLinesAreLinear) {
  const std::string spaces(4 << 20, ' ');
  const std::string b64 = [] {
    std::string s;
    for (int i = 0; i < (1 << 20); ++i) s += "QUJDRA=+/"[i % 9];
    return s;
  }();
  const Pattern include(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<[ \t]*tvm/ffi/)");
  const Pattern call(R"(\b(system|popen|fork)\s*\()");
  const Pattern path(R"((?:[^\s:"'()]*/)+([^/\s:"'()]+\.(?:cu|cuh|ptx|h)))");
  for (const std::string* text : {&spaces, &b64}) {
    EXPECT_FALSE(include.search(*text));
    EXPECT_FALSE(call.search(*text));
    EXPECT_EQ(path.replace_all(*text, "\\1").size(), text->size());
  }
  EXPECT_TRUE(call.search(spaces + "system" + spaces + "("));
  EXPECT_TRUE(Pattern(R"(^\s*$)").matches(spaces));
}

}  // namespace
}  // namespace ptxbench
