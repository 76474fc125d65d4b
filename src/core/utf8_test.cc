#include "core/utf8.h"

#include <gtest/gtest.h>

#include "core/json.h"

namespace ptxbench {
namespace {

TEST(Utf8, ValidTextIsKept) {
  for (std::string_view s :
       {"", "plain ascii", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {
    EXPECT_TRUE(is_valid_utf8(s)) << s;
    EXPECT_EQ(to_valid_utf8(s), s);
  }
}

TEST(Utf8, EachInvalidByteBecomesOneReplacement) {
  // A Latin-1 e-acute (the repro), a stray continuation byte, a truncated sequence,
  // an overlong '/', a surrogate, a value above U+10FFFF.
  EXPECT_EQ(to_valid_utf8("int x = 1 \xE9;"), "int x = 1 \xEF\xBF\xBD;");
  EXPECT_EQ(to_valid_utf8("a\x80z"), "a\xEF\xBF\xBDz");
  EXPECT_EQ(to_valid_utf8("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));
  EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));
  EXPECT_TRUE(is_valid_utf8(to_valid_utf8("\xC0\xAF\xED\xA0\x80\xFF\xFE")));
}

TEST(Utf8, ConsoleTextShowsControlCharactersVisibly) {
  EXPECT_EQ(to_console_text("ok\tline\n"), "ok\tline\n");
  EXPECT_EQ(to_console_text("\x1b]0;pwned\x07x"), "\\x1b]0;pwned\\x07x");
  EXPECT_EQ(to_console_text("a\rb"), "a\\x0db");
  EXPECT_EQ(to_console_text("\xC2\x9B"
                            "2J"),
            "\\x9b2J");  // C1 CSI
  EXPECT_EQ(to_console_text("\xE9t\xC3\xA9"), "\xEF\xBF\xBDt\xC3\xA9");
}

TEST(Utf8, JsonTextNeverThrowsOnInvalidBytes) {
  Json j = {{"log", "kernel.cu(1): error: unrecognized token \xE9"}};
  std::string text;
  ASSERT_NO_THROW(text = to_text(j));
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_NE(text.find("token \xEF\xBF\xBD"), std::string::npos);
  Json back = Json::parse(text);
  EXPECT_EQ(back["log"], "kernel.cu(1): error: unrecognized token \xEF\xBF\xBD");
  EXPECT_EQ(to_text(Json{{"a", 1}}, 2), "{\n  \"a\": 1\n}");
}

// A reply or kernel saved as UTF-16 (campaign 3b: E12) is told apart from UTF-8 and from a
// binary file, with or without its byte-order mark.
TEST(Utf8, Utf16IsRecognizedWithAndWithoutByteOrderMark) {
  const std::string ascii = "Code:\n```cuda\n__global__ void k() {}\n```\n";
  std::string le, be;
  for (char c : ascii) {
    le += std::string{c, '\0'};
    be += std::string{'\0', c};
  }
  EXPECT_EQ(utf16_of("\xFF\xFE" + le), Utf16::little_endian);
  EXPECT_EQ(utf16_of(le), Utf16::little_endian);
  EXPECT_EQ(utf16_of("\xFE\xFF" + be), Utf16::big_endian);
  EXPECT_EQ(utf16_of(be), Utf16::big_endian);
  EXPECT_EQ(utf16_of(ascii), Utf16::no);
  EXPECT_EQ(utf16_of(std::string("\x7f"
                                 "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0",
                                 20)),
            Utf16::no);
  EXPECT_EQ(utf16_of(""), Utf16::no);
  EXPECT_EQ(std::string(to_string(Utf16::little_endian)), "UTF-16 LE");
}

TEST(Utf8, Utf8ByteOrderMarkIsDropped) {
  EXPECT_EQ(without_utf8_bom("\xEF\xBB\xBF#include <x>"), "#include <x>");
  EXPECT_EQ(without_utf8_bom("#include <x>"), "#include <x>");
}

}  // namespace
}  // namespace ptxbench
