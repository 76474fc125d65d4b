// RemoteJudge (run --judge-url's judge) against a real Service and HttpServer over a FakeJudger:
// the verdict the service judged arrives whole, and each way the service can fail is an Error
// that names the URL and what to do.
#include "serve/remote_judge.h"

#include <gtest/gtest.h>

#include <thread>

#include "run/verdict_json.h"
#include "serve/fakes_test.h"
#include "serve/http_api.h"

namespace ptxbench::serve {
namespace {

struct Remote {
  testing::TempDir dir;
  testing::FakeJudger judger;
  std::unique_ptr<Service> service;
  std::unique_ptr<HttpServer> http;
  run::StageSlots slots{1, 0};

  explicit Remote(std::vector<TenantToken> tokens = {}, ServiceOptions so = {}) {
    auto store = JobStore::open(dir.path / "jobs.db");
    service = std::make_unique<Service>(so, std::vector{testing::fake_task("gemm_test")}, judger,
                                        std::move(*store));
    EXPECT_TRUE(service->start().ok());
    HttpOptions o;
    o.port = 0;
    o.tokens = std::move(tokens);
    http = std::make_unique<HttpServer>(*service, o);
    EXPECT_TRUE(http->start().ok());
  }
  ~Remote() {
    judger.release();
    http->stop();
    service->stop();
  }
  RemoteJudgeOptions options(std::string token = "") const {
    RemoteJudgeOptions o;
    o.url = "http://127.0.0.1:" + std::to_string(http->port()) + "/v1";
    o.token = std::move(token);
    o.retry_max_s = 2;
    o.poll_s = 1;
    return o;
  }
};

TEST(RemoteJudge, TheServicesVerdictArrivesWhole) {
  Remote r;
  auto judge = RemoteJudge::connect(r.options());
  ASSERT_TRUE(judge.ok()) << judge.error().to_string();
  EXPECT_TRUE((*judge)->gpu_available());  // the service's GPUs (ServiceOptions: 1)
  EXPECT_EQ((*judge)->describe()["judge"]["version"], "test");
  auto v = (*judge)->try_evaluate("passed k", testing::fake_task("gemm_test"), "sm_90a", r.slots);
  ASSERT_TRUE(v.ok()) << v.error().to_string();
  EXPECT_EQ(run::to_json(*v), run::to_json(testing::verdict_named("passed")));
  EXPECT_EQ(run::speedup_of(*v), 2.0);
  EXPECT_EQ(v->report.audit.done()->coverage.ratio, 0.8);
  EXPECT_EQ(v->report.gpu_seconds, 1.5);
}

TEST(RemoteJudge, ItsRefusalsAreErrorsNamingWhatToDo) {
  Remote r;
  auto judge = RemoteJudge::connect(r.options());
  ASSERT_TRUE(judge.ok());
  auto unknown = (*judge)->try_evaluate("passed", testing::fake_task("no_such"), "sm_90a", r.slots);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().to_string().find("refused a candidate of no_such (400)"),
            std::string::npos)
      << unknown.error().to_string();
  // evaluate() (rejudge's call) turns it into a harness error, never a crash.
  auto v = (*judge)->evaluate("passed", testing::fake_task("no_such"), "sm_90a", r.slots);
  EXPECT_EQ(v.report.disposition, judge::Disposition::harness_error);
}

TEST(RemoteJudge, AJobCancelledAtTheServiceIsAnError) {
  Remote r;
  r.judger.hold();
  auto judge = RemoteJudge::connect(r.options());
  ASSERT_TRUE(judge.ok());
  std::thread cancel([&] {
    r.judger.wait_started(1);
    EXPECT_EQ(r.service->cancel(1), CancelAnswer::stopping);
  });
  auto v = (*judge)->try_evaluate("passed", testing::fake_task("gemm_test"), "sm_90a", r.slots);
  cancel.join();
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().to_string().find("ended cancelled, without a verdict"), std::string::npos)
      << v.error().to_string();
}

TEST(RemoteJudge, AFullQueueIsRetriedThenGivenUp) {
  ServiceOptions so;
  so.max_queued = 0;
  Remote r({}, so);
  auto judge = RemoteJudge::connect(r.options());
  ASSERT_TRUE(judge.ok());
  const auto t0 = std::chrono::steady_clock::now();
  auto v = (*judge)->try_evaluate("passed", testing::fake_task("gemm_test"), "sm_90a", r.slots);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().to_string().find("gave no answer to a submission within 2 s: 429"),
            std::string::npos)
      << v.error().to_string();
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(1900));  // retried
}

TEST(RemoteJudge, ConnectRefusesWhatCannotWork) {
  Remote r(std::vector<TenantToken>{{"default", "0123456789abcdef-token"}});
  auto none = RemoteJudge::connect(r.options());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().to_string().find("did not accept the token (none was given)"),
            std::string::npos);
  auto wrong = RemoteJudge::connect(r.options("wrong-token-0123456789"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_TRUE(RemoteJudge::connect(r.options("0123456789abcdef-token")).ok());
  for (const char* url :
       {"https://127.0.0.1:1/v1", "127.0.0.1:8765", "http://h:1/x/v1", "http://"}) {
    auto o = r.options();
    o.url = url;
    auto bad = RemoteJudge::connect(o);
    ASSERT_FALSE(bad.ok()) << url;
    EXPECT_NE(bad.error().to_string().find("is not http://HOST:PORT"), std::string::npos) << url;
  }
  EXPECT_EQ(*judge_base_url("http://127.0.0.1:8765/v1/"), "http://127.0.0.1:8765");
}

}  // namespace
}  // namespace ptxbench::serve
