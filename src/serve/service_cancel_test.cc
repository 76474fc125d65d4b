// Service: cancelling a running job (service.h), and the instance name in job ids.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "serve/fakes_test.h"
#include "serve/service.h"

namespace ptxbench::serve {
namespace {

using testing::Fixture;
using testing::request;

// A running job cancelled: cancelled at once in the store (a poll sees it), the judging stops
// at its checkpoint, the verdict is thrown away, and the worker (and its GPU) takes the next job
// only after the cancelled judging has ended.
TEST(Service, CancelARunningJobStopsItsJudgingAndDiscardsTheVerdict) {
  Fixture f;
  const JobId running = f.start_holding_one();
  const JobId next = f.service->submit(request("incorrect 1"))->id;
  EXPECT_EQ(f.service->cancel(running), CancelAnswer::stopping);
  const Json cancelled = f.wait_done(running);
  EXPECT_EQ(cancelled["state"], "cancelled");
  EXPECT_FALSE(cancelled.contains("result"));
  EXPECT_EQ(f.service->cancel(running), CancelAnswer::already_final);
  // The held judging saw the flag and stopped; the worker went on to the next job.
  f.judger.wait_started(2);
  EXPECT_EQ(f.judger.stopped(), 1);
  f.judger.release();
  EXPECT_EQ(f.wait_done(next)["result"]["disposition"], "incorrect");
  const Json again = f.wait_done(running);
  EXPECT_EQ(again["state"], "cancelled");  // the stopped judging's verdict was never stored
  EXPECT_FALSE(again.contains("result"));
  const std::string m = f.service->metrics_text();
  EXPECT_NE(m.find("ptxbench_jobs_unjudged_total{state=\"cancelled\"} 1"), std::string::npos) << m;
  EXPECT_NE(m.find("ptxbench_jobs_discarded_total 1"), std::string::npos) << m;
  EXPECT_EQ(m.find("disposition=\"passed\""), std::string::npos) << m;
  EXPECT_EQ(f.service->health()["cancelling"], 0);
}

// Until the cancelled judging stops, health counts it (the GPU is still busy with it) and the
// one worker takes no other job: nothing else is put on its GPU.
TEST(Service, ACancelledJobHoldsItsWorkerUntilItsJudgingStops) {
  Fixture f;
  struct Slow final : Judger {
    std::atomic<bool> go{false};
    std::atomic<int> calls{0};
    run::TurnVerdict judge(const JobRequest&, const task::TaskSpec&, run::StageSlots&,
                           const std::atomic<bool>&) override {
      ++calls;  // ignores its cancellation until `go`: a stage under way
      while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      return testing::verdict_named("passed");
    }
    std::string feedback(const run::TurnVerdict&, const JobRequest&) override { return ""; }
    Json describe() const override { return Json::object(); }
  } slow;
  auto store = JobStore::open(f.dir.path / "slow.db");
  ASSERT_TRUE(store.ok());
  Service service(f.one_worker(), {testing::fake_task("gemm_test")}, slow, std::move(*store));
  ASSERT_TRUE(service.start().ok());
  const JobId a = service.submit(request("passed a"))->id;
  while (slow.calls == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const JobId b = service.submit(request("passed b"))->id;
  EXPECT_EQ(service.cancel(a), CancelAnswer::stopping);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  Json h = service.health();
  EXPECT_EQ(h["running"], 1);
  EXPECT_EQ(h["cancelling"], 1);
  EXPECT_EQ(h["queued"], 1);
  EXPECT_EQ(slow.calls, 1);  // b waits for the worker
  slow.go = true;
  auto done = service.wait(b, 10);
  ASSERT_TRUE(done.ok() && *done);
  EXPECT_EQ((**done)["state"], "done");
  EXPECT_EQ(service.health()["cancelling"], 0);
  service.stop();
}

// A restart does not judge a job cancelled while it ran.
TEST(Service, ARunningJobCancelledStaysCancelledAfterARestart) {
  Fixture f;
  const JobId running = f.start_holding_one();
  EXPECT_EQ(f.service->cancel(running), CancelAnswer::stopping);
  f.judger.release();
  f.service.reset();
  f.open();
  ASSERT_TRUE(f.service->start().ok());
  EXPECT_EQ(f.service->requeued(), 0);
  EXPECT_EQ(f.wait_done(running)["state"], "cancelled");
}

TEST(Service, JobIdsCarryTheInstanceName) {
  Fixture f;
  ServiceOptions o;
  o.instance = "node-7";
  f.open(o);
  ASSERT_TRUE(f.service->start().ok());
  const JobId id = f.service->submit(request("passed"))->id;
  EXPECT_EQ(f.wait_done(id)["id"], "node-7." + std::to_string(id));
  EXPECT_EQ(f.service->health()["instance"], "node-7");
}

}  // namespace
}  // namespace ptxbench::serve
