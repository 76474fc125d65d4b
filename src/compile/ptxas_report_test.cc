#include "compile/ptxas_report.h"

#include <gtest/gtest.h>

namespace ptxbench::compile {
namespace {

// Real `nvcc -Xptxas -v` output (CUDA 13.0) of a kernel calling a non-inlined device
// function, a kernel with spills, and one whose setmaxnreg ptxas ignored.
constexpr const char* kLog =
    R"(ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register count at entry.
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z1gPfi' for 'sm_90a'
ptxas info    : Function properties for _Z1gPfi
    256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size
ptxas info    : Compile time = 17.115 ms
ptxas info    : Function properties for _Z1fPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z5spillPf' for 'sm_90a'
ptxas info    : Function properties for _Z5spillPf
    32 bytes stack frame, 32 bytes spill stores, 24 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 16392 bytes smem, 400 bytes cmem[0]
ptxas info    : Compile time = 90.479 ms
ptxas info    : (C7520) Potential Performance Loss: wgmma.mma_async instructions are serialized due to insufficient register resources for the wgmma pipeline in the function '_Z5spillPf'
ptxas warning : Registers are spilled to local memory in function '_Z5spillPf', 32 bytes spill stores, 24 bytes spill loads
)";

TEST(PtxasReport, ResourcesPerFunction) {
  PtxasReport r = parse_ptxas_report(kLog);
  ASSERT_EQ(r.functions.size(), 3u);
  const KernelResources& g = r.functions[0];
  EXPECT_EQ(g.name, "_Z1gPfi");
  EXPECT_EQ(g.demangled, "g(float*, int)");
  EXPECT_TRUE(g.entry);
  EXPECT_EQ(g.arch, "sm_90a");
  EXPECT_EQ(g.registers, 40);
  EXPECT_EQ(g.barriers, 0);
  EXPECT_EQ(g.stack_frame_bytes, 256);
  EXPECT_EQ(g.cumulative_stack_bytes, 256);
  const KernelResources& f = r.functions[1];
  EXPECT_EQ(f.name, "_Z1fPfi");
  EXPECT_FALSE(f.entry);
  EXPECT_EQ(f.registers, -1);
  const KernelResources& s = r.functions[2];
  EXPECT_EQ(s.registers, 255);
  EXPECT_EQ(s.barriers, 1);
  EXPECT_EQ(s.shared_bytes, 16392);
  EXPECT_EQ(s.constant_bytes, 400);
  EXPECT_EQ(s.spill_store_bytes, 32);
  EXPECT_EQ(s.spill_load_bytes, 24);
}

TEST(PtxasReport, WarningsWithCodesAndFunctions) {
  PtxasReport r = parse_ptxas_report(kLog);
  ASSERT_EQ(r.warnings.size(), 3u);
  EXPECT_EQ(r.warnings[0].code, "C7508");
  EXPECT_TRUE(r.warnings[0].function.empty());
  EXPECT_EQ(r.warnings[0].text.rfind("(C7508) Potential Performance Loss: 'setmaxnreg' ignored", 0),
            0u);
  EXPECT_EQ(r.warnings[1].code, "C7520");
  EXPECT_EQ(r.warnings[1].function, "_Z5spillPf");
  EXPECT_TRUE(r.warnings[2].code.empty());
  EXPECT_EQ(r.warnings[2].function, "_Z5spillPf");
}

TEST(PtxasReport, EmptyAndNonPtxasLogs) {
  EXPECT_TRUE(parse_ptxas_report("").functions.empty());
  PtxasReport r = parse_ptxas_report("kernel.cu(3): error: identifier \"x\" is undefined\n");
  EXPECT_TRUE(r.functions.empty());
  EXPECT_TRUE(r.warnings.empty());
}

}  // namespace
}  // namespace ptxbench::compile
