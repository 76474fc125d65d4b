#include "serve/http_api.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <thread>
#include <vector>

#include "serve/fakes_test.h"

namespace ptxbench::serve {
namespace {

using testing::FakeJudger;

struct Api {
  testing::TempDir dir;
  FakeJudger judger;
  std::unique_ptr<Service> service;
  std::unique_ptr<HttpServer> http;
  std::unique_ptr<httplib::Client> client;

  explicit Api(HttpOptions o = {}, ServiceOptions so = {}) {
    auto store = JobStore::open(dir.path / "jobs.db");
    service = std::make_unique<Service>(so, std::vector{testing::fake_task("gemm_test")}, judger,
                                        std::move(*store));
    EXPECT_TRUE(service->start().ok());
    o.port = 0;
    http = std::make_unique<HttpServer>(*service, o);
    auto st = http->start();
    EXPECT_TRUE(st.ok()) << st.error().to_string();
    client = std::make_unique<httplib::Client>("127.0.0.1", http->port());
  }
  ~Api() {
    judger.release();
    http->stop();
    service->stop();
  }
  httplib::Result post(const Json& body) {
    return client->Post("/v1/jobs", to_text(body), "application/json");
  }
};

Json job(const std::string& source) {
  return Json{{"task", "gemm_test"}, {"source", source}};
}

Json body_of(const httplib::Result& r) {
  return parse_json(r->body);
}

TEST(HttpApi, SubmitThenLongPollForTheResult) {
  Api api;
  auto r = api.post(job("passed k"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 202);
  const std::string id = body_of(r)["id"];
  EXPECT_EQ(id.rfind("serve.", 0), 0u) << id;  // the instance's name, then its number
  auto done = api.client->Get("/v1/jobs/" + id + "?wait=10");
  ASSERT_TRUE(done);
  EXPECT_EQ(done->status, 200);
  const Json j = body_of(done);
  EXPECT_EQ(j["state"], "done");
  EXPECT_EQ(j["result"]["disposition"], "passed");
  EXPECT_EQ(done->get_header_value("Content-Type"), "application/json");
}

TEST(HttpApi, ABatchAnswersEachJob) {
  Api api;
  auto r =
      api.post(Json{{"jobs", Json::array({job("passed a"), Json{{"task", "nope"}, {"source", "x"}},
                                          job("incorrect b")})}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 202);
  const Json jobs = body_of(r)["jobs"];
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_TRUE(jobs[0].contains("id"));
  EXPECT_NE(jobs[1]["error"].get<std::string>().find("unknown task"), std::string::npos);
  EXPECT_TRUE(jobs[2].contains("id"));
}

TEST(HttpApi, BadRequestsGetAnErrorAndAStatus) {
  HttpOptions o;
  o.max_body_bytes = 4096;
  Api api(o);
  auto not_json = api.client->Post("/v1/jobs", "{oops", "application/json");
  EXPECT_EQ(not_json->status, 400);
  EXPECT_EQ(body_of(not_json)["error"], "the body is not JSON");
  auto no_source = api.post(Json{{"task", "gemm_test"}});
  EXPECT_EQ(no_source->status, 400);
  auto unknown = api.post(Json{{"task", "gemm_nope"}, {"source", "x"}});
  EXPECT_EQ(unknown->status, 400);
  auto big = api.post(job(std::string(5000, 'x')));
  EXPECT_EQ(big->status, 413);
  EXPECT_NE(body_of(big)["error"].get<std::string>().find("--max-body"), std::string::npos);
  auto missing = api.client->Get("/v1/jobs/12345");
  EXPECT_EQ(missing->status, 404);
  auto bad_wait = api.client->Get("/v1/jobs/1?wait=soon");
  EXPECT_EQ(bad_wait->status, 400);
  auto put = api.client->Put("/v1/jobs/1", "{}", "application/json");
  EXPECT_EQ(put->status, 405);
  EXPECT_EQ(put->get_header_value("Allow"), "GET, DELETE");
  auto nowhere = api.client->Get("/v2/jobs");
  EXPECT_EQ(nowhere->status, 404);
  EXPECT_NE(body_of(nowhere)["error"].get<std::string>().find("no such endpoint"),
            std::string::npos);
}

TEST(HttpApi, CancelAndItsConflicts) {
  ServiceOptions so;
  so.workers = 1;
  Api api({}, so);
  api.judger.hold();
  const std::string running = body_of(api.post(job("passed 0")))["id"];
  api.judger.wait_started(1);
  const std::string queued = body_of(api.post(job("passed 1")))["id"];
  auto first = api.client->Delete("/v1/jobs/" + queued);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(body_of(first)["was"], "queued");
  EXPECT_EQ(api.client->Delete("/v1/jobs/" + queued)->status, 409);
  auto stopping = api.client->Delete("/v1/jobs/" + running);  // running: cancelled, stops
  EXPECT_EQ(stopping->status, 200);
  EXPECT_EQ(body_of(stopping)["state"], "cancelled");
  EXPECT_EQ(body_of(stopping)["was"], "running");
  EXPECT_EQ(body_of(api.client->Get("/v1/jobs/" + running))["state"], "cancelled");
  EXPECT_EQ(api.client->Delete("/v1/jobs/" + running)->status, 409);
  EXPECT_EQ(api.client->Delete("/v1/jobs/serve.999")->status, 404);
}

// Another instance's job (its id's prefix) is 421 Misdirected Request naming the owner, never a
// 404 that would read as "no such job"; a bare number is this instance's own (older stores).
TEST(HttpApi, AnotherInstancesJobIsMisdirected) {
  ServiceOptions so;
  so.instance = "n1";
  Api api({}, so);
  const std::string id = body_of(api.post(job("passed a")))["id"];
  EXPECT_EQ(id.rfind("n1.", 0), 0u) << id;
  auto get = api.client->Get("/v1/jobs/n2.5");
  EXPECT_EQ(get->status, 421);
  const Json g = body_of(get);
  EXPECT_EQ(g["owner"], "n2");
  EXPECT_EQ(g["instance"], "n1");
  EXPECT_NE(g["error"].get<std::string>().find("job n2.5 is one of instance n2, and this is "
                                               "instance n1"),
            std::string::npos)
      << g;
  EXPECT_EQ(get->get_header_value("X-Ptxbench-Instance"), "n1");
  EXPECT_EQ(api.client->Delete("/v1/jobs/n2.5")->status, 421);
  auto batch = api.client->Get("/v1/jobs?ids=" + id + ",n2.1,n3.4,n2.2");
  EXPECT_EQ(batch->status, 421);
  EXPECT_EQ(body_of(batch)["owners"], Json::array({"n2", "n3"}));
  const std::string bare = id.substr(3);
  auto own = api.client->Get("/v1/jobs/" + bare + "?wait=10");
  EXPECT_EQ(own->status, 200);
  EXPECT_EQ(body_of(own)["id"], id);
  EXPECT_EQ(api.client->Get("/v1/jobs/n1.x")->status, 404);
  EXPECT_EQ(api.client->Get("/v1/jobs/9n.5")->status, 404);
}

TEST(HttpApi, AFullQueueAnswers429WithRetryAfter) {
  ServiceOptions so;
  so.workers = 1;
  so.max_queued = 0;
  Api api({}, so);
  auto r = api.post(job("passed"));
  EXPECT_EQ(r->status, 429);
  EXPECT_EQ(r->get_header_value("Retry-After"), "5");
}

TEST(HttpApi, ATokenGuardsEverythingButHealth) {
  HttpOptions o;
  o.tokens = {{"default", "s3cret"}};
  Api api(o);
  auto r = api.post(job("passed"));
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(r->get_header_value("WWW-Authenticate"), "Bearer");
  api.client->set_bearer_token_auth("wrong");
  EXPECT_EQ(api.client->Get("/v1/tasks")->status, 401);
  auto health = api.client->Get("/v1/health");
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(body_of(health), (Json{{"status", "ok"}}));  // without the token: the status only
  api.client->set_bearer_token_auth("s3cret");
  EXPECT_TRUE(body_of(api.client->Get("/v1/health")).contains("queued"));
  EXPECT_EQ(api.post(job("passed"))->status, 202);
}

TEST(HttpApi, TasksHealthAndMetrics) {
  Api api;
  auto tasks = api.client->Get("/v1/tasks");
  EXPECT_EQ(tasks->status, 200);
  EXPECT_EQ(body_of(tasks)["tasks"][0]["name"], "gemm_test");
  auto health = api.client->Get("/v1/health");
  EXPECT_EQ(body_of(health)["status"], "ok");
  EXPECT_EQ(body_of(health)["judge"]["version"], "test");
  auto metrics = api.client->Get("/v1/metrics");
  EXPECT_EQ(metrics->status, 200);
  EXPECT_NE(metrics->body.find("# TYPE ptxbench_jobs_submitted_total counter"), std::string::npos);
  EXPECT_EQ(metrics->get_header_value("Content-Type"), "text/plain; version=0.0.4");
}

TEST(HttpApi, LoopbackAddresses) {
  EXPECT_TRUE(is_loopback("127.0.0.1"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_FALSE(is_loopback("0.0.0.0"));
  EXPECT_FALSE(is_loopback("10.0.0.5"));
  EXPECT_TRUE(is_loopback("127.0.0.2"));
  EXPECT_FALSE(is_loopback("127.attacker.example"));  // a name, not an address (red team T16)
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(HttpApi, WaitForSeveralJobsAtOnce) {
  Api api;
  const std::string a = body_of(api.post(job("passed a")))["id"];
  const std::string b = body_of(api.post(job("incorrect b")))["id"];
  auto r = api.client->Get("/v1/jobs?ids=" + a + "," + b + ",999&wait=10");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  const Json jobs = body_of(r)["jobs"];
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0]["result"]["disposition"], "passed");
  EXPECT_EQ(jobs[1]["result"]["disposition"], "incorrect");
  EXPECT_EQ(jobs[2]["error"], "no such job");
  EXPECT_EQ(jobs[2]["id"], "serve.999");
  EXPECT_EQ(api.client->Get("/v1/jobs?ids=1,x")->status, 400);
  EXPECT_EQ(api.client->Get("/v1/jobs?ids=1,1")->status, 400);  // amplification (red team T3)
  EXPECT_EQ(api.client->Get("/v1/jobs")->status, 400);
}

TEST(HttpApi, BatchItemsNameTheirStatusAndRefusalsAreCounted) {
  ServiceOptions so;
  so.workers = 1;
  so.max_queued = 0;
  Api api({}, so);
  auto r = api.post(Json{{"jobs", Json::array({job("passed a"), Json{{"task", "gemm_test"}}})}});
  const Json jobs = body_of(r)["jobs"];
  EXPECT_EQ(jobs[0]["status"], 429);
  EXPECT_EQ(jobs[1]["status"], 400);
  EXPECT_EQ(r->get_header_value("Retry-After"), "5");
  api.client->Post("/v1/jobs", "{oops", "application/json");
  const std::string m = api.client->Get("/v1/metrics")->body;
  EXPECT_NE(m.find("ptxbench_jobs_refused_total{reason=\"bad_request\"} 2"), std::string::npos)
      << m;
  EXPECT_NE(m.find("ptxbench_jobs_refused_total{reason=\"queue_full\"} 1"), std::string::npos) << m;
}

TEST(HttpApi, TheBearerSchemeIsCaseInsensitiveTheTokenIsNot) {
  HttpOptions o;
  o.tokens = {{"default", "0123456789abcdef"}};
  Api api(o);
  httplib::Headers lower{{"Authorization", "bearer 0123456789abcdef"}};
  EXPECT_EQ(api.client->Get("/v1/tasks", lower)->status, 200);
  httplib::Headers wrong{{"Authorization", "Bearer 0123456789ABCDEF"}};
  EXPECT_EQ(api.client->Get("/v1/tasks", wrong)->status, 401);
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(HttpApi, LongPollsNeverHoldEveryThread) {
  HttpOptions o;
  o.threads = 10;  // room for 2 waiting polls
  ServiceOptions so;
  so.workers = 1;
  Api api(o, so);
  api.judger.hold();
  const std::string path =
      "/v1/jobs/" + body_of(api.post(job("passed 0")))["id"].get<std::string>();
  api.judger.wait_started(1);
  std::vector<std::thread> polls;
  for (int i = 0; i < 2; ++i)
    polls.emplace_back(
        [&] { httplib::Client("127.0.0.1", api.http->port()).Get(path + "?wait=3"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto t0 = std::chrono::steady_clock::now();
  auto third = api.client->Get(path + "?wait=3");  // no room: answered at once
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(1500));
  EXPECT_EQ(body_of(third)["state"], "running");
  EXPECT_EQ(api.client->Get("/v1/health")->status, 200);
  for (auto& t : polls) t.join();
}

}  // namespace
}  // namespace ptxbench::serve
