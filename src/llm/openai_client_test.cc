// OpenAIClient against the local ChatTestServer: real HTTP over 127.0.0.1.
#include "llm/openai_client.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <mutex>
#include <thread>

#include "llm/endpoint.h"
#include "llm/testing/chat_test_server.h"

namespace ptxbench::llm {
namespace {

using std::chrono::milliseconds;
using testing::ChatTestServer;
using testing::ScriptedReply;

struct SleepLog {
  std::mutex mu;
  std::vector<milliseconds> waits;
  OpenAIClient::Sleeper sleeper() {
    return [this](milliseconds d) {
      std::lock_guard lock(mu);
      waits.push_back(d);
    };
  }
};

std::unique_ptr<ChatTestServer> serve(std::vector<ScriptedReply> script) {
  auto s = ChatTestServer::start(std::move(script));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
  return std::move(s).value();
}

EndpointConfig config_for(const ChatTestServer& s) {
  EndpointConfig c;
  c.base_url = s.base_url();
  c.model = "test-model";
  c.request_timeout = milliseconds(5000);
  c.connect_timeout = milliseconds(2000);
  c.max_attempts = 4;
  c.backoff_initial = milliseconds(100);
  c.backoff_max = milliseconds(1000);
  return c;
}

std::unique_ptr<OpenAIClient> client_for(EndpointConfig c, SleepLog* log = nullptr) {
  auto cl = OpenAIClient::create(std::move(c), log ? log->sleeper() : OpenAIClient::Sleeper{}, 7);
  EXPECT_TRUE(cl.ok()) << (cl.ok() ? "" : cl.error().to_string());
  return std::move(cl).value();
}

ChatRequest hello(const EndpointConfig& c) {
  return c.make_request({{"user", "write a kernel", ""}});
}

// Issue 38 (EP12): usage that is no token count is not reported, and said once per client (a
// run), naming the server.
TEST(OpenAIClient, UsageThatIsNoTokenCountIsWarnedOnce) {
  const std::string body =
      R"({"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":-5,)"
      R"("completion_tokens":1e30}})";
  auto server = serve({ScriptedReply::ok(body), ScriptedReply::ok(body)});
  EndpointConfig c = config_for(*server);
  std::vector<std::string> warnings;
  c.warning = [&warnings](const std::string& w) { warnings.push_back(w); };
  auto client = client_for(c);
  for (int i = 0; i < 2; ++i) {
    auto r = client->complete(hello(c));
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_FALSE(r->prompt_tokens);
    EXPECT_FALSE(r->completion_tokens);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(
      warnings[0].find(c.base_url + "/chat/completions reported token usage that is no "
                                    "token count (prompt_tokens = -5, completion_tokens = 1e+30"),
      std::string::npos)
      << warnings[0];
}

TEST(OpenAIClient, SuccessRecordsUsageLatencyAndSendsTheRequest) {
  auto server = serve({ScriptedReply::ok(ChatTestServer::chat_body("```cuda\nk\n```", 123, 45))});
  ::setenv("PTXB_TEST_KEY", "sk-test-123", 1);
  EndpointConfig c = config_for(*server);
  c.api_key_env = "PTXB_TEST_KEY";
  c.base_url += "/";  // a trailing slash is tolerated
  c.temperature = 0.3;
  auto client = client_for(c);
  auto r = client->complete(hello(c));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "```cuda\nk\n```");
  EXPECT_EQ(r->prompt_tokens, 123);
  EXPECT_EQ(r->completion_tokens, 45);
  EXPECT_EQ(r->model, "test-model");
  EXPECT_EQ(r->finish_reason, "stop");
  EXPECT_EQ(r->attempts, 1);
  EXPECT_GT(r->latency_s, 0.0);
  EXPECT_GE(r->total_s, r->latency_s);
  EXPECT_TRUE(r->retry_log.empty());
  EXPECT_EQ(client->model_id(), "test-model@" + c.base_url);

  auto reqs = server->requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer sk-test-123");
  EXPECT_EQ(reqs[0].headers["content-type"], "application/json");
  Json body = Json::parse(reqs[0].body);
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["temperature"], 0.3);
  EXPECT_EQ(body["messages"][0]["content"], "write a kernel");
  ::unsetenv("PTXB_TEST_KEY");
}

TEST(OpenAIClient, NoAuthorizationWithoutKeyVariable) {
  auto server = serve({ScriptedReply::ok(ChatTestServer::chat_body("x"))});
  EndpointConfig c = config_for(*server);
  auto r = client_for(c)->complete(hello(c));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(server->requests()[0].headers.count("authorization"), 0u);
}

TEST(OpenAIClient, MissingKeyVariableIsAClearError) {
  EndpointConfig c;
  c.base_url = "http://127.0.0.1:1/v1";
  c.model = "m";
  c.api_key_env = "PTXB_SURELY_UNSET_KEY_VAR";
  ::unsetenv("PTXB_SURELY_UNSET_KEY_VAR");
  auto cl = OpenAIClient::create(c);
  ASSERT_FALSE(cl.ok());
  EXPECT_NE(cl.error().message.find("PTXB_SURELY_UNSET_KEY_VAR"), std::string::npos);
  EXPECT_NE(cl.error().hint.find("export"), std::string::npos);
}

// A key with a line break would add headers to every request (campaign 6, R29 and N06); the
// key itself never appears in the message.
TEST(OpenAIClient, AKeyWithALineBreakIsRefused) {
  EndpointConfig c;
  c.base_url = "http://127.0.0.1:1/v1";
  c.model = "m";
  c.api_key_env = "PTXB_TEST_KEY_CRLF";
  for (const char* key : {"s3cret\r\nX-Injected: 1", "s3cret\nX-Injected: 2", "a\x01b"}) {
    ::setenv("PTXB_TEST_KEY_CRLF", key, 1);
    auto cl = OpenAIClient::create(c);
    ASSERT_FALSE(cl.ok()) << key;
    EXPECT_NE(cl.error().message.find("holds a line break"), std::string::npos);
    EXPECT_EQ(cl.error().to_string().find("s3cret"), std::string::npos);
  }
  ::setenv("PTXB_TEST_KEY_CRLF", "s3cret", 1);
  EXPECT_TRUE(OpenAIClient::create(c).ok());
  ::unsetenv("PTXB_TEST_KEY_CRLF");
  c.api_key_env.clear();
  c.extra_headers = {"X-A: 1\r\nX-B: 2"};
  EXPECT_FALSE(OpenAIClient::create(c).ok());
}

TEST(OpenAIClient, BadConfigRejected) {
  EndpointConfig c;
  c.model = "m";
  EXPECT_FALSE(OpenAIClient::create(c).ok());  // no URL
  c.base_url = "ftp://x/v1";
  EXPECT_FALSE(OpenAIClient::create(c).ok());
  c.base_url = "http://x/v1";
  c.model = "";
  EXPECT_FALSE(OpenAIClient::create(c).ok());
  c.model = "m";
  c.top_p = 0;
  EXPECT_FALSE(OpenAIClient::create(c).ok());
}

// Issue 38: a URL is parsed whole before a run file exists (a port past 65535 or an unclosed
// IPv6 bracket made a run whose every trajectory failed).
TEST(BaseUrl, ParsedWhole) {
  for (const char* good : {"http://127.0.0.1:8000/v1", "https://api.example.com/v1", "http://x/v1",
                           "http://[::1]:8089/v1", "http://[::1]/v1", "http://host-1.a_b:1/v1/",
                           "http://h:65535", "http://%41bc/v1"})
    EXPECT_TRUE(check_base_url(good).ok()) << good << ": " << check_base_url(good).error().message;
  const std::pair<const char*, const char*> bad[] = {
      {"http://127.0.0.1:99999/v1", "outside 1..65535"},
      {"http://127.0.0.1:0/v1", "outside 1..65535"},
      {"http://[::1/v1", "never closes"},
      {"http://[zz::1]/v1", "no valid IPv6"},
      {"http://[::1]x/v1", "text after its IPv6"},
      {"http://h:/v1", "empty port"},
      {"http://h:80a/v1", "not a number"},
      {"http://h:123456/v1", "not a number"},
      {"http://user:pw@h/v1", "user name or password"},
      {"http://ho^st/v1", "invalid host name"},
      {"http://:80/v1", "names no host"},
      {"http:///v1", "names no host"},
      {"http://h/v 1", "space or a control"},
      {"h:80/v1", "does not start with http"},
      {"http://h:8000/v1?x=1", "has a query"},
      {"http://h:8000/v1#frag", "has a fragment"},
      {"http://h?x=1", "has a query"},
  };
  for (const auto& [url, why] : bad) {
    auto s = check_base_url(url);
    ASSERT_FALSE(s.ok()) << url;
    EXPECT_NE(s.error().message.find(why), std::string::npos) << url << ": " << s.error().message;
  }
}

TEST(OpenAIClient, Honours429RetryAfterThenSucceeds) {
  auto server = serve({{429, {{"Retry-After", "3"}}, R"({"error":{"message":"rate limited"}})"},
                       ScriptedReply::ok(ChatTestServer::chat_body("ok"))});
  EndpointConfig c = config_for(*server);
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->attempts, 2);
  ASSERT_EQ(log.waits.size(), 1u);
  EXPECT_EQ(log.waits[0], milliseconds(3000));
  ASSERT_EQ(r->retry_log.size(), 1u);
  EXPECT_NE(r->retry_log[0].find("HTTP 429"), std::string::npos);
  EXPECT_NE(r->retry_log[0].find("rate limited"), std::string::npos);
  EXPECT_NE(r->retry_log[0].find("Retry-After"), std::string::npos);
  EXPECT_EQ(server->requests().size(), 2u);
}

