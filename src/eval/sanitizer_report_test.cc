#include "eval/sanitizer_report.h"

#include <gtest/gtest.h>

namespace ptxbench::eval {
namespace {

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
