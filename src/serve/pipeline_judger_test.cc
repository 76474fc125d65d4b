#include "serve/pipeline_judger.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "judge/testing/fake_stages.h"
#include "serve/fakes_test.h"

namespace ptxbench::serve {
namespace {

using Calls = std::vector<std::string>;

struct CancellableStagesTest : ::testing::Test {
  judge::testing::FakeStages inner;
  std::atomic<bool> cancelled{false};
  CancellableStages stages{inner, cancelled};
  task::TaskSpec task = testing::fake_task("gemm_test");
  judge::JudgeOptions options;
  void SetUp() override {
    options.gpu = true;
    options.compile.arch = "sm_90a";
  }
  judge::JudgeReport run() { return judge::Judge(stages).judge(task, std::string("k"), options); }
};

TEST_F(CancellableStagesTest, UncancelledRunsEveryStage) {
  run();
  EXPECT_EQ(inner.calls, (Calls{"compile", "evaluate /cache/k.so", "audit /cache/k.so sm_90a"}));
}

TEST_F(CancellableStagesTest, CancelledBeforeRunsNothing) {
  cancelled = true;
  judge::JudgeReport r = run();
  EXPECT_TRUE(inner.calls.empty());
  ASSERT_TRUE(r.compile.failed());
  EXPECT_NE(r.compile.failed()->error.find("cancelled"), std::string::npos);
}

// Cancelled while compiling: the compile ends as it would, and the judging session (the GPU)
// and the audit are never started.
TEST_F(CancellableStagesTest, CancelledWhileCompilingNeverStartsTheGpuStages) {
  inner.note = [this] {
    cancelled = true;
    return std::string();
  };
  judge::JudgeReport r = run();
  EXPECT_EQ(inner.calls, (Calls{"compile"}));
  ASSERT_TRUE(r.eval.done());
  EXPECT_EQ(r.eval.done()->outcome, Outcome::not_run);
  EXPECT_NE(r.eval.done()->message.find("cancelled"), std::string::npos);
}

// Cancelled during the judging session: the session ends as it would; the audit is not run.
TEST_F(CancellableStagesTest, CancelledWhileEvaluatingSkipsTheAudit) {
  inner.note = [this] {
    if (inner.calls.size() == 1) cancelled = true;  // the second call logged: evaluate
    return std::string();
  };
  judge::JudgeReport r = run();
  EXPECT_EQ(inner.calls, (Calls{"compile", "evaluate /cache/k.so"}));
  ASSERT_TRUE(r.audit.failed());
  EXPECT_NE(r.audit.failed()->error.find("cancelled"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::serve
