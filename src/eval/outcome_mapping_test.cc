#include "eval/outcome_mapping.h"

#include <gtest/gtest.h>

namespace ptxbench::eval {
namespace {

Result<WorkerResponse> response(const std::string& status, const std::string& error = "") {
  WorkerResponse r;
  r.mode = "candidate";
  r.status = status;
  r.error = error;
  r.phase = "trial 1 (hidden): running the candidate";
  return r;
}

ProcessResult ended(int code, int sig = 0, bool timed_out = false) {
  ProcessResult p;
  p.exit_code = code;
  p.signal = sig;
  p.timed_out = timed_out;
  p.wall_seconds = 30;
  return p;
}

const Result<WorkerResponse> kNone = make_error("no response file");

TEST(OutcomeMapping, ResponseStatuses) {
  EXPECT_EQ(classify_worker(ended(0), response("ok"), "done", true).outcome, Outcome::passed);
  auto v = classify_worker(
      ended(0),
      response("cuda_error", "cudaErrorIllegalAddress: an illegal memory access was encountered"),
      "", true);
  EXPECT_EQ(v.outcome, Outcome::runtime_error);
  EXPECT_NE(v.error.find("illegal memory access"), std::string::npos);
  EXPECT_EQ(v.phase, "trial 1 (hidden): running the candidate");
  EXPECT_EQ(classify_worker(ended(0), response("call_timeout", "did not finish"), "", true).outcome,
            Outcome::timeout);
  EXPECT_EQ(
      classify_worker(ended(0), response("load_error", "no ptxbench_launch"), "", true).outcome,
      Outcome::runtime_error);
  EXPECT_EQ(classify_worker(ended(0), response("harness_error", "disk full"), "", true).outcome,
            Outcome::harness_error);
  // ptxbench's own processes: a CUDA error there is ptxbench's failure.
  EXPECT_EQ(classify_worker(ended(0), response("cuda_error", "x"), "", false).outcome,
            Outcome::harness_error);
}

TEST(OutcomeMapping, CrashesAndTimeouts) {
  auto v = classify_worker(ended(-1, 11), kNone, "trial 0 (timed): running the candidate", true);
  EXPECT_EQ(v.outcome, Outcome::runtime_error);
  EXPECT_NE(v.error.find("signal 11"), std::string::npos);
  EXPECT_NE(v.error.find("trial 0"), std::string::npos);
  v = classify_worker(ended(-1, 9, true), kNone, "timing: sampling", true);
  EXPECT_EQ(v.outcome, Outcome::timeout);
  EXPECT_NE(v.error.find("timed out"), std::string::npos);
  EXPECT_EQ(classify_worker(ended(-1, 9, true), kNone, "", false).outcome, Outcome::harness_error);
  // exit() from the candidate: no response, exit code 0, not "done".
  EXPECT_EQ(classify_worker(ended(0), kNone, "trial 0: running the candidate", true).outcome,
            Outcome::runtime_error);
  EXPECT_EQ(classify_worker(ended(1), kNone, "trial 0", true).outcome, Outcome::runtime_error);
  // exit code 2: the worker rejected its request: ptxbench's bug.
  EXPECT_EQ(classify_worker(ended(2), kNone, "", true).outcome, Outcome::harness_error);
}

TEST(OutcomeMapping, MalformedResponseFromCheckIsHarnessError) {
  Result<WorkerResponse> bad = parse_response("{not json");
  EXPECT_EQ(classify_worker(ended(0), bad, "done", false).outcome, Outcome::harness_error);
}

TEST(Sanitizer, FaultingKernelBothFormats) {
  std::string old_style =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at oob_kernel(float *, int)+0x1b0 in /tmp/x.cu:12\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "========= ERROR SUMMARY: 1 error\n";
  EXPECT_EQ(faulting_kernel_from_sanitizer(old_style), "oob_kernel(float *, int)");
  std::string new_style =
      "========= Invalid __global__ write of size 2 bytes\n"
      "=========     at 0x2c0 in gemm_kernel(const DLTensor *)\n"
      "=========     by thread (5,0,0) in block (3,0,0)\n";
  EXPECT_EQ(faulting_kernel_from_sanitizer(new_style), "gemm_kernel(const DLTensor *)");
  EXPECT_EQ(faulting_kernel_from_sanitizer("nothing here"), "");
  EXPECT_NE(sanitizer_summary(old_style).find("Invalid __global__ write"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::eval
