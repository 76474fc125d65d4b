#include "serve/job_store.h"

#include <gtest/gtest.h>

#include "serve/fakes_test.h"

namespace ptxbench::serve {
namespace {

using testing::request;
using testing::TempDir;

TEST(JobStore, InsertGetAndFinish) {
  TempDir dir;
  auto s = JobStore::open(dir.path / "jobs.db");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  auto a = s->insert(request("passed"), "default", "key-a", 100);
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->duplicate);
  auto row = s->get(a->id);
  ASSERT_TRUE(row.ok() && *row);
  EXPECT_EQ((*row)->state, JobState::queued);
  EXPECT_EQ((*row)->request.source, "passed");
  EXPECT_EQ((*row)->submitted, 100);
  ASSERT_TRUE(s->set_running(a->id, 101).ok());
  ASSERT_TRUE(s->set_done(a->id, Json{{"disposition", "passed"}}, false, 102).ok());
  // A final job never changes again.
  ASSERT_TRUE(s->set_final(a->id, JobState::cancelled, 103).ok());
  row = s->get(a->id);
  EXPECT_EQ((*row)->state, JobState::done);
  EXPECT_EQ((*row)->result->at("disposition"), "passed");
  EXPECT_EQ(*(*row)->finished, 102);
  auto none = s->get(999);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);
}

// The first start names the store's instance; later ones keep it (ids stay the same), and one
// that asks for another name is refused, naming both.
TEST(JobStore, KeepsTheInstanceNameItWasFirstServedUnder) {
  TempDir dir;
  {
    auto s = JobStore::open(dir.path / "jobs.db");
    ASSERT_TRUE(s.ok());
    auto name = s->claim_instance(std::nullopt, "host-a");
    ASSERT_TRUE(name.ok()) << name.error().to_string();
    EXPECT_EQ(*name, "host-a");
  }
  auto s = JobStore::open(dir.path / "jobs.db");
  ASSERT_TRUE(s.ok());
  auto same = s->claim_instance(std::nullopt, "host-b");  // a new host name: the store's stays
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, "host-a");
  EXPECT_TRUE(s->claim_instance(std::string("host-a"), "x").ok());
  auto other = s->claim_instance(std::string("n2"), "x");
  ASSERT_FALSE(other.ok());
  const std::string e = other.error().to_string();
  EXPECT_NE(e.find("holds the jobs of instance \"host-a\""), std::string::npos) << e;
  EXPECT_NE(e.find("--instance host-a"), std::string::npos) << e;
}

// A store written before instance names (no serve_meta row) is claimed by its next start; its
// jobs keep their numbers.
TEST(JobStore, AnOlderStoreIsClaimedWithItsJobs) {
  TempDir dir;
  JobId id = 0;
  {
    auto s = JobStore::open(dir.path / "jobs.db");
    ASSERT_TRUE(s.ok());
    id = s->insert(request("passed"), "default", "k", 1)->id;
  }
  auto s = JobStore::open(dir.path / "jobs.db");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s->claim_instance(std::string("n1"), "x"), "n1");
  auto row = s->get(id);
  ASSERT_TRUE(row.ok() && *row);
}

TEST(JobStore, IdempotencyKeyReturnsTheEarlierJob) {
  TempDir dir;
  auto s = JobStore::open(dir.path / "jobs.db");
  auto r = request("passed");
  r.idempotency_key = "rollout-1";
  auto a = s->insert(r, "default", "k", 1);
  r.source = "incorrect";  // same key, other body: still the first job
  auto b = s->insert(r, "default", "k2", 2);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->id, b->id);
  EXPECT_TRUE(b->duplicate);
  EXPECT_EQ((*s->get(a->id))->request.source, "passed");
}

TEST(JobStore, IdempotencyKeysAreScopedByTenant) {
  TempDir dir;
  auto s = JobStore::open(dir.path / "jobs.db");
  auto r = request("passed");
  r.idempotency_key = "rollout-1";
  auto a = s->insert(r, "team-a", "k", 1);
  auto b = s->insert(r, "team-b", "k", 2);
  auto again = s->insert(r, "team-a", "k", 3);
  ASSERT_TRUE(a.ok() && b.ok() && again.ok());
  EXPECT_NE(a->id, b->id);
  EXPECT_FALSE(b->duplicate);
  EXPECT_EQ(again->id, a->id);
  EXPECT_EQ((*s->get(b->id))->tenant, "team-b");
  EXPECT_EQ(**s->find_key("team-b", "rollout-1"), b->id);
  EXPECT_FALSE(*s->find_key("team-c", "rollout-1"));
}