TEST(OpenAIClient, RetryAfterReallyWaitsWithTheDefaultSleeper) {
  auto server = serve(
      {{429, {{"Retry-After", "0.3"}}, "{}"}, ScriptedReply::ok(ChatTestServer::chat_body("ok"))});
  EndpointConfig c = config_for(*server);
  auto r = client_for(c)->complete(hello(c));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->attempts, 2);
  EXPECT_GE(r->total_s, 0.3);
  auto reqs = server->requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_GE(reqs[1].at - reqs[0].at, milliseconds(290));
}

TEST(OpenAIClient, ServerErrorsBackOffExponentially) {
  auto server = serve({{500, {}, "boom"},
                       {503, {}, "busy"},
                       {502, {}, "gw"},
                       ScriptedReply::ok(ChatTestServer::chat_body("fine"))});
  EndpointConfig c = config_for(*server);
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "fine");
  EXPECT_EQ(r->attempts, 4);
  ASSERT_EQ(log.waits.size(), 3u);
  // backoff_initial 100 ms: nominal 100, 200, 400, each scaled by [0.5, 1].
  for (int i = 0; i < 3; ++i) {
    long long nominal = 100LL << i;
    EXPECT_GE(log.waits[i].count(), nominal / 2 - 1) << i;
    EXPECT_LE(log.waits[i].count(), nominal) << i;
  }
  EXPECT_EQ(r->retry_log.size(), 3u);
}

