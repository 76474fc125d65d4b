// OpenAIClient with EndpointConfig::stream against the local ChatTestServer: event streams
// over real HTTP, and the ways a stream goes wrong (stalled, cut, malformed, 4xx/5xx).
#include <gtest/gtest.h>

#include "llm/openai_client.h"
#include "llm/testing/chat_test_server.h"

namespace ptxbench::llm {
namespace {

using std::chrono::milliseconds;
using testing::ChatTestServer;
using testing::ScriptedReply;

struct Served {
  std::unique_ptr<ChatTestServer> server;
  EndpointConfig config;
};

Served serve(std::vector<ScriptedReply> script) {
  auto s = ChatTestServer::start(std::move(script));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
  Served out{std::move(s).value(), {}};
  out.config.base_url = out.server->base_url();
  out.config.model = "test-model";
  out.config.stream = true;
  out.config.request_timeout = milliseconds(8000);
  out.config.stall_timeout = milliseconds(600);
  out.config.max_attempts = 2;
  out.config.backoff_initial = milliseconds(50);
  return out;
}

Result<ChatReply> ask(const EndpointConfig& c) {
  auto client = OpenAIClient::create(
      c, [](milliseconds) {}, 7);
  EXPECT_TRUE(client.ok());
  return (*client)->complete(c.make_request({{"user", "write a kernel", ""}}));
}

TEST(OpenAIClientStream, AsksForEventsWithUsageAndJoinsTheDeltas) {
  auto s =
      serve({ScriptedReply::events(ChatTestServer::stream_body("```cuda\nk\n```", 4, 90, 12))});
  auto r = ask(s.config);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "```cuda\nk\n```");
  EXPECT_EQ(r->prompt_tokens, 90);
  EXPECT_EQ(r->completion_tokens, 12);
  EXPECT_EQ(r->attempts, 1);
  auto reqs = s.server->requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].headers["accept"], "text/event-stream");
  Json body = Json::parse(reqs[0].body);
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
}

TEST(OpenAIClientStream, ASlowStreamThatKeepsComingIsNotCut) {
  // Ten events 200 ms apart: 2 s in all, over three times the 600 ms stall limit.
  auto s = serve(
      {ScriptedReply::events(ChatTestServer::stream_body("0123456789", 6), milliseconds(200))});
  auto r = ask(s.config);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "0123456789");
  EXPECT_GT(r->latency_s, 1.2);
}

TEST(OpenAIClientStream, AStalledStreamIsATimedOutAttemptThatIsRetried) {
  ScriptedReply stalled = ScriptedReply::events(ChatTestServer::stream_body("never whole"));
  stalled.stall = milliseconds(6000);
  auto s = serve({stalled, ScriptedReply::events(ChatTestServer::stream_body("second"))});
  auto start = std::chrono::steady_clock::now();
  auto r = ask(s.config);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
  EXPECT_EQ(r->content, "second");
  ASSERT_EQ(r->retry_log.size(), 1u);
  EXPECT_NE(r->retry_log[0].find("stopped arriving"), std::string::npos) << r->retry_log[0];
}

TEST(OpenAIClientStream, AStalledStreamFailsWhenNoAttemptIsLeft) {
  ScriptedReply stalled = ScriptedReply::events(ChatTestServer::stream_body("never whole"));
  stalled.stall = milliseconds(6000);
  auto s = serve({stalled});
  s.config.max_attempts = 1;
  auto r = ask(s.config);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("stopped arriving"), std::string::npos) << r.error().message;
}

TEST(OpenAIClientStream, ACutStreamIsRetriedThenAnError) {
  auto cut = ScriptedReply::events(ChatTestServer::stream_body("half", 2, 1, 1, /*done=*/false));
  auto s = serve({cut, cut});
  auto r = ask(s.config);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("after 2 attempts"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("ended before data: [DONE]"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(s.server->requests().size(), 2u);
}

TEST(OpenAIClientStream, AMalformedEventIsAnErrorWithoutRetry) {
  auto s = serve({ScriptedReply::events("data: {\"choices\": [{\"delta\"\n\ndata: [DONE]\n\n"),
                  ScriptedReply::events(ChatTestServer::stream_body("never"))});
  auto r = ask(s.config);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not a JSON object"), std::string::npos) << r.error().message;
  EXPECT_EQ(s.server->requests().size(), 1u);
}

TEST(OpenAIClientStream, StatusErrorsBeforeTheStreamFollowTheRetryRules) {
  auto s = serve({{503, {}, R"({"error":{"message":"loading model"}})"},
                  ScriptedReply::events(ChatTestServer::stream_body("after 503")),
                  {400, {}, R"({"error":{"message":"context length exceeded"}})"}});
  auto ok = ask(s.config);
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_EQ(ok->content, "after 503");
  EXPECT_EQ(ok->attempts, 2);
  auto bad = ask(s.config);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("not retried"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("context length exceeded"), std::string::npos);
}

TEST(OpenAIClientStream, AnErrorEventMidStreamIsAnError) {
  auto s =
      serve({ScriptedReply::events("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
                                   "data: {\"error\":{\"message\":\"slot crashed\"}}\n\n")});
  auto r = ask(s.config);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("slot crashed"), std::string::npos) << r.error().message;
}

TEST(OpenAIClientStream, ADeadEndpointFailsFast) {
  int port;
  {
    auto s = ChatTestServer::start({});
    ASSERT_TRUE(s.ok());
    port = (*s)->port();
  }
  EndpointConfig c;
  c.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  c.model = "m";
  c.stream = true;
  auto start = std::chrono::steady_clock::now();
  auto r = ask(c);
  ASSERT_FALSE(r.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_NE(r.error().hint.find("--base-url"), std::string::npos) << r.error().hint;
}

}  // namespace
}  // namespace ptxbench::llm
