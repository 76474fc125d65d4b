#include "llm/stream.h"

#include <gtest/gtest.h>

#include "core/testing/hostile_text.h"
#include "llm/protocol.h"
#include "llm/testing/chat_test_server.h"

namespace ptxbench::llm {
namespace {

using testing::ChatTestServer;

TEST(Stream, JoinsDeltasAndTakesTheUsageChunk) {
  auto s = parse_chat_stream(ChatTestServer::stream_body("```cuda\nkernel\n```", 4, 120, 34));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_TRUE(s->finished);
  EXPECT_EQ(s->reply.content, "```cuda\nkernel\n```");
  EXPECT_EQ(s->reply.prompt_tokens, 120);
  EXPECT_EQ(s->reply.completion_tokens, 34);
  EXPECT_EQ(s->reply.finish_reason, "stop");
  EXPECT_EQ(s->reply.model, "test-model");
  EXPECT_EQ(s->reply.response_id, "chatcmpl-test");
}

// Campaign 6, P13 streamed: the usage chunk's count past a double's range is refused, the
// stream kept.
TEST(Stream, ACountPastADoublesRangeIsRefusedAndTheStreamKept) {
  const std::string body =
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"k\"}}]}\n\n"
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9e999,\"completion_tokens\":3}}\n\n"
      "data: [DONE]\n\n";
  auto s = parse_chat_stream(body);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->reply.content, "k");
  EXPECT_FALSE(s->reply.prompt_tokens);
  EXPECT_EQ(s->reply.completion_tokens, 3);
  EXPECT_EQ(s->reply.usage_refused, (std::vector<std::string>{R"(prompt_tokens = "9e999")"}));
}

// With n > 1 a server interleaves the answers' pieces, each chunk's choices in any order: the
// first answer is the one whose index is 0 (campaign 6, P51: it was the first in the list).
TEST(Stream, TheFirstAnswerIsTheOneWithIndexZero) {
  const std::string body =
      "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"YYY\"}},"
      "{\"index\":0,\"delta\":{\"content\":\"AAA\"}}]}\n\n"
      "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"ZZZ\"}}]}\n\n"
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"BBB\"},"
      "\"finish_reason\":\"stop\"}]}\n\n"
      "data: [DONE]\n\n";
  auto s = parse_chat_stream(body);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->reply.content, "AAABBB");
  EXPECT_EQ(s->reply.finish_reason, "stop");
  // A reply in one piece: the same rule.
  auto whole = parse_chat_reply(
      "{\"choices\":[{\"index\":1,\"message\":{\"content\":\"no\"}},"
      "{\"index\":0,\"message\":{\"content\":\"yes\"}}]}");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->content, "yes");
}

TEST(Stream, ReasoningDeltasAndThinkTags) {
  auto s = parse_chat_stream(
      ChatTestServer::stream_body("answer", 2, 1, 2, true, "reasoning_content", "hmm"));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->reply.reasoning, "hmm");
  EXPECT_EQ(s->reply.content, "answer");
  auto t = parse_chat_stream(ChatTestServer::stream_body("<think>plan</think>code", 5));
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->reply.reasoning, "plan");
  EXPECT_EQ(t->reply.content, "code");
}

TEST(Stream, CrlfLinesCommentsAndNullUsage) {
  const std::string body =
      ": keep-alive\r\n\r\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"usage\":null}\r\n\r\n"
      "event: message\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"},"
      "\"finish_reason\":\"length\"}]}\r\n\r\n"
      "data: [DONE]\r\n\r\n";
  auto s = parse_chat_stream(body);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->reply.content, "ab");
  EXPECT_EQ(s->reply.finish_reason, "length");
  EXPECT_FALSE(s->reply.prompt_tokens);  // not reported
  EXPECT_EQ(s->events, 2);
}

TEST(Stream, ACutStreamIsNotFinished) {
  auto s = parse_chat_stream(ChatTestServer::stream_body("partial", 3, 1, 1, /*done=*/false));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_FALSE(s->finished);
  EXPECT_EQ(s->reply.content, "partial");
}

TEST(Stream, APlainJsonReplyIsAccepted) {
  auto s = parse_chat_stream(ChatTestServer::chat_body("whole", 3, 4));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_TRUE(s->finished);
  EXPECT_EQ(s->reply.content, "whole");
  EXPECT_EQ(s->reply.completion_tokens, 4);
}

TEST(Stream, MalformedEventsAndErrorsAreErrors) {
  auto bad = parse_chat_stream("data: {\"choices\": [\n\ndata: [DONE]\n\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("not a JSON object"), std::string::npos);
  auto err = parse_chat_stream("data: {\"error\":{\"message\":\"context overflow\"}}\n\n");
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.error().message.find("context overflow"), std::string::npos);
  auto none = parse_chat_stream("<html>gateway</html>");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("neither an event stream nor JSON"), std::string::npos);
  auto empty = parse_chat_stream("");
  EXPECT_FALSE(empty.ok());
  auto no_choices = parse_chat_stream("data: {\"id\":\"x\"}\n\n");
  EXPECT_FALSE(no_choices.ok());
}

}  // namespace
}  // namespace ptxbench::llm

namespace ptxbench::llm {
namespace {

// Issue 38: the hostile kernels arrive whole through the stream, in pieces or in one event of
// a megabyte; JSON nested a million deep is an error of the server, never a crash.
TEST(StreamHostile, LongLinesDeepJsonAndTheMaximumSize) {
  for (const auto& [name, src] : ptxbench::testing::hostile_sources()) {
    const std::string reply = "```cuda\n" + src + "```\n";
    for (int pieces : {1, 7, 1000}) {
      auto s = parse_chat_stream(ChatTestServer::stream_body(reply, pieces));
      ASSERT_TRUE(s.ok()) << name << ": " << s.error().to_string();
      EXPECT_EQ(s->reply.content, reply) << name;
    }
    auto whole = parse_chat_reply(ChatTestServer::chat_body(reply));
    ASSERT_TRUE(whole.ok()) << name;
    EXPECT_EQ(whole->content, reply) << name;
  }
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  auto event = parse_chat_stream("data: {\"choices\":" + deep + "}\n\ndata: [DONE]\n\n");
  ASSERT_FALSE(event.ok());
  EXPECT_NE(event.error().to_string().find("not a JSON object"), std::string::npos);
  EXPECT_FALSE(parse_chat_reply("{\"choices\":" + deep + "}").ok());
  EXPECT_FALSE(error_text(deep).empty());
}

}  // namespace
}  // namespace ptxbench::llm
