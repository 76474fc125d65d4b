// make_model_client: the run's model settings reach the HTTP client (streaming and the
// stall limit included), and they survive the run file's stored configuration.
#include "run/model_client.h"

#include <gtest/gtest.h>

#include <cmath>

#include "llm/testing/chat_test_server.h"

namespace ptxbench::run {
namespace {

using llm::testing::ChatTestServer;
using llm::testing::ScriptedReply;

ModelConfig model_for(const ChatTestServer& s) {
  ModelConfig m;
  m.id = "test-model";
  m.base_url = s.base_url();
  m.attempts = 1;
  return m;
}

TEST(ModelClient, StreamAsksForEventsAndReadsThem) {
  auto server = ChatTestServer::start(
      {ScriptedReply::events(ChatTestServer::stream_body("```cuda\nk\n```", 3, 900, 40))});
  ASSERT_TRUE(server.ok());
  ModelConfig m = model_for(**server);
  m.stream = true;
  auto client = make_model_client(m);
  ASSERT_TRUE(client.ok()) << client.error().to_string();
  auto r = (*client)->complete(llm::ChatRequest{{{"user", "hi", ""}}});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "```cuda\nk\n```");
  EXPECT_EQ(r->prompt_tokens, 900);
  EXPECT_EQ(Json::parse((*server)->requests().at(0).body)["stream"], true);
}

TEST(ModelClient, TheStallLimitEndsAStalledStream) {
  ScriptedReply stalled = ScriptedReply::events(ChatTestServer::stream_body("cut"));
  stalled.stall = std::chrono::seconds(10);
  auto server = ChatTestServer::start({stalled});
  ASSERT_TRUE(server.ok());
  ModelConfig m = model_for(**server);
  m.stream = true;
  m.stall_timeout_s = 0.5;
  auto client = make_model_client(m);
  ASSERT_TRUE(client.ok()) << client.error().to_string();
  const auto start = std::chrono::steady_clock::now();
  auto r = (*client)->complete(llm::ChatRequest{{{"user", "hi", ""}}});
  ASSERT_FALSE(r.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_NE(r.error().message.find("no byte for 0.5 s"), std::string::npos) << r.error().message;
}

TEST(ModelClient, RejectsAStallLimitThatIsNotPositive) {
  ModelConfig m;
  m.id = "m";
  m.base_url = "http://127.0.0.1:9/v1";
  for (double s : {0.0, -1.0, std::nan("")}) {
    m.stall_timeout_s = s;
    auto client = make_model_client(m);
    ASSERT_FALSE(client.ok());
    EXPECT_NE(client.error().message.find("--stall-timeout"), std::string::npos);
  }
}

TEST(ModelClient, StreamingSettingsAreStoredWithTheRun) {
  RunConfig c;
  c.model.id = "m";
  c.model.base_url = "http://127.0.0.1:9/v1";
  c.model.stream = true;
  c.model.stall_timeout_s = 7.5;
  auto back = RunConfig::from_json(c.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(back->model.stream);
  EXPECT_EQ(back->model.stall_timeout_s, 7.5);
  Json old = c.to_json();  // a run stored before streaming existed
  old["model"].erase("stream");
  old["model"].erase("stall_timeout_s");
  auto before = RunConfig::from_json(old);
  ASSERT_TRUE(before.ok()) << before.error().to_string();
  EXPECT_FALSE(before->model.stream);
  EXPECT_EQ(before->model.stall_timeout_s, 60);
}

}  // namespace
}  // namespace ptxbench::run
