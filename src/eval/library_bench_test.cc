// Evaluator::benchmark_baseline (library_bench.h) against a fake verifier: the library checked
// once and timed alone in one verifier session, as a judging session checks and times it.
#include "eval/library_bench.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>

#include "core/fs.h"
#include "eval/evaluator.h"
#include "eval/plan.h"
#include "eval/test_support.h"

namespace ptxbench::eval {
namespace {

Reply ok(Json extra = Json::object()) {
  Reply r;
  r.ok = true;
  r.status = VerifierStatus::ok;
  r.extra = std::move(extra);
  return r;
}

struct Verifier {
  std::vector<Json> commands;                             // every command, in order
  bool library_passes = true;                             // the "baseline" check's verdict
  std::function<std::optional<Reply>(const Json&)> fail;  // set: a command's failing reply
  std::optional<ProcessResult> ended;                     // set: it ended so before its first reply
};

class FakeVerifier : public WorkerProcess {
 public:
  explicit FakeVerifier(Verifier& v) : v_(v) {}
  Status send(const Json& command) override {
    v_.commands.push_back(command);
    const std::string op = command.value("op", "");
    if (op == "quit") return {};
    if (v_.fail)
      if (auto r = v_.fail(command)) {
        next_ = *r;
        return {};
      }
    next_ = ok();
    if (op == "open") {
      next_.extra =
          Json{{"slots", Json::array()}, {"provenance", {{"gpu", "NVIDIA H100 80GB HBM3"}}}};
    } else if (op == "baseline") {
      gpu::CompareStats s;
      s.tensor = "C";
      s.passed = v_.library_passes;
      s.rel_l2 = v_.library_passes ? 1e-3 : 0.5;
      CallCheck c;
      c.outputs = {s};
      next_.check = c;
      next_.extra = Json{{"name", "cuBLASLt"}, {"description", "heuristic #0"}};
    } else if (op == "library") {
      set_events(next_, {0.01});
    } else if (op == "clocks") {
      next_.extra = Json{{"sm_mhz", 1980}};
    }
    return {};
  }
  Received receive(std::chrono::milliseconds) override {
    if (v_.ended) return {std::nullopt, ReceiveFailure::closed, "the child ended"};
    return {next_, ReceiveFailure::none, ""};
  }
  ProcessResult finish(std::chrono::milliseconds) override {
    if (v_.ended) return *v_.ended;
    ProcessResult p;
    p.exit_code = 0;
    p.stderr_text = "verifier stderr";
    return p;
  }

 private:
  Verifier& v_;
  Reply next_;
};

class FakeLauncher : public WorkerLauncher {
 public:
  explicit FakeLauncher(Verifier& v) : v_(v) {}
  using WorkerLauncher::launch;
  Result<std::unique_ptr<WorkerProcess>> launch(const ProcessSpec& spec,
                                                const LaunchPipes&) override {
    specs.push_back(spec);
    return std::unique_ptr<WorkerProcess>(std::make_unique<FakeVerifier>(v_));
  }
  std::vector<ProcessSpec> specs;

 private:
  Verifier& v_;
};

class LibraryBenchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("PTXBENCH_ASSUME_GPU", "1", 1);
    auto d = TempDir::create("library-bench-test-");
    ASSERT_TRUE(d.ok());
    dir_ = std::make_unique<TempDir>(std::move(*d));
    paths_.root = paths_.bin_dir = dir_->path();
    std::ofstream(dir_->path() / "ptxbench-worker") << "fake";
    opts_.seed = 77;
    opts_.warmup_seconds = 0;
    opts_.min_samples = 5;
    opts_.sample_budget_seconds = 0.05;
    opts_.baseline_inputs = gpu::Distribution::wide_range;
  }
  void TearDown() override { ::unsetenv("PTXBENCH_ASSUME_GPU"); }

  EvalResult bench() {
    FakeLauncher launcher(verifier_);
    Evaluator e(paths_, launcher);
    EvalResult r = e.benchmark_baseline(task_, opts_);
    specs_ = launcher.specs;
    return r;
  }
  std::vector<std::string> ops() const {
    std::vector<std::string> out;
    for (const auto& c : verifier_.commands) out.push_back(c.value("op", ""));
    return out;
  }

  task::TaskSpec task_ = testing::gemm_task();
  std::unique_ptr<TempDir> dir_;
  Paths paths_;
  EvalOptions opts_;
  Verifier verifier_;
  std::vector<ProcessSpec> specs_;
};

