#include "compile/resource_usage.h"

#include <gtest/gtest.h>

namespace ptxbench::compile {
namespace {

// `cuobjdump --dump-resource-usage` (CUDA 13.0) of a kernel that spills, beside the PTX entry.
constexpr const char* kUsage = R"(
Fatbin elf code:
================
arch = sm_90a
code version = [1,8]
host = linux
compile_size = 64bit

Resource usage:
 Common:
  GLOBAL:0
 Function _Z5spillPfi:
  REG:24 STACK:704 SHARED:0 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _Z1fPfi:
  REG:10 STACK:0 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0

Fatbin ptx code:
================
arch = sm_90a
)";

TEST(ResourceUsage, ParsesEveryFunctionOfTheBuiltCode) {
  const ResourceUsage u = parse_resource_usage(kUsage);
  ASSERT_EQ(u.size(), 2u);
  const BuiltResources& s = u.at("_Z5spillPfi");
  EXPECT_EQ(s.registers, 24);
  EXPECT_EQ(s.stack_bytes, 704);
  EXPECT_EQ(s.constant_bytes, 540);
  EXPECT_EQ(u.at("_Z1fPfi").constant_bytes, 0);
  EXPECT_TRUE(parse_resource_usage("nothing\n").empty());
}

// ptxas's own block for the kernel, a forged block for it (a #pragma message printed after
// ptxas: the same registers, no spills, a smaller frame) and a block for a kernel that does not
// exist (words2/ptxas_report_forged_by_pragma.cu).
constexpr const char* kLogWithForgery =
    R"(ptxas info    : Compiling entry function '_Z5spillPfi' for 'sm_90a'
ptxas info    : Function properties for _Z5spillPfi
    704 bytes stack frame, 488 bytes spill stores, 676 bytes spill loads
ptxas info    : Used 24 registers, used 0 barriers, 704 bytes cumulative stack size
ptxas info    : Function properties for _Z1fPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
kernel.cu:1:9: note: '#pragma message: ptxas info    : Compiling entry function '_Z5spillPfi' for 'sm_90a'
ptxas info    : Function properties for _Z5spillPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 24 registers, used 0 barriers
ptxas info    : Compiling entry function '_Z14wgmma_tma_gemmv' for 'sm_90a'
ptxas info    : Used 168 registers, used 1 barriers'
)";

TEST(ResourceUsage, OnlyTheLogsBlocksThatAgreeWithTheBuiltCodeCount) {
  const auto reported = parse_ptxas_report(kLogWithForgery).functions;
  EXPECT_EQ(reported.size(), 4u);  // every block, the forged ones too
  const auto r = reconcile_resources(reported, parse_resource_usage(kUsage));
  ASSERT_EQ(r.size(), 2u);  // the built code's functions only: no _Z14wgmma_tma_gemmv
  const KernelResources& f = r[0];
  EXPECT_EQ(f.name, "_Z1fPfi");
  EXPECT_FALSE(f.entry);
  EXPECT_EQ(f.registers, 10);  // from the code (the log gives none for a device function)
  EXPECT_EQ(f.spill_store_bytes, 0);
  const KernelResources& s = r[1];
  EXPECT_EQ(s.name, "_Z5spillPfi");
  EXPECT_TRUE(s.entry);
  EXPECT_EQ(s.stack_frame_bytes, 704);
  EXPECT_EQ(s.spill_store_bytes, 488);  // the forged block's frame (0) disagrees with the code
  EXPECT_EQ(s.spill_load_bytes, 676);
}

TEST(ResourceUsage, AgreeingBlocksThatDifferLeaveTheSpillsUnknown) {
  std::string log = kLogWithForgery;
  // A forgery with the code's own registers and frame, but no spills: two agreeing blocks differ.
  log +=
      "ptxas info    : Function properties for _Z5spillPfi\n"
      "    704 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
  const auto r =
      reconcile_resources(parse_ptxas_report(log).functions, parse_resource_usage(kUsage));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].spill_store_bytes, -1);
  EXPECT_EQ(r[1].spill_load_bytes, -1);
  EXPECT_EQ(r[1].barriers, -1);
  EXPECT_TRUE(r[1].entry);  // constant bank 0 holds its parameters
  EXPECT_EQ(r[1].registers, 24);
}

}  // namespace
}  // namespace ptxbench::compile
