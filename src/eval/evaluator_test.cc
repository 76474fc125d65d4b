// The Evaluator against a fake ProcessRunner that plays the worker: it reads the
// request file and writes a scripted response, so the whole parent side (planning,
// requests, outcome mapping, check, timing report, flags) is tested without a GPU.
#include "eval/evaluator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>

#include "core/fs.h"
#include "eval/flags.h"
#include "eval/test_support.h"

namespace ptxbench::eval {
namespace {

namespace fs = std::filesystem;

class FakeWorker : public ProcessRunner {
 public:
  // Given the parsed request, fills the response (or returns false: write none) and the process
  // end.
  std::function<bool(const WorkerRequest&, WorkerResponse&, ProcessResult&)> candidate, check;
  std::vector<WorkerRequest> seen;
  std::vector<ProcessSpec> specs;

  Result<ProcessResult> run(const ProcessSpec& spec) override {
    specs.push_back(spec);
    auto text = read_file(spec.argv.back());
    PTXB_CHECK(text.ok(), "fake worker: no request");
    auto req = WorkerRequest::from_json(Json::parse(*text));
    PTXB_CHECK(req.ok(), "fake worker: bad request");
    seen.push_back(*req);
    WorkerResponse resp;
    resp.mode = req->mode;
    resp.provenance = {{"gpu", "NVIDIA H200"}, {"driver", "580.00"}, {"cuda_runtime", 13000}};
    ProcessResult p;
    p.exit_code = 0;
    p.network_isolated = true;
    auto& script = req->mode == "candidate" ? candidate : check;
    if (script(*req, resp, p)) {
      if (raw_response.empty())
        std::ofstream(fs::path(req->dir) / "response.json") << resp.to_json().dump();
      else
        std::ofstream(fs::path(req->dir) / "response.json") << raw_response;
    }
    if (!progress.empty()) std::ofstream(fs::path(req->dir) / "progress.txt") << progress;
    return p;
  }
  std::string raw_response, progress;
};

bool candidate_ok(const WorkerRequest& req, WorkerResponse& resp, ProcessResult&) {
  for (const auto& t : req.trials)
    resp.trials.push_back({t.index, t.label, {"trial.bin"}, {}, 1.0});
  TimingOutcome tm;
  tm.candidate = summarize(std::vector<double>(10, 2.0));
  tm.baseline = summarize(std::vector<double>(10, 3.0));
  tm.baseline_name = "cublaslt";
  tm.host_check_event_ms = 2.0;
  tm.host_check_host_ms = 2.1;
  resp.timing = tm;
  return true;
}

gpu::CompareStats stats(bool pass) {
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 256 * 128;
  s.passed = pass;
  if (!pass) {
    s.failed = 128;
    s.mismatch_ratio = 128.0 / s.numel;
    s.max_abs_err = 0.7;
    gpu::BadElement b;
    b.index = {255, 0};
    b.tile_row = 1;
    s.first_bad = {b};
  }
  return s;
}

std::function<bool(const WorkerRequest&, WorkerResponse&, ProcessResult&)> check_with(
    bool pass_all) {
  return [pass_all](const WorkerRequest& req, WorkerResponse& resp, ProcessResult&) {
    for (const auto& t : req.trials) {
      TrialOutcome o;
      o.index = t.index;
      o.outputs = {stats(pass_all || t.index == 0)};
      resp.trials.push_back(o);
    }
    resp.baseline_check = {stats(true)};
    return true;
  };
}

class EvaluatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("PTXBENCH_ASSUME_GPU", "1", 1);
    auto d = TempDir::create("eval-test-");
    ASSERT_TRUE(d.ok());
    dir_ = std::make_unique<TempDir>(std::move(*d));
    paths_.root = dir_->path();
    paths_.bin_dir = dir_->path();
    std::ofstream(dir_->path() / "ptxbench-worker") << "fake";
    std::ofstream(dir_->path() / "k.so") << "fake";
    opts_.seed = 77;
    opts_.locate_faults = false;
  }
  void TearDown() override { ::unsetenv("PTXBENCH_ASSUME_GPU"); }

  EvalResult eval() {
    Evaluator e(paths_, fake_);
    return e.evaluate(testing::gemm_task(), dir_->path() / "k.so", opts_);
  }

  std::unique_ptr<TempDir> dir_;
  Paths paths_;
  FakeWorker fake_;
  EvalOptions opts_;
};

