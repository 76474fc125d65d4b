// Auditor routes with a fake ProcessRunner that answers with outputs recorded on the H200
// (reference GEMM at M=1000): cuobjdump listings, audit-worker result.json, ncu CSV.
#include "audit/auditor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "audit/test_data.h"
#include "core/fs.h"
#include "task/loader.h"

namespace ptxbench::audit {
namespace {

using testing::testdata;

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string arg_after(const std::vector<std::string>& v, const std::string& flag) {
  auto it = std::find(v.begin(), v.end(), flag);
  return it != v.end() && it + 1 != v.end() ? *(it + 1) : std::string{};
}

class FakeRunner : public ProcessRunner {
 public:
  enum class Worker { records, permission, no_gpu, second_unrecorded };
  Worker worker = Worker::records;
  std::vector<std::string> modes;  // worker modes called, in order
  int ncu_calls = 0;
  std::vector<std::string> disassembled;  // the binaries given to the disassembler
  std::vector<std::string> visible;       // CUDA_VISIBLE_DEVICES of each worker / ncu process

  Result<ProcessResult> run(const ProcessSpec& spec) override {
    ProcessResult r;
    r.exit_code = 0;
    const auto& a = spec.argv;
    if (has(a, "--mode")) {
      auto it = spec.env.find("CUDA_VISIBLE_DEVICES");
      visible.push_back(it == spec.env.end() ? "(inherited)" : it->second);
    }
    if (has(a, "--clock-control")) {
      ++ncu_calls;
      r.stdout_text = testdata("ncu_raw_reference_gemm.csv");
    } else if (has(a, "-sass")) {
      disassembled.push_back(a.back());
      r.stdout_text = testdata("sass_reference_gemm.txt");
    } else if (has(a, "--mode")) {
      modes.push_back(arg_after(a, "--mode"));
      const std::string out = arg_after(a, "--out") + "/result.json";
      if (worker == Worker::no_gpu) {
        r.exit_code = 127;
        r.stderr_text =
            "error while loading shared libraries: libcuda.so.1: cannot open shared object file";
      } else if (worker == Worker::permission) {
        std::ofstream(out)
            << R"j({"cupti_error":"cuptiProfilerInitialize failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)","cupti_error_kind":"permission"})j";
        r.exit_code = 3;
      } else if (worker == Worker::second_unrecorded) {
        // discovery saw two functions; the sass runs bring records for the first only
        std::ofstream(out) << testdata(modes.back() == "discover"
                                           ? "cupti_discover_two_kernels_gemm.json"
                                           : "cupti_two_kernels_gemm.json");
      } else {
        std::ofstream(out) << testdata("cupti_reference_gemm.json");
      }
    } else {
      return make_error("unexpected command " + a.at(0));
    }
    return r;
  }
};

class AuditorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v :
         {"PTXBENCH_CUOBJDUMP", "PTXBENCH_NVDISASM", "PTXBENCH_NCU", "PTXBENCH_AUDIT_WORKER"})
      setenv(v, "/bin/true", 1);  // found and executable; the fake runner answers for them
    auto t = task::load_task_by_name(paths_, "gemm_n7168_k5120");
    ASSERT_TRUE(t.ok());
    task_ = *t;
    // A file the Auditor can copy into the workers' folders (the fake runner plays them).
    auto d = TempDir::create("auditor-test-");
    ASSERT_TRUE(d.ok());
    so_dir_.emplace(std::move(*d));
    so_ = so_dir_->path() / "candidate.so";
    std::ofstream(so_) << "not really an ELF file";
  }
  Result<AuditResult> audit(RouteChoice route, std::filesystem::path listing = {},
                            int device = -1) {
    Auditor auditor(paths_, runner_);
    AuditOptions o;
    o.route = route;
    o.workload = "m1000";  // the workload the recorded H200 outputs (testdata/) were taken on
    o.sass_listing = listing;
    o.device = device;
    return auditor.audit(so_, task_, "sm_90a", o);
  }
  std::optional<TempDir> so_dir_;
  std::filesystem::path so_;
  Paths paths_ = Paths::discover();
  FakeRunner runner_;
  task::TaskSpec task_;
};

TEST_F(AuditorTest, CuptiRouteJoinsRecordsToTheListing) {
  auto r = audit(RouteChoice::automatic);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->route, Route::cupti);
  EXPECT_TRUE(r->runtime_run);
  EXPECT_EQ(runner_.modes, (std::vector<std::string>{"discover", "sass"}));
  EXPECT_EQ(runner_.ncu_calls, 0);
  ASSERT_EQ(r->kernels.size(), 1u);
  EXPECT_TRUE(r->kernels[0].recorded);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  EXPECT_EQ(r->family("wgmma")->thread_pred_on, 18350080u);
  EXPECT_NEAR(r->coverage.ratio, 1.024, 1e-9);
  EXPECT_TRUE(r->instruction_metric_evaluated);
  EXPECT_TRUE(r->instruction_metric_passed);
  EXPECT_EQ(r->feedback(), "");
}