TEST_F(LibraryBenchTest, TheLibraryIsCheckedThenTimedAloneInOneVerifierSession) {
  EvalResult r = bench();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_EQ(specs_.size(), 1u);
  EXPECT_EQ(specs_[0].argv.front(), paths_.worker().string());
  const auto o = ops();
  ASSERT_GE(o.size(), 8u);
  EXPECT_EQ(std::vector<std::string>(o.begin(), o.begin() + 4),
            (std::vector<std::string>{"open", "prepare", "baseline", "clocks"}));
  EXPECT_EQ(std::vector<std::string>(o.end() - 3, o.end()),
            (std::vector<std::string>{"clocks", "close", "quit"}));
  // One workload, the timed one, with a judging session's timed slots and the asked inputs.
  const Json& open = verifier_.commands[0];
  ASSERT_EQ(open.at("workloads").size(), 1u);
  const Json& w = open.at("workloads")[0];
  EXPECT_EQ(w.at("slots"), kTimedSlots);
  EXPECT_TRUE(w.at("baseline").get<bool>());
  ASSERT_EQ(w.at("bases").size(), 1u);
  EXPECT_EQ(w.at("bases")[0].at("seed").get<std::uint64_t>(), timing_seed(77));
  EXPECT_EQ(w.at("bases")[0].at("distribution"), "wide_range");
  // The check is on the base set as it is.
  const Json& prepare = verifier_.commands[1];
  EXPECT_EQ(prepare.at("content"), "transformed");
  EXPECT_EQ(prepare.at("transform_seed").get<std::uint64_t>(), 0u);
  EXPECT_TRUE(verifier_.commands[2].at("check").get<bool>());
  // Warm-up runs (3), then samples; the library walks the slots like a judging session's.
  std::vector<int> slots;
  for (const auto& c : verifier_.commands)
    if (c.value("op", "") == "library") slots.push_back(c.value("slot", -1));
  ASSERT_TRUE(r.timing);
  EXPECT_EQ(r.timing->baseline.n + 3, slots.size());
  EXPECT_GE(r.timing->baseline.n, opts_.min_samples);
  for (std::size_t i = 0; i < slots.size(); ++i)
    EXPECT_EQ(slots[i], static_cast<int>(i % kTimedSlots));
  EXPECT_EQ(r.timing->baseline_name, "cuBLASLt");
  EXPECT_EQ(r.timing->workload, "timed");
  EXPECT_EQ(r.timing->clocks_before.value("sm_mhz", 0), 1980);
  ASSERT_TRUE(r.timing->baseline_tflops);
  EXPECT_NEAR(*r.timing->baseline_tflops, 2.0 * 256 * 128 * 64 / 1e-5 / 1e12, 1e-6);
  EXPECT_EQ(r.provenance.value("gpu", ""), "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(r.baseline_check.size(), 1u);
  EXPECT_FALSE(r.has_flag(Flag::baseline_incorrect));
  EXPECT_EQ(r.worker_stderr_tail, "verifier stderr");
}

TEST_F(LibraryBenchTest, ALibraryThatDisagreesWithTheReferenceIsFlagged) {
  verifier_.library_passes = false;
  EvalResult r = bench();
  EXPECT_EQ(r.outcome, Outcome::passed);
  EXPECT_TRUE(r.has_flag(Flag::baseline_incorrect));
  ASSERT_EQ(r.baseline_check.size(), 1u);
  EXPECT_DOUBLE_EQ(r.baseline_check[0].rel_l2, 0.5);
}

TEST_F(LibraryBenchTest, AVerifierFailureIsAHarnessErrorInItsOwnWords) {
  verifier_.fail = [](const Json& c) -> std::optional<Reply> {
    if (c.value("op", "") != "baseline") return std::nullopt;
    Reply r;
    r.status = VerifierStatus::library_failed;
    r.error = "cuDNN: no plan supports this graph";
    return r;
  };
  EvalResult r = bench();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_NE(r.message.find("checking the library against the reference"), std::string::npos);
  EXPECT_NE(r.message.find("cuDNN: no plan supports this graph"), std::string::npos);
  EXPECT_FALSE(r.timing);
  EXPECT_EQ(ops().back(), "quit");  // the verifier is told to end all the same
}

TEST_F(LibraryBenchTest, AVerifierThatEndedSaysHowAndWhatItPrinted) {
  ProcessResult end;
  end.exit_code = 127;
  end.stderr_text = "ptxbench-worker: error while loading shared libraries: libcuda.so.1\n";
  verifier_.ended = end;
  EvalResult r = bench();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_EQ(r.message,
            "preparing inputs and references: the child ended; the verifier ended with exit code "
            "127: ptxbench-worker: error while loading shared libraries: libcuda.so.1");
}

TEST_F(LibraryBenchTest, WithoutTimingTheLibraryIsOnlyCheckedOnOneSlot) {
  opts_.timing = false;  // tests/gpu/library_rule
  EvalResult r = bench();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_EQ(ops(), (std::vector<std::string>{"open", "prepare", "baseline", "close", "quit"}));
  EXPECT_EQ(verifier_.commands[0].at("workloads")[0].at("slots"), 1);
  EXPECT_FALSE(r.timing);
  EXPECT_EQ(r.baseline_check.size(), 1u);
}

TEST_F(LibraryBenchTest, WithoutTheWorkerProgramNothingStarts) {
  std::filesystem::remove(paths_.worker());
  EvalResult r = bench();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_TRUE(specs_.empty());
}

}  // namespace
}  // namespace ptxbench::eval
