// The loop against a real OpenAI-compatible client talking to a local test server:
// retries are invisible to the loop but recorded, the full history is sent each turn,
// and reasoning is stored.
#include <gtest/gtest.h>

#include "core/fs.h"
#include "llm/extract.h"
#include "llm/openai_client.h"
#include "llm/testing/chat_test_server.h"
#include "run/fakes_test.h"

namespace ptxbench::run {
namespace {

using llm::testing::ChatTestServer;
using llm::testing::ScriptedReply;

// A reply whose usage reports reasoning tokens (usage.completion_tokens_details).
std::string body_with_reasoning_tokens(const std::string& content, long reasoning_tokens) {
  Json body = Json::parse(ChatTestServer::chat_body(content, 20, 30));
  body["usage"]["completion_tokens_details"] = {{"reasoning_tokens", reasoning_tokens}};
  return body.dump();
}

TEST(Endpoint, LoopTalksToAChatCompletionsServer) {
  auto server = ChatTestServer::start({
      {429, {}, R"({"error": "slow down"})"},
      ScriptedReply::ok(ChatTestServer::chat_body("I believe it is fine as is.", 11, 7,
                                                  "reasoning_content", "hmm")),
      ScriptedReply::ok(body_with_reasoning_tokens("Here:\n```cuda\n// attempt 4 of t\n```\n", 12)),
  });
  ASSERT_TRUE(server.ok()) << server.error().message;
  llm::EndpointConfig e;
  e.base_url = (*server)->base_url();
  e.model = "test-model";
  auto client = llm::OpenAIClient::create(e, [](std::chrono::milliseconds) {});
  ASSERT_TRUE(client.ok()) << client.error().message;
  SharedClientFactory clients(std::shared_ptr<llm::ChatClient>(std::move(*client)));

  auto dir = TempDir::create("endpoint_test");
  ASSERT_TRUE(dir.ok());
  RunConfig config;
  config.model.id = "test-model";
  config.model.base_url = e.base_url;
  config.tasks = {"t"};
  config.turns = 3;
  std::vector<task::TaskSpec> tasks = {testing::fake_task("t")};
  auto st = store::RunStore::create(dir->path() / "r.db", config.to_json(), Json::object());
  ASSERT_TRUE(st.ok());
  testing::FakePipeline pipeline;
  LoopDeps deps{*st,
                pipeline,
                clients,
                testing::fake_prompt,
                [](const std::string& r) { return llm::extract_code(r); },
                nullptr};
  auto totals = run_all(config, plan_trajectories(config, tasks), tasks, deps);
  ASSERT_TRUE(totals.ok()) << totals.error().message;
  EXPECT_EQ(totals->done, 1);

  auto trajs = st->trajectories().value();
  ASSERT_EQ(trajs.size(), 1u);
  EXPECT_EQ(trajs[0].key.model, "test-model@" + e.base_url);
  EXPECT_EQ(trajs[0].stop_reason.value_or(""), "target_reached");
  auto turns = st->turns(trajs[0].id).value();
  ASSERT_EQ(turns.size(), 2u);
  EXPECT_EQ(turns[0].category, judge::Disposition::no_code);
  EXPECT_EQ(turns[0].llm["attempts"], 2);
  EXPECT_EQ(turns[0].llm["prompt_tokens"], 11);
  EXPECT_FALSE(turns[0].llm.contains("reasoning_tokens"));  // none reported: absent
  // The request's wall time counts the failed attempt and the wait too.
  EXPECT_GE(turns[0].llm["total_s"].get<double>(), turns[0].llm["latency_s"].get<double>());
  EXPECT_EQ(turns[1].category, judge::Disposition::passed);
  EXPECT_EQ(turns[1].llm["completion_tokens"], 30);
  EXPECT_EQ(turns[1].llm["reasoning_tokens"], 12);
  auto msgs = st->messages(trajs[0].id).value();
  EXPECT_EQ(msgs[2].reasoning, "hmm");

  // The second turn's request carried the whole history, feedback included.
  auto reqs = (*server)->requests();
  ASSERT_EQ(reqs.size(), 3u);
  Json body = Json::parse(reqs[2].body);
  ASSERT_EQ(body["messages"].size(), 4u);
  EXPECT_NE(body["messages"][3]["content"].get<std::string>().find("NO CODE BLOCK"),
            std::string::npos);
  EXPECT_EQ(body["model"], "test-model");
}

}  // namespace
}  // namespace ptxbench::run