TEST(OpenAIClient, GivesUpAfterMaxAttempts) {
  auto server = serve({{500, {}, "a"}, {500, {}, "b"}, {500, {}, R"({"error":{"message":"c"}})"}});
  EndpointConfig c = config_for(*server);
  c.max_attempts = 3;
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("after 3 attempts"), std::string::npos);
  EXPECT_NE(r.error().message.find("HTTP 500: c"), std::string::npos);
  EXPECT_EQ(server->requests().size(), 3u);
  EXPECT_EQ(log.waits.size(), 2u);
  EXPECT_EQ(server->unscripted(), 0u);
}

TEST(OpenAIClient, SlowReplyTimesOutThenRetries) {
  auto server = serve({{200, {}, ChatTestServer::chat_body("late"), milliseconds(5000)},
                       ScriptedReply::ok(ChatTestServer::chat_body("on time"))});
  EndpointConfig c = config_for(*server);
  c.request_timeout = milliseconds(400);
  SleepLog log;
  auto start = std::chrono::steady_clock::now();
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->content, "on time");
  EXPECT_EQ(r->attempts, 2);
  ASSERT_EQ(r->retry_log.size(), 1u);
  EXPECT_NE(r->retry_log[0].find("timed out"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
}

TEST(OpenAIClient, DroppedConnectionIsRetried) {
  ScriptedReply drop;
  drop.drop = true;
  auto server = serve({drop, ScriptedReply::ok(ChatTestServer::chat_body("second"))});
  EndpointConfig c = config_for(*server);
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->attempts, 2);
  EXPECT_NE(r->retry_log[0].find("transport error"), std::string::npos);
}

TEST(OpenAIClient, ConnectionRefusedRetriedThenClearError) {
  int port;
  {
    auto s = serve({});
    port = s->port();
  }  // closed: nothing listens there now
  EndpointConfig c;
  c.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  c.model = "m";
  c.max_attempts = 2;
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("after 2 attempts"), std::string::npos);
  EXPECT_EQ(log.waits.size(), 1u);
}

TEST(OpenAIClient, ADeadEndpointFailsInSecondsWithTheDefaults) {
  int port;
  {
    auto s = serve({});
    port = s->port();
  }
  EndpointConfig c;  // the defaults a user gets
  c.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  c.model = "m";
  auto start = std::chrono::steady_clock::now();
  auto r = client_for(c)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_NE(r.error().hint.find("--attempts"), std::string::npos) << r.error().hint;
  EXPECT_NE(r.error().hint.find("--base-url"), std::string::npos) << r.error().hint;
}

TEST(OpenAIClient, AReplyThatStopsArrivingIsATimeout) {
  ScriptedReply stalled = ScriptedReply::ok(ChatTestServer::chat_body("never whole"));
  stalled.stall = milliseconds(8000);
  auto server = serve({stalled});
  EndpointConfig c = config_for(*server);
  c.stall_timeout = milliseconds(500);
  c.max_attempts = 1;
  auto start = std::chrono::steady_clock::now();
  auto r = client_for(c)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
  EXPECT_NE(r.error().message.find("stopped arriving"), std::string::npos) << r.error().message;
}

