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
}  // namespace ptxbench
