#include "core/json.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxbench {
namespace {

TEST(ParseJson, ParsesAndRefusesWhatIsNotJson) {
  EXPECT_EQ(parse_json(R"({"a": [1, {"b": "x"}]})")["a"][1]["b"], "x");
  EXPECT_TRUE(parse_json("{\"a\": ").is_discarded());
  EXPECT_TRUE(parse_json("").is_discarded());
  EXPECT_TRUE(parse_json("\xff\xfe").is_discarded());
}

// Issue 38: a million '[' parse (nlohmann's parser does not recurse), but copying or printing the
// value recursed once per level and crashed; such text is refused before it is parsed.
TEST(ParseJson, DeepNestingIsRefused) {
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  EXPECT_TRUE(json_nests_deeper_than(deep, kMaxJsonDepth));
  EXPECT_TRUE(parse_json(deep).is_discarded());
  const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  const Json j = parse_json(ok);
  ASSERT_FALSE(j.is_discarded());
  const Json copy = j;  // NOLINT(performance-unnecessary-copy-initialization): the recursion
  EXPECT_EQ(to_text(copy).size(), ok.size());
  // Brackets inside strings (escaped quotes too) do not count.
  const std::string in_string = "[\"" + std::string(100000, '[') + "\\\"\"]";
  EXPECT_FALSE(json_nests_deeper_than(in_string, 2));
  EXPECT_FALSE(parse_json(in_string).is_discarded());
  EXPECT_TRUE(json_nests_deeper_than("{\"a\":{\"b\":{}}}", 2));
}

}  // namespace
// A number too large for a double becomes a string of its characters; nothing else changes,
// strings (with escaped quotes) included.
TEST(QuoteOverflowingNumbers, QuotesOnlyNumbersADoubleCannotHold) {
  EXPECT_EQ(quote_overflowing_numbers(R"({"a":1e400,"b":-2E+999,"c":1e30,"d":[0.5,-7]})"),
            R"({"a":"1e400","b":"-2E+999","c":1e30,"d":[0.5,-7]})");
  const std::string strings = R"({"x 1e400":"1e400 \" 9e999","y":"\\"})";
  EXPECT_EQ(quote_overflowing_numbers(strings), strings);
  EXPECT_EQ(quote_overflowing_numbers("[1e400"), "[\"1e400\"");  // unterminated: still linear
  EXPECT_EQ(quote_overflowing_numbers("\"open 1e400"), "\"open 1e400");
  EXPECT_TRUE(parse_json(R"({"a":1e400})").is_discarded());
  EXPECT_EQ(parse_json(quote_overflowing_numbers(R"({"a":1e400})"))["a"], "1e400");
}

}  // namespace ptxbench
