#include "serve/service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "serve/fakes_test.h"

namespace ptxbench::serve {
namespace {

using testing::FakeJudger;
using testing::Fixture;
using testing::request;
using testing::TempDir;

TEST(Service, JudgesAJobIntoAResultWithItsReward) {
  Fixture f;
  f.open();
  ASSERT_TRUE(f.service->start().ok());
  auto s = f.service->submit(request("passed"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  const Json job = f.wait_done(s->id);
  EXPECT_EQ(job["state"], "done");
  const Json& r = job["result"];
  EXPECT_EQ(r["disposition"], "passed");
  EXPECT_EQ(r["reward"]["preset"], "ptxbench");
  EXPECT_DOUBLE_EQ(r["reward"]["value"].get<double>(), 2.5 / 3);
  EXPECT_EQ(r["feedback"], "feedback: passed");
  EXPECT_EQ(r["costs"]["gpu_s"], 1.5);
  EXPECT_EQ(r["provenance"]["version"], "test");
  EXPECT_EQ(r["cached"], false);
}

TEST(Service, RefusesUnknownTasksAndArchitectures) {
  Fixture f;
  f.open();
  auto r = request("passed");
  r.task = "gemm_nope";
  auto s = f.service->submit(r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, SubmitError::bad_request);
  EXPECT_NE(s.error().message.find("GET /v1/tasks"), std::string::npos);
  r = request("passed");
  r.arch = "sm_100a";
  s = f.service->submit(r);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("no sm_100a version"), std::string::npos);
}

TEST(Service, AFullQueueRefusesButAKnownKeyIsStillAnswered) {
  Fixture f;
  auto o = f.one_worker();
  o.max_queued = 1;
  f.open(o);
  f.judger.hold();
  ASSERT_TRUE(f.service->start().ok());
  auto first = f.service->submit(request("passed a"));
  f.judger.wait_started(1);  // the worker holds it: the queue is empty again
  auto keyed = request("passed b");
  keyed.idempotency_key = "k";
  auto second = f.service->submit(keyed);
  ASSERT_TRUE(first.ok() && second.ok());
  auto third = f.service->submit(request("passed c"));
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().kind, SubmitError::queue_full);
  auto again = f.service->submit(keyed);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->duplicate);
  EXPECT_EQ(again->id, second->id);
  f.judger.release();
  EXPECT_EQ(f.wait_done(second->id)["state"], "done");
  EXPECT_NE(f.service->metrics_text().find("ptxbench_jobs_refused_total{reason=\"queue_full\"} 1"),
            std::string::npos);
}

TEST(Service, HigherPriorityFirstThenOldest) {
  Fixture f;
  const JobId blocker = f.start_holding_one();
  const JobId low = f.service->submit(request("passed 1", -1))->id;
  const JobId normal = f.service->submit(request("passed 2"))->id;
  const JobId high = f.service->submit(request("passed 3", 5))->id;
  f.judger.release();
  const double t_blocker = f.wait_done(blocker)["finished"];
  (void)t_blocker;
  // One worker: started times follow the order the queue gave out.
  const Json h = f.wait_done(high), n = f.wait_done(normal), l = f.wait_done(low);
  EXPECT_LE(h["started"].get<double>(), n["started"].get<double>());
  EXPECT_LE(n["started"].get<double>(), l["started"].get<double>());
  EXPECT_EQ(f.judger.calls(), 4);
}

TEST(Service, CancelAQueuedJob) {
  Fixture f;
  const JobId running = f.start_holding_one();
  const JobId queued = f.service->submit(request("passed 1"))->id;
  EXPECT_EQ(f.service->cancel(queued), CancelAnswer::cancelled);
  EXPECT_EQ(f.service->cancel(queued), CancelAnswer::already_final);
  EXPECT_EQ(f.service->cancel(4242), CancelAnswer::unknown);
  f.judger.release();
  EXPECT_EQ(f.wait_done(running)["state"], "done");
  EXPECT_EQ(f.wait_done(queued)["state"], "cancelled");
  EXPECT_EQ(f.judger.calls(), 1);
}

TEST(Service, AJobPastItsDeadlineInTheQueueExpiresUnjudged) {
  Fixture f;
  const JobId running = f.start_holding_one();
  auto late = request("passed 1");
  late.deadline_s = 30;
  const JobId id = f.service->submit(late)->id;
  f.clock = 1031;  // the deadline passes while it waits
  f.judger.release();
  f.wait_done(running);
  EXPECT_EQ(f.wait_done(id)["state"], "expired");
  EXPECT_EQ(f.judger.calls(), 1);
}

TEST(Service, TheSameCandidateAgainIsServedFromTheStore) {
  Fixture f;
  f.open();
  ASSERT_TRUE(f.service->start().ok());
  const JobId a = f.service->submit(request("compile_error x"))->id;
  f.wait_done(a);
  auto b = f.service->submit(request("compile_error x"));
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->cached);
  const Json job = f.wait_done(b->id);
  EXPECT_EQ(job["cached"], true);
  EXPECT_EQ(job["result"]["cached"], true);
  EXPECT_EQ(job["result"]["disposition"], "compile_error");
  EXPECT_EQ(f.judger.calls(), 1);
  // A verdict a judging session decided is one draw: the same candidate is judged again.
  f.wait_done(f.service->submit(request("incorrect y"))->id);
  EXPECT_FALSE(f.service->submit(request("incorrect y"))->cached);
}