TEST(JobStore, AStoreWrittenBeforeTenantsIsTheDefaultTenants) {
  TempDir dir;
  {  // the schema of a store written before tenants, with a keyed job
    auto db = store::Db::open(dir.path / "jobs.db", true);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("CREATE TABLE serve_jobs(id INTEGER PRIMARY KEY, idempotency_key TEXT "
                         "UNIQUE, cache_key TEXT NOT NULL, request TEXT NOT NULL, state TEXT NOT "
                         "NULL, priority INTEGER NOT NULL, submitted REAL NOT NULL, deadline "
                         "REAL, started REAL, finished REAL, result TEXT, cached INTEGER NOT NULL "
                         "DEFAULT 0);"
                         "INSERT INTO serve_jobs(idempotency_key, cache_key, request, state, "
                         "priority, submitted) VALUES('old-key', 'k', "
                         "'{\"task\": \"t\", \"source\": \"x\"}', 'queued', 0, 1);")
                    .ok());
  }
  auto s = JobStore::open(dir.path / "jobs.db");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ((*s->get(1))->tenant, "default");
  EXPECT_EQ(**s->find_key("default", "old-key"), 1);
  EXPECT_FALSE(*s->find_key("team-a", "old-key"));
}

TEST(JobStore, UnfinishedJobsSurviveReopening) {
  TempDir dir;
  JobId queued = 0, running = 0;
  {
    auto s = JobStore::open(dir.path / "jobs.db");
    queued = s->insert(request("passed"), "default", "k1", 1)->id;
    running = s->insert(request("passed"), "default", "k2", 1)->id;
    const JobId done = s->insert(request("passed"), "default", "k3", 1)->id;
    ASSERT_TRUE(s->set_running(running, 2).ok());
    ASSERT_TRUE(s->set_done(done, Json::object(), false, 3).ok());
  }  // the process "ends" here
  auto s = JobStore::open(dir.path / "jobs.db");
  auto rows = s->unfinished();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].id, queued);
  EXPECT_EQ((*rows)[1].id, running);
  EXPECT_EQ((*rows)[1].state, JobState::running);
  ASSERT_TRUE(s->requeue(running).ok());
  EXPECT_EQ((*s->get(running))->state, JobState::queued);
}

TEST(JobStore, OnlyVerdictsNoSessionDecidedAreReused) {
  TempDir dir;
  auto s = JobStore::open(dir.path / "jobs.db");
  // A session's verdict is one draw of hidden workloads: never reused (serve red team T1).
  for (const char* d : {"harness_error", "passed", "incorrect", "timeout", "runtime_error"}) {
    const JobId a = s->insert(request("x"), "default", "same", 1)->id;
    ASSERT_TRUE(s->set_done(a, Json{{"disposition", d}}, false, 2).ok());
    EXPECT_FALSE(*s->cached_result("same", "default")) << d;
  }
  const JobId b = s->insert(request("x"), "default", "same", 3)->id;
  ASSERT_TRUE(s->set_done(b, Json{{"disposition", "compile_error"}}, false, 4).ok());
  auto hit = s->cached_result("same", "default");
  ASSERT_TRUE(hit.ok() && *hit);
  EXPECT_EQ((**hit)["disposition"], "compile_error");
  EXPECT_FALSE(*s->cached_result("other", "default"));
  EXPECT_FALSE(*s->cached_result("same", "team-b")) << "another tenant's result";
}

TEST(JobStore, OneServiceAtATimeOnAFile) {
  TempDir dir;
  auto first = JobStore::open(dir.path / "jobs.db");
  ASSERT_TRUE(first.ok());
  auto second = JobStore::open(dir.path / "jobs.db");
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().to_string().find("jobs.db"), std::string::npos);
}

TEST(JobStore, ADamagedRowIsAnErrorNamingTheFile) {
  TempDir dir;
  auto s = JobStore::open(dir.path / "jobs.db");
  const JobId a = s->insert(request("x"), "default", "k", 1)->id;
  {
    auto db = store::Db::open(dir.path / "jobs.db", false);
    ASSERT_TRUE(db->exec("UPDATE serve_jobs SET state = 'exploded'").ok());
  }
  auto row = s->get(a);
  ASSERT_FALSE(row.ok());
  EXPECT_NE(row.error().to_string().find("jobs.db"), std::string::npos);
  EXPECT_NE(row.error().to_string().find("exploded"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::serve
