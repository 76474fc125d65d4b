#include "llm/protocol.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ptxbench::llm {
namespace {

TEST(Protocol, RequestBody) {
  ChatRequest r;
  r.messages = {{"system", "sys", ""}, {"user", "hi", ""}, {"assistant", "ans", "secret thoughts"}};
  r.temperature = 0.2;
  r.top_p = 0.9;
  r.max_tokens = 123;
  Json body = chat_request_body("m1", r, Json{{"seed", 5}, {"temperature", 0.0}});
  EXPECT_EQ(body["model"], "m1");
  ASSERT_EQ(body["messages"].size(), 3u);
  EXPECT_EQ(body["messages"][2]["role"], "assistant");
  EXPECT_EQ(body["messages"][2]["content"], "ans");
  EXPECT_FALSE(body["messages"][2].contains("reasoning"));
  EXPECT_EQ(body["top_p"], 0.9);
  EXPECT_EQ(body["max_tokens"], 123);
  EXPECT_EQ(body["seed"], 5);
  EXPECT_EQ(body["temperature"], 0.0);  // extra overrides
  EXPECT_EQ(body["stream"], false);
}

TEST(Protocol, ParsesContentUsageAndReasoningContent) {
  auto r = parse_chat_reply(R"({"id":"x1","model":"qwen","choices":[{"index":0,
    "message":{"role":"assistant","content":"hello","reasoning_content":"thinking"},
    "finish_reason":"length"}],"usage":{"prompt_tokens":10,"completion_tokens":20,
    "completion_tokens_details":{"reasoning_tokens":15}}})");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "hello");
  EXPECT_EQ(r->reasoning, "thinking");
  EXPECT_EQ(r->finish_reason, "length");
  EXPECT_EQ(r->model, "qwen");
  EXPECT_EQ(r->response_id, "x1");
  EXPECT_EQ(r->prompt_tokens, 10);
  EXPECT_EQ(r->completion_tokens, 20);
  EXPECT_EQ(r->reasoning_tokens, 15);
}

TEST(Protocol, ReasoningFieldAndNullContent) {
  auto r = parse_chat_reply(
      R"({"choices":[{"message":{"role":"assistant","content":null,"reasoning":"r only"}}]})");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "");
  EXPECT_EQ(r->reasoning, "r only");
  EXPECT_FALSE(r->prompt_tokens);  // not reported: absent, never 0
  EXPECT_TRUE(r->usage_refused.empty());
}

// Issue 38 (EP12): a server's usage that is no token count is not reported, and named.
TEST(Protocol, UsageThatIsNoTokenCountIsNotReported) {
  auto r = parse_chat_reply(R"({"choices":[{"message":{"content":"x"}}],"usage":{
    "prompt_tokens":-5,"completion_tokens":1e30,
    "completion_tokens_details":{"reasoning_tokens":2.5}}})");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_FALSE(r->prompt_tokens);
  EXPECT_FALSE(r->completion_tokens);
  EXPECT_FALSE(r->reasoning_tokens);
  EXPECT_EQ(r->usage_refused,
            (std::vector<std::string>{"prompt_tokens = -5", "completion_tokens = 1e+30",
                                      "completion_tokens_details.reasoning_tokens = 2.5"}));
}

// Bad-input campaign 6, P13: a count past a double's range made the whole reply "not valid
// JSON" (nlohmann refuses the document); the reply is kept and the one count refused.
TEST(Protocol, ACountPastADoublesRangeIsRefusedAndTheReplyKept) {
  auto r = parse_chat_reply(
      R"({"choices":[{"message":{"content":"kernel"}}],"usage":{"prompt_tokens":1e400,)"
      R"("completion_tokens":7}})");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "kernel");
  EXPECT_FALSE(r->prompt_tokens);
  EXPECT_EQ(r->completion_tokens, 7);
  EXPECT_EQ(r->usage_refused, (std::vector<std::string>{R"(prompt_tokens = "1e400")"}));
  EXPECT_FALSE(parse_chat_reply("{not json 1e400").ok());  // other damage still refused
}

TEST(Protocol, TokenCountIsAWholeNumberUpTo1e12) {
  EXPECT_EQ(token_count(Json(0)), 0);
  EXPECT_EQ(token_count(Json(1234)), 1234);
  EXPECT_EQ(token_count(Json(1000000000000LL)), 1000000000000L);
  EXPECT_EQ(token_count(Json(17.0)), 17);  // a float without a fraction is a count
  EXPECT_FALSE(token_count(Json(1000000000001LL)));
  EXPECT_FALSE(token_count(Json(-1)));
  EXPECT_FALSE(token_count(Json(-0.5)));
  EXPECT_FALSE(token_count(Json(2.5)));
  EXPECT_FALSE(token_count(Json(1e30)));
  EXPECT_FALSE(token_count(Json(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_FALSE(token_count(Json(std::numeric_limits<std::uint64_t>::max())));
  EXPECT_FALSE(token_count(Json("12")));
  EXPECT_FALSE(token_count(Json(true)));
}

TEST(Protocol, ThinkTagsMoveToReasoning) {
  auto r = parse_chat_reply(
      R"({"choices":[{"message":{"content":"\n<think>\nplan\n</think>\n\nanswer"}}]})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->reasoning, "plan");
  EXPECT_EQ(r->content, "\n\nanswer");
  r = parse_chat_reply(R"({"choices":[{"message":{"content":"<think>cut off mid-"}}]})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->reasoning, "cut off mid-");
  EXPECT_EQ(r->content, "");
  // Separate reasoning wins; content stays untouched.
  r = parse_chat_reply(
      R"({"choices":[{"message":{"content":"<think>x</think>y","reasoning_content":"z"}}]})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->content, "<think>x</think>y");
  EXPECT_EQ(r->reasoning, "z");
}

TEST(Protocol, MalformedRepliesAreErrors) {
  for (const char* body :
       {"", "not json", "{\"choices\": [", "[1,2]", "{}", R"({"choices":[]})",
        R"({"choices":[{"text":"legacy"}]})", R"({"choices":[{"message":{"content":5}}]})"}) {
    auto r = parse_chat_reply(body);
    EXPECT_FALSE(r.ok()) << body;
  }
  auto r = parse_chat_reply("<html>502 Bad Gateway</html>");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not valid JSON"), std::string::npos);
  EXPECT_NE(r.error().message.find("502 Bad Gateway"), std::string::npos);
}

TEST(Protocol, ErrorObjectIn200) {
  auto r = parse_chat_reply(R"({"error":{"message":"model overloaded","type":"x"}})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("model overloaded"), std::string::npos);
}

TEST(Protocol, ErrorText) {
  EXPECT_EQ(error_text(R"({"error":{"message":"bad key"}})"), "bad key");
  EXPECT_EQ(error_text(R"({"error":"plain"})"), "plain");
  EXPECT_EQ(error_text(R"({"detail":"Not Found"})"), "Not Found");
  EXPECT_EQ(error_text(R"({"message":"m"})"), "m");
  EXPECT_EQ(error_text("  oops  "), "oops");
  // An empty message says nothing: the body does (fuzz_sse found `{"error": {"message": ""}}`
  // giving an empty error text).
  EXPECT_EQ(error_text(R"({"error": {"message": ""}})"), R"({"error": {"message": ""}})");
  EXPECT_EQ(error_text(R"({"error": "", "detail": "d"})"), "d");
  EXPECT_EQ(error_text(""), "(empty body)");
  EXPECT_EQ(error_text(std::string(1000, 'x')).size(), 303u);
}

}  // namespace
}  // namespace ptxbench::llm