TEST(Service, JobsLeftByAKilledProcessCompleteExactlyOnce) {
  TempDir dir;
  JobId queued = 0, running = 0;
  {  // what a process killed with -9 leaves: one job queued, one taken by a worker
    auto s = JobStore::open(dir.path / "jobs.db");
    queued = s->insert(request("passed q"), "default", "k1", 1)->id;
    running = s->insert(request("incorrect r"), "default", "k2", 1)->id;
    ASSERT_TRUE(s->set_running(running, 2).ok());
  }
  FakeJudger judger;
  {
    auto store = JobStore::open(dir.path / "jobs.db");
    Service service({}, {testing::fake_task("gemm_test")}, judger, std::move(*store));
    ASSERT_TRUE(service.start().ok());
    auto q = service.wait(queued, 10), r = service.wait(running, 10);
    EXPECT_EQ((**q)["result"]["disposition"], "passed");
    EXPECT_EQ((**r)["result"]["disposition"], "incorrect");
  }
  EXPECT_EQ(judger.calls(), 2);
  auto reopened = JobStore::open(dir.path / "jobs.db");
  EXPECT_TRUE(reopened->unfinished()->empty());
}

TEST(Service, StoppingRefusesNewJobsAndKeepsQueuedOnes) {
  Fixture f;
  const JobId running = f.start_holding_one();
  const JobId queued = f.service->submit(request("passed 1"))->id;
  std::thread stopper([&] { f.service->stop(); });
  while (f.service->health()["status"] != "stopping") std::this_thread::yield();
  f.judger.release();
  stopper.join();
  EXPECT_EQ(f.service->submit(request("passed 2")).error().kind, SubmitError::stopping);
  EXPECT_EQ((**f.service->get(running))["state"], "done");
  EXPECT_EQ((**f.service->get(queued))["state"], "queued");  // the next start judges it
  EXPECT_EQ(f.service->health()["status"], "stopping");
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(Service, AReplyIsJudgedByItsCodeBlockAndWithoutOneIsNoCode) {
  Fixture f;
  f.open();
  ASSERT_TRUE(f.service->start().ok());
  auto with = request("Sure.\n```cuda\npassed kernel\n```\n");
  with.from_reply = true;
  EXPECT_EQ(f.wait_done(f.service->submit(with)->id)["result"]["disposition"], "passed");
  auto without = request("I cannot write this kernel.");
  without.from_reply = true;
  auto s = f.service->submit(without);
  ASSERT_TRUE(s.ok());
  const Json job = f.wait_done(s->id);
  EXPECT_EQ(job["state"], "done");
  EXPECT_EQ(job["result"]["disposition"], "no_code");
  EXPECT_EQ(job["result"]["reward"]["value"], 0.0);
  EXPECT_EQ(f.judger.calls(), 1);
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(Service, ACachedResultHasTheAskedPresetNoCostsAndStateDone) {
  Fixture f;
  f.open();
  ASSERT_TRUE(f.service->start().ok());
  f.wait_done(f.service->submit(request("not_evaluated x"))->id);
  auto again = request("not_evaluated x");
  again.reward = RewardPreset::kernelgym;
  auto s = f.service->submit(again);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->state, JobState::done);
  const Json r = f.wait_done(s->id)["result"];
  EXPECT_EQ(r["reward"]["preset"], "kernelgym");
  EXPECT_EQ(r["reward"]["value"], 0.0);  // not checked: no reward in either preset
  EXPECT_EQ(r["costs"]["judge_s"], 0.0);
  EXPECT_EQ(f.judger.calls(), 1);
}

TEST(Service, ADuplicateKeyAnswersTheJobsStateNow) {
  Fixture f;
  f.open();
  ASSERT_TRUE(f.service->start().ok());
  auto r = request("passed k");
  r.idempotency_key = "k";
  const JobId id = f.service->submit(r)->id;
  f.wait_done(id);
  auto again = f.service->submit(r);
  EXPECT_TRUE(again->duplicate);
  EXPECT_EQ(again->id, id);
  EXPECT_EQ(again->state, JobState::done);
}

TEST(Service, ALongPollEndsAtAQueuedJobsDeadline) {
  Fixture f;
  f.start_holding_one();
  auto late = request("passed 1");
  late.deadline_s = 30;
  const JobId id = f.service->submit(late)->id;
  f.clock = 1031;
  auto job = f.service->wait(id, 5);  // no worker reaches it: the poll expires it
  EXPECT_EQ((**job)["state"], "expired");
  f.judger.release();
}

TEST(Service, StoppingAnswersLongPollsAtOnce) {
  Fixture f;
  f.start_holding_one();
  const JobId queued = f.service->submit(request("passed 1"))->id;
  std::thread poll([&] {
    const auto t0 = std::chrono::steady_clock::now();
    auto job = f.service->wait(queued, 60);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
    EXPECT_EQ((**job)["state"], "queued");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  f.service->begin_stop();
  poll.join();
  f.judger.release();
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(Service, ARestartWithoutAJobsTaskEndsItInsteadOfCrashing) {
  TempDir dir;
  JobId gone = 0;
  {
    auto s = JobStore::open(dir.path / "jobs.db");
    auto r = request("passed");
    r.task = "task_removed_since";
    gone = s->insert(r, "default", "k", 1)->id;
  }
  FakeJudger judger;
  auto store = JobStore::open(dir.path / "jobs.db");
  Service service({}, {testing::fake_task("gemm_test")}, judger, std::move(*store));
  ASSERT_TRUE(service.start().ok());
  EXPECT_EQ(service.requeued(), 0);
  const Json job = **service.get(gone);
  EXPECT_EQ(job["state"], "done");
  EXPECT_EQ(job["result"]["disposition"], "harness_error");
  EXPECT_NE(job["result"]["message"].get<std::string>().find("task_removed_since"),
            std::string::npos);
  EXPECT_EQ(judger.calls(), 0);
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(Service, AResultThatCannotBeStoredStopsNewJobsAndSaysSo) {
  Fixture f;
  f.start_holding_one();
  {
    auto db = store::Db::open(f.dir.path / "jobs.db", false);
    ASSERT_TRUE(db->exec("DROP TABLE serve_jobs").ok());
  }
  f.judger.release();
  for (int i = 0; i < 500 && f.service->health()["status"] != "degraded"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const Json h = f.service->health();
  EXPECT_EQ(h["status"], "degraded");
  EXPECT_NE(h["error"].get<std::string>().find("serve_jobs"), std::string::npos) << h;
  auto refused = f.service->submit(request("passed 1"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, SubmitError::store_failed);
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(Service, AKnownKeyWithAnotherCandidateIsAConflict) {
  Fixture f;
  f.open();
  ASSERT_TRUE(f.service->start().ok());
  auto r = request("passed k\n");
  r.idempotency_key = "k";
  const JobId id = f.service->submit(r)->id;
  auto same_code_as_reply = r;
  same_code_as_reply.from_reply = true;
  same_code_as_reply.source = "Here:\n```cuda\npassed k\n```\n";
  EXPECT_EQ(f.service->submit(same_code_as_reply)->id, id);  // the same candidate: the job
  auto other = r;
  other.source = "passed other";
  auto s = f.service->submit(other);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, SubmitError::key_conflict);
  EXPECT_NE(s.error().message.find("use a key of its own"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::serve
