// The HTTP API with several tenants (tenants.h) and the Idempotency-Key header.
#include <gtest/gtest.h>
#include <httplib.h>

#include "serve/fakes_test.h"
#include "serve/http_api.h"

namespace ptxbench::serve {
namespace {

constexpr const char* kTokenA = "token-of-team-a-0123";
constexpr const char* kTokenB = "token-of-team-b-4567";

struct TwoTenants {
  testing::TempDir dir;
  testing::FakeJudger judger;
  std::unique_ptr<Service> service;
  std::unique_ptr<HttpServer> http;

  explicit TwoTenants(ServiceOptions so = {}) {
    auto store = JobStore::open(dir.path / "jobs.db");
    service = std::make_unique<Service>(so, std::vector{testing::fake_task("gemm_test")}, judger,
                                        std::move(*store));
    EXPECT_TRUE(service->start().ok());
    HttpOptions o;
    o.port = 0;
    o.tokens = {{"team-a", kTokenA}, {"team-b", kTokenB}};
    http = std::make_unique<HttpServer>(*service, o);
    EXPECT_TRUE(http->start().ok());
  }
  ~TwoTenants() {
    judger.release();
    http->stop();
    service->stop();
  }
  std::unique_ptr<httplib::Client> as(const char* token) {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", http->port());
    c->set_bearer_token_auth(token);
    return c;
  }
};

Json job(const std::string& source) {
  return Json{{"task", "gemm_test"}, {"source", source}};
}

httplib::Result post(httplib::Client& c, const Json& body, const httplib::Headers& h = {}) {
  return c.Post("/v1/jobs", h, to_text(body), "application/json");
}

TEST(HttpTenants, AnotherTenantsJobIsUnknown) {
  TwoTenants t;
  auto a = t.as(kTokenA), b = t.as(kTokenB);
  auto r = post(*a, job("passed k"));
  ASSERT_EQ(r->status, 202);
  const std::string id = parse_json(r->body)["id"];
  EXPECT_EQ(a->Get("/v1/jobs/" + id + "?wait=10")->status, 200);
  // B: the same answer as for an id that does not exist (404, the same words): ids leak nothing.
  auto seen = b->Get("/v1/jobs/" + id);
  EXPECT_EQ(seen->status, 404);
  EXPECT_EQ(parse_json(seen->body)["error"], "no job " + id);
  auto none = b->Get("/v1/jobs/serve.999");
  EXPECT_EQ(parse_json(none->body)["error"], "no job serve.999");
  EXPECT_EQ(b->Delete("/v1/jobs/" + id)->status, 404);
  auto batch = b->Get("/v1/jobs?ids=" + id);
  ASSERT_EQ(batch->status, 200);
  EXPECT_EQ(parse_json(batch->body)["jobs"][0], (Json{{"id", id}, {"error", "no such job"}}));
  EXPECT_EQ(parse_json(a->Get("/v1/jobs?ids=" + id)->body)["jobs"][0]["state"], "done");
  // A token of no tenant: 401, whatever the job.
  auto c = t.as("token-of-nobody-00000");
  EXPECT_EQ(c->Get("/v1/jobs/" + id)->status, 401);
}

TEST(HttpTenants, ATenantCancelsOnlyItsOwnJobs) {
  TwoTenants t;
  t.judger.hold();
  auto a = t.as(kTokenA), b = t.as(kTokenB);
  const std::string id = parse_json(post(*a, job("passed k"))->body)["id"];
  EXPECT_EQ(b->Delete("/v1/jobs/" + id)->status, 404);
  EXPECT_EQ(a->Delete("/v1/jobs/" + id)->status, 200);
}

TEST(HttpTenants, IdempotencyKeysAreEachTenantsOwn) {
  TwoTenants t;
  auto a = t.as(kTokenA), b = t.as(kTokenB);
  Json keyed = job("passed k");
  keyed["idempotency_key"] = "rollout-1";
  const Json first = parse_json(post(*a, keyed)->body);
  const Json again = parse_json(post(*a, keyed)->body);
  const Json other = parse_json(post(*b, keyed)->body);
  EXPECT_EQ(again["id"], first["id"]);
  EXPECT_TRUE(again["duplicate"].get<bool>());
  EXPECT_NE(other["id"], first["id"]);  // B's key: B's own job, never A's
  EXPECT_FALSE(other["duplicate"].get<bool>());
  // B's other candidate under A's key is no conflict: the key is B's own.
  Json mine = job("incorrect k");
  mine["idempotency_key"] = "rollout-2";
  EXPECT_EQ(post(*b, mine)->status, 202);
  mine["source"] = "passed k";
  EXPECT_EQ(post(*a, mine)->status, 202);
}

TEST(HttpTenants, EachTenantHasItsOwnQueueLimit) {
  ServiceOptions so;
  so.workers = 1;
  so.max_queued_per_tenant = 1;
  TwoTenants t(so);
  t.judger.hold();
  auto a = t.as(kTokenA), b = t.as(kTokenB);
  ASSERT_EQ(post(*a, job("passed 0"))->status, 202);  // taken by the worker, held
  t.judger.wait_started(1);
  ASSERT_EQ(post(*a, job("passed 1"))->status, 202);  // queued: A's one
  auto full = post(*a, job("passed 2"));
  EXPECT_EQ(full->status, 429);
  EXPECT_EQ(full->get_header_value("Retry-After"), "5");
  EXPECT_NE(parse_json(full->body)["error"].get<std::string>().find("tenant team-a has 1 jobs"),
            std::string::npos);
  EXPECT_EQ(post(*b, job("passed 3"))->status, 202);  // B is not held back by A
  const std::string m = a->Get("/v1/metrics")->body;
  for (const char* line : {"ptxbench_tenant_jobs_queued{tenant=\"team-a\"} 1\n",
                           "ptxbench_tenant_jobs_submitted_total{tenant=\"team-a\"} 2\n",
                           "ptxbench_tenant_jobs_refused_total{tenant=\"team-a\",reason=\"queue_"
                           "full\"} 1\n"})
    EXPECT_NE(m.find(line), std::string::npos) << line << " missing from\n" << m;
  EXPECT_EQ(m.find(kTokenA), std::string::npos);  // names, never tokens
  EXPECT_EQ(m.find(kTokenB), std::string::npos);
  EXPECT_EQ(m.find("team-b"), std::string::npos) << "another tenant's series:\n" << m;
  const std::string mb = b->Get("/v1/metrics")->body;  // B's page: its own queue, not A's
  EXPECT_NE(mb.find("ptxbench_tenant_jobs_queued{tenant=\"team-b\"} 1\n"), std::string::npos) << mb;
  EXPECT_EQ(mb.find("team-a"), std::string::npos) << mb;
}

TEST(HttpIdempotencyHeader, TheHeaderIsTheKey) {
  TwoTenants t;
  auto a = t.as(kTokenA);
  const httplib::Headers h{{"Idempotency-Key", "rollout-7"}};
  const Json first = parse_json(post(*a, job("passed k"), h)->body);
  const Json again = parse_json(post(*a, job("passed k"), h)->body);
  EXPECT_EQ(again["id"], first["id"]);
  EXPECT_TRUE(again["duplicate"].get<bool>());
  Json same = job("passed k");
  same["idempotency_key"] = "rollout-7";  // header and body agree: the same key
  EXPECT_EQ(parse_json(post(*a, same, h)->body)["id"], first["id"]);
  EXPECT_EQ(parse_json(post(*a, same)->body)["id"], first["id"]);
  auto job_json = a->Get("/v1/jobs/" + first["id"].get<std::string>() + "?wait=10");
  EXPECT_EQ(parse_json(job_json->body)["idempotency_key"], "rollout-7");
}

TEST(HttpIdempotencyHeader, MistakesAreRefused) {
  TwoTenants t;
  auto a = t.as(kTokenA);
  Json other = job("passed k");
  other["idempotency_key"] = "rollout-8";
  auto differ = post(*a, other, {{"Idempotency-Key", "rollout-9"}});
  EXPECT_EQ(differ->status, 400);
  EXPECT_NE(differ->body.find("differ"), std::string::npos) << differ->body;
  EXPECT_EQ(post(*a, job("passed k"), {{"Idempotency-Key", std::string(201, 'k')}})->status, 400);
  // A batch's header routes it; its items keep their own keys.
  Json batch{{"jobs", Json::array({other})}};
  auto b = post(*a, batch, {{"Idempotency-Key", "batch-1"}});
  ASSERT_EQ(b->status, 202);
  auto again = post(*a, batch, {{"Idempotency-Key", "batch-1"}});
  EXPECT_EQ(parse_json(again->body)["jobs"][0]["id"], parse_json(b->body)["jobs"][0]["id"]);
  EXPECT_TRUE(parse_json(again->body)["jobs"][0]["duplicate"].get<bool>());
}

}  // namespace
}  // namespace ptxbench::serve