TEST_F(EvaluatorTest, PassingCandidateGetsTimingAndSpeedup) {
  fake_.candidate = candidate_ok;
  fake_.check = check_with(true);
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_EQ(fake_.seen.size(), 2u);
  EXPECT_EQ(fake_.seen[0].mode, "candidate");
  EXPECT_EQ(fake_.seen[1].mode, "check");
  EXPECT_TRUE(fake_.seen[1].library.empty());  // the checker never sees the candidate
  EXPECT_EQ(fake_.seen[1].trials.size(), fake_.seen[0].trials.size());
  EXPECT_TRUE(fake_.specs[0].clear_env);
  EXPECT_TRUE(fake_.specs[0].isolate_network);
  EXPECT_FALSE(fake_.specs[0].limits.address_space_bytes.has_value());
  EXPECT_TRUE(fake_.specs[0].limits.file_size_bytes.has_value());
  ASSERT_TRUE(r.timing.has_value());
  EXPECT_NEAR(*r.timing->speedup, 1.5, 1e-12);
  double flops = 2.0 * 256 * 128 * 64;
  EXPECT_NEAR(*r.timing->tflops, flops / 2e-3 / 1e12, 1e-9);
  EXPECT_NEAR(*r.timing->percent_of_peak, 100 * *r.timing->tflops / 989.4, 1e-9);
  EXPECT_EQ(r.seed, 77u);
  EXPECT_TRUE(r.flags.empty());
  EXPECT_NE(r.summary().find("speedup vs baseline: 1.500x"), std::string::npos);
  EXPECT_EQ(r.to_json()["outcome"], "passed");
}

TEST_F(EvaluatorTest, IncorrectTrialGivesFeedbackWithIndexAndTile) {
  fake_.candidate = candidate_ok;
  fake_.check = check_with(false);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  std::string f = r.feedback();
  EXPECT_NE(f.find("first bad at [255,0]"), std::string::npos) << f;
  EXPECT_NE(f.find("tile 1,0"), std::string::npos) << f;
}

// A task whose library fails its own rule is a task-suite error, not the candidate's.
TEST_F(EvaluatorTest, LibraryFailingTheRuleMakesAnIncorrectVerdictATaskSuiteError) {
  fake_.candidate = candidate_ok;
  auto check = check_with(false);
  fake_.check = [check](const WorkerRequest& req, WorkerResponse& resp, ProcessResult& p) {
    check(req, resp, p);
    resp.baseline_check = {stats(false)};
    return true;
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_NE(r.message.find("task suite error"), std::string::npos) << r.message;
  EXPECT_TRUE(r.has_flag("baseline_incorrect"));
  fake_.check = check_with(false);  // the library meets the rule: the candidate is incorrect
  EXPECT_EQ(eval().outcome, Outcome::incorrect);
}

TEST_F(EvaluatorTest, CrashBecomesRuntimeErrorAndSkipsTheCheck) {
  fake_.candidate = [](const WorkerRequest&, WorkerResponse&, ProcessResult& p) {
    p.exit_code = -1;
    p.signal = 11;
    return false;
  };
  fake_.progress = "trial 1 (hidden workload m100): running the candidate";
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error);
  EXPECT_NE(r.message.find("signal 11"), std::string::npos) << r.message;
  EXPECT_NE(r.phase.find("trial 1"), std::string::npos);
  EXPECT_EQ(fake_.seen.size(), 1u);
}

TEST_F(EvaluatorTest, HangBecomesTimeout) {
  fake_.candidate = [](const WorkerRequest&, WorkerResponse&, ProcessResult& p) {
    p.timed_out = true;
    p.signal = 9;
    return false;
  };
  EXPECT_EQ(eval().outcome, Outcome::timeout);
}

TEST_F(EvaluatorTest, CudaErrorTextIsKept) {
  fake_.candidate = [](const WorkerRequest&, WorkerResponse& resp, ProcessResult&) {
    resp.status = "cuda_error";
    resp.error = "cudaErrorIllegalAddress: an illegal memory access was encountered";
    return true;
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error);
  EXPECT_NE(r.feedback().find("illegal memory access"), std::string::npos);
}

TEST_F(EvaluatorTest, MalformedCheckResponseIsHarnessError) {
  fake_.candidate = candidate_ok;
  fake_.check = [this](const WorkerRequest&, WorkerResponse&, ProcessResult&) {
    fake_.raw_response = "{\"mode\": \"check\", \"status\": ";
    return true;
  };
  EXPECT_EQ(eval().outcome, Outcome::harness_error);
}