TEST_F(AuditorTest, TheCompileStagesListingSparesASecondDisassembly) {
  auto plain = audit(RouteChoice::automatic);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(has(runner_.disassembled, so_.string()));
  runner_.disassembled.clear();
  auto reused =
      audit(RouteChoice::automatic, paths_.root / "src/audit/testdata/sass_reference_gemm.txt");
  ASSERT_TRUE(reused.ok()) << reused.error().to_string();
  EXPECT_FALSE(has(runner_.disassembled, so_.string()));
  EXPECT_EQ(reused->family("wgmma")->thread_pred_on, plain->family("wgmma")->thread_pred_on);
  EXPECT_NEAR(reused->coverage.ratio, plain->coverage.ratio, 1e-12);
}

TEST_F(AuditorTest, PermissionErrorFallsBackToNcuInAutoMode) {
  runner_.worker = FakeRunner::Worker::permission;
  auto r = audit(RouteChoice::automatic);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->route, Route::ncu);
  EXPECT_EQ(runner_.ncu_calls, 1);
  ASSERT_FALSE(r->messages.empty());
  EXPECT_NE(r->messages[0].find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::executed);
  EXPECT_NEAR(r->coverage.ratio, 1.024, 1e-9);
  EXPECT_DOUBLE_EQ(r->corroborating.at("sm__inst_executed_pipe_tensor_op_gmma"), 573440);
  ASSERT_EQ(r->kernels.size(), 1u);
  EXPECT_EQ(r->kernels[0].opcodes.empty(), false);
}

TEST_F(AuditorTest, PermissionErrorIsAnErrorWhenCuptiWasAskedFor) {
  runner_.worker = FakeRunner::Worker::permission;
  auto r = audit(RouteChoice::cupti);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().hint.find("run as root"), std::string::npos);
}

TEST_F(AuditorTest, NoGpuGivesTheStaticCensusAndSaysSo) {
  runner_.worker = FakeRunner::Worker::no_gpu;
  auto r = audit(RouteChoice::automatic);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_FALSE(r->runtime_run);
  EXPECT_EQ(r->route, Route::static_only);
  EXPECT_EQ(r->family("wgmma")->verdict, Verdict::present_not_audited);
  EXPECT_FALSE(r->instruction_metric_evaluated);
  ASSERT_FALSE(r->messages.empty());
  EXPECT_NE(r->messages[0].find("runtime audit not run"), std::string::npos);
}

TEST_F(AuditorTest, AKernelCuptiCouldNotRecordSendsAutoToNcu) {
  runner_.worker = FakeRunner::Worker::second_unrecorded;
  auto r = audit(RouteChoice::automatic);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  // discover, the first function, then each strategy for the later function
  EXPECT_EQ(runner_.modes, (std::vector<std::string>{"discover", "sass", "sass", "sass", "sass"}));
  EXPECT_EQ(r->route, Route::ncu);
  EXPECT_EQ(runner_.ncu_calls, 1);
  bool said = false;
  for (const auto& m : r->messages)
    said = said || m.find("not recorded by CUPTI") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST_F(AuditorTest, CuptiOnlyKeepsUnrecordedKernelsUnknown) {
  runner_.worker = FakeRunner::Worker::second_unrecorded;
  auto r = audit(RouteChoice::cupti);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->route, Route::cupti);
  EXPECT_EQ(runner_.ncu_calls, 0);
  int unrecorded = 0;
  for (const auto& k : r->kernels) unrecorded += !k.recorded;
  EXPECT_GE(unrecorded, 1);
}

TEST_F(AuditorTest, EveryProcessOfAQueueSeesItsGpuOnly) {
  unsetenv("CUDA_VISIBLE_DEVICES");
  runner_.worker = FakeRunner::Worker::second_unrecorded;  // discover, 4 sass runs, then ncu
  ASSERT_TRUE(audit(RouteChoice::automatic, {}, 1).ok());
  EXPECT_EQ(runner_.ncu_calls, 1);
  ASSERT_EQ(runner_.visible.size(), 6u);
  for (const auto& v : runner_.visible) EXPECT_EQ(v, "1");
  runner_.visible.clear();
  ASSERT_TRUE(audit(RouteChoice::cupti).ok());  // no queue: the environment is left alone
  for (const auto& v : runner_.visible) EXPECT_EQ(v, "(inherited)");
}

TEST_F(AuditorTest, UnknownWorkloadIsAnError) {
  Auditor auditor(paths_, runner_);
  AuditOptions o;
  o.workload = "no_such_workload";
  EXPECT_FALSE(auditor.audit("/x.so", task_, "sm_90a", o).ok());
  EXPECT_FALSE(auditor.audit("/x.so", task_, "sm_100b", AuditOptions{}).ok());
}

}  // namespace
}  // namespace ptxbench::audit
