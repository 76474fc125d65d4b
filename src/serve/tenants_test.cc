#include "serve/tenants.h"

#include <gtest/gtest.h>

namespace ptxbench::serve {
namespace {

TEST(Tenants, LinesAndJson) {
  auto lines = parse_tokens_file(
      "# tenants\n\nteam-a 0123456789abcdef0\n  team_b\t0123456789abcdef1  \n", "t.txt");
  ASSERT_TRUE(lines.ok()) << lines.error().to_string();
  ASSERT_EQ(lines->size(), 2u);
  EXPECT_EQ((*lines)[1].tenant, "team_b");
  EXPECT_EQ((*lines)[1].token, "0123456789abcdef1");
  auto json = parse_tokens_file(R"({"a": "0123456789abcdef0", "b": "0123456789abcdef1"})", "t");
  ASSERT_TRUE(json.ok()) << json.error().to_string();
  EXPECT_EQ(*tenant_of_token(*json, "0123456789abcdef1"), "b");
}

TEST(Tenants, EveryMistakeIsRefusedWithItsLine) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {
           Case{"", "names no tenant"},
           Case{"# only a comment\n", "names no tenant"},
           Case{"team-a\n", "line 1 is not \"TENANT TOKEN\""},
           Case{"team-a short\n", "5 characters long"},
           Case{"1team 0123456789abcdef0\n", "is not a name"},
           Case{"te.am 0123456789abcdef0\n", "is not a name"},
           Case{"a 0123456789abcdef0\nb 0123456789 abcdef1\n", "line 2: tenant b's token holds"},
           Case{"a 0123456789abcdef0\na 0123456789abcdef1\n", "tenant a is given twice"},
           Case{"a 0123456789abcdef0\nb 0123456789abcdef0\n", "the same token"},
           Case{"{\"a\": 7}", "not a string"},
           Case{"{\"a\": ", "not a JSON object"},
       }) {
    auto r = parse_tokens_file(c.text, "t.txt");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_NE(r.error().to_string().find(c.says), std::string::npos)
        << c.text << ": " << r.error().to_string();
  }
}

TEST(Tenants, ATokenIsComparedWhole) {
  const std::vector<TenantToken> t{{"a", "0123456789abcdef0"}, {"b", "0123456789abcdef1"}};
  EXPECT_EQ(*tenant_of_token(t, "0123456789abcdef0"), "a");
  EXPECT_FALSE(tenant_of_token(t, "0123456789abcdef"));
  EXPECT_FALSE(tenant_of_token(t, "0123456789abcdef00"));
  EXPECT_FALSE(tenant_of_token(t, ""));
}

}  // namespace
}  // namespace ptxbench::serve