TEST_F(EvaluatorTest, SideStreamIsFlagged) {
  fake_.candidate = [](const WorkerRequest& req, WorkerResponse& resp, ProcessResult& p) {
    candidate_ok(req, resp, p);
    resp.timing->side_stream = true;
    return true;
  };
  fake_.check = check_with(true);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::passed);
  EXPECT_TRUE(r.has_flag("side_stream"));
  EXPECT_NE(r.summary().find("escaped the timed stream"), std::string::npos);
}

TEST_F(EvaluatorTest, FasterThanThePeakIsAGuardFlag) {
  fake_.candidate = [](const WorkerRequest& req, WorkerResponse& resp, ProcessResult& p) {
    candidate_ok(req, resp, p);
    resp.timing->candidate = summarize(std::vector<double>(10, 1e-7));  // far too fast for the task
    return true;
  };
  fake_.check = check_with(true);
  EvalResult r = eval();
  ASSERT_TRUE(r.timing && r.timing->percent_of_peak);
  EXPECT_GT(*r.timing->percent_of_peak, 105.0);
  EXPECT_TRUE(r.has_flag("above_peak"));
  EXPECT_TRUE(is_guard_flag("above_peak"));
  EXPECT_NE(r.summary().find("WARNING above_peak"), std::string::npos);
  fake_.candidate = candidate_ok;  // 2 ms: far below the peak
  EXPECT_FALSE(eval().has_flag("above_peak"));
}

TEST_F(EvaluatorTest, SpeedupOfAFailedKernelIsMarkedAsNoResult) {
  fake_.candidate = candidate_ok;
  fake_.check = check_with(false);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_NE(r.summary().find("not a result"), std::string::npos);
  fake_.check = check_with(true);
  EXPECT_EQ(eval().summary().find("not a result"), std::string::npos);
}

TEST_F(EvaluatorTest, AQueuesWorkersSeeItsGpuOnly) {
  unsetenv("CUDA_VISIBLE_DEVICES");
  fake_.candidate = candidate_ok;
  fake_.check = check_with(true);
  opts_.device = 1;
  EXPECT_EQ(eval().outcome, Outcome::passed);
  ASSERT_GE(fake_.specs.size(), 2u);  // candidate and check workers
  for (const auto& s : fake_.specs) EXPECT_EQ(s.env.at("CUDA_VISIBLE_DEVICES"), "1");
  fake_.specs.clear();
  setenv("CUDA_VISIBLE_DEVICES", "4,6", 1);  // ptxbench itself was given GPUs 4 and 6
  EXPECT_EQ(eval().outcome, Outcome::passed);
  for (const auto& s : fake_.specs) EXPECT_EQ(s.env.at("CUDA_VISIBLE_DEVICES"), "6");
  unsetenv("CUDA_VISIBLE_DEVICES");
  fake_.specs.clear();
  opts_.device = -1;  // no queue: nothing set
  EXPECT_EQ(eval().outcome, Outcome::passed);
  for (const auto& s : fake_.specs) EXPECT_EQ(s.env.count("CUDA_VISIBLE_DEVICES"), 0u);
}

TEST_F(EvaluatorTest, PowerCapIsNotThrottlingButThermalSlowdownIs) {
  auto with_mask = [](unsigned long long mask) {
    return [mask](const WorkerRequest& req, WorkerResponse& resp, ProcessResult& p) {
      candidate_ok(req, resp, p);
      resp.timing->clocks_after = Json{{"throttle_reasons_mask", mask}};
      return true;
    };
  };
  fake_.check = check_with(true);
  fake_.candidate = with_mask(0x4);  // software power cap: normal on an H200 under load
  EXPECT_FALSE(eval().has_flag("throttled"));
  fake_.candidate = with_mask(0x4 | 0x40);  // + hardware thermal slowdown
  EXPECT_TRUE(eval().has_flag("throttled"));
}

TEST_F(EvaluatorTest, NoGpuIsNotRun) {
  ::setenv("PTXBENCH_NO_GPU", "1", 1);
  EvalResult r = eval();
  ::unsetenv("PTXBENCH_NO_GPU");
  EXPECT_EQ(r.outcome, Outcome::not_run);
  EXPECT_NE(r.message.find("no NVIDIA GPU"), std::string::npos);
  EXPECT_TRUE(fake_.seen.empty());
}

}  // namespace
}  // namespace ptxbench::eval