TEST(OpenAIClient, WaitingForASilentServerIsReported) {
  auto server = serve({{200, {}, ChatTestServer::chat_body("slow"), milliseconds(2500)}});
  EndpointConfig c = config_for(*server);
  c.waiting_interval = milliseconds(300);
  std::mutex mu;
  std::vector<std::string> notices;
  c.waiting = [&](const std::string& n) {
    std::lock_guard lock(mu);
    notices.push_back(n);
  };
  auto r = client_for(c)->complete(hello(c));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_FALSE(notices.empty());
  EXPECT_NE(notices[0].find("no reply yet"), std::string::npos) << notices[0];
}

TEST(OpenAIClient, ARetryAfterBeyondTheBudgetIsNotWaitedFor) {
  auto server = serve({{429, {{"Retry-After", "30"}}, "{}"}});
  EndpointConfig c = config_for(*server);
  c.retry_budget = milliseconds(8000);
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(log.waits.empty());
  EXPECT_NE(r.error().hint.find("--retry-max-s"), std::string::npos) << r.error().hint;
}

TEST(OpenAIClient, MalformedJsonIsAnErrorWithoutRetry) {
  auto server = serve({ScriptedReply::ok("{\"choices\": [ {\"message\": "),
                       ScriptedReply::ok(ChatTestServer::chat_body("never"))});
  EndpointConfig c = config_for(*server);
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not valid JSON"), std::string::npos);
  EXPECT_EQ(server->requests().size(), 1u);
  EXPECT_TRUE(log.waits.empty());
}

TEST(OpenAIClient, ClientErrorsAreNotRetried) {
  auto server =
      serve({{400, {}, R"({"error":{"message":"maximum context length is 32768 tokens"}})"},
             ScriptedReply::ok(ChatTestServer::chat_body("never"))});
  EndpointConfig c = config_for(*server);
  SleepLog log;
  auto r = client_for(c, &log)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("HTTP 400"), std::string::npos);
  EXPECT_NE(r.error().message.find("maximum context length"), std::string::npos);
  EXPECT_NE(r.error().message.find("not retried"), std::string::npos);
  EXPECT_FALSE(r.error().hint.empty());
  EXPECT_EQ(server->requests().size(), 1u);
  EXPECT_TRUE(log.waits.empty());
}

TEST(OpenAIClient, UnauthorizedHintsAtTheKey) {
  auto server = serve({{401, {}, R"({"error":{"message":"invalid api key"}})"}});
  ::setenv("PTXB_TEST_KEY2", "wrong", 1);
  EndpointConfig c = config_for(*server);
  c.api_key_env = "PTXB_TEST_KEY2";
  auto r = client_for(c)->complete(hello(c));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("invalid api key"), std::string::npos);
  EXPECT_NE(r.error().hint.find("PTXB_TEST_KEY2"), std::string::npos);
  ::unsetenv("PTXB_TEST_KEY2");
}

TEST(OpenAIClient, KeepsReasoningContentAndReasoning) {
  auto server = serve(
      {ScriptedReply::ok(ChatTestServer::chat_body("a1", 1, 2, "reasoning_content", "think 1")),
       ScriptedReply::ok(ChatTestServer::chat_body("a2", 1, 2, "reasoning", "think 2"))});
  EndpointConfig c = config_for(*server);
  auto client = client_for(c);
  auto r1 = client->complete(hello(c));
  auto r2 = client->complete(hello(c));
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(r1->reasoning, "think 1");
  EXPECT_EQ(r1->content, "a1");
  EXPECT_EQ(r2->reasoning, "think 2");
}

TEST(OpenAIClient, ConcurrentCallsFromManyThreads) {
  constexpr int kThreads = 8;
  std::vector<ScriptedReply> script;
  for (int i = 0; i < kThreads; ++i)
    script.push_back(
        ScriptedReply::ok(ChatTestServer::chat_body("reply " + std::to_string(i), i, i)));
  auto server = serve(script);
  EndpointConfig c = config_for(*server);
  auto client = client_for(c);
  std::vector<std::thread> threads;
  std::mutex mu;
  std::vector<std::string> contents;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&] {
      auto r = client->complete(hello(c));
      std::lock_guard lock(mu);
      contents.push_back(r.ok() ? r->content : "ERROR " + r.error().to_string());
    });
  for (auto& t : threads) t.join();
  std::sort(contents.begin(), contents.end());
  ASSERT_EQ(contents.size(), static_cast<std::size_t>(kThreads));
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(contents[i], "reply " + std::to_string(i));
  EXPECT_EQ(server->requests().size(), static_cast<std::size_t>(kThreads));
}

}  // namespace
}  // namespace ptxbench::llm
