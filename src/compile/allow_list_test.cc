#include "compile/allow_list.h"

#include <gtest/gtest.h>

namespace ptxbench::compile {
namespace {

TEST(AllowList, RuntimeCallsAKernelNeeds) {
  for (const char* s : {"cudaLaunchKernel",
                        "cudaLaunchKernelExC@libcudart.so.13",
                        "cudaLaunchKernel_ptsz",
                        "__cudaRegisterFatBinary",
                        "__cudaRegisterFatBinaryEnd",
                        "__cudaRegisterFunction",
                        "__cudaPushCallConfiguration",
                        "__cudaPopCallConfiguration",
                        "__cudaGetKernel",
                        "__cudaLaunchKernel",
                        "__cudaUnregisterFatBinary",
                        "cudaFuncSetAttribute",
                        "cudaGetDriverEntryPointByVersion",
                        "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                        "cudaStreamGetDevice",
                        "cudaEventRecord",
                        "cudaStreamWaitEvent",
                        "cudaMemsetAsync",
                        "cudaMallocAsync",
                        "cudaGetDeviceProperties_v2",
                        "memcpy",
                        "_Znwm",
                        "_ZdlPvm",
                        "__cxa_guard_acquire",
                        "_Unwind_Resume",
                        "__gxx_personality_v0",
                        "printf",
                        "expf",
                        "__stack_chk_fail",
                        "exit",
                        "_ZSt20__throw_length_errorPKc"})
    EXPECT_TRUE(is_allowed_import(s)) << s;
}

TEST(AllowList, EscapesAreRejected) {
  for (const char* s :
       {"cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaDeviceSynchronize",
        "cudaStreamSynchronize", "cudaMalloc", "cudaMemcpy", "cudaEventElapsedTime",
        "cudaEventSynchronize", "cublasGemmEx", "cuTensorMapEncodeTiled", "cuLaunchKernel",
        "dlopen", "dlsym", "fopen", "socket", "syscall", "system", "getenv",
        "_ZNSt14basic_ifstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode"})
    EXPECT_FALSE(is_allowed_import(s)) << s;
}

TEST(AllowList, ReasonsSayWhatToDo) {
  EXPECT_NE(import_denial_reason("cudaStreamCreate").find("side stream"), std::string::npos);
  EXPECT_NE(import_denial_reason("cudaDeviceSynchronize@libcudart.so.13").find("synchronises"),
            std::string::npos);
  EXPECT_NE(import_denial_reason("cudaMalloc").find("destination-passing"), std::string::npos);
  EXPECT_NE(import_denial_reason("cuTensorMapEncodeTiled").find("cudaGetDriverEntryPointByVersion"),
            std::string::npos);
  EXPECT_EQ(import_denial_reason("cudaMalloc").rfind("cudaMalloc: ", 0), 0u);
}

TEST(AllowList, InterposingExportsAreRejected) {
  EXPECT_FALSE(is_forbidden_export("ptxbench_launch"));
  EXPECT_FALSE(is_forbidden_export("_Z9my_kernelPf"));
  EXPECT_TRUE(is_forbidden_export("cudaEventElapsedTime"));
  EXPECT_TRUE(is_forbidden_export("cuLaunchKernel"));
  EXPECT_TRUE(is_forbidden_export("clock_gettime"));
  EXPECT_TRUE(is_forbidden_export("_ZN8ptxbench4eval5timerEv"));
}

TEST(AllowList, CheckSymbolsCollectsAndExplains) {
  SymbolCheck c =
      check_symbols({"cudaLaunchKernel@libcudart.so.13", "cudaStreamCreate@libcudart.so.13",
                     "cudaDeviceSynchronize", "cudaStreamCreate"},
                    {"ptxbench_launch", "cudaEventRecord"});
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.disallowed_imports,
            (std::vector<std::string>{"cudaDeviceSynchronize", "cudaStreamCreate"}));
  EXPECT_EQ(c.forbidden_exports, std::vector<std::string>{"cudaEventRecord"});
  EXPECT_EQ(c.reasons.size(), 3u);
  EXPECT_TRUE(check_symbols({"cudaLaunchKernel", "memset"}, {"ptxbench_launch"}).ok());
}

}  // namespace
}  // namespace ptxbench::compile
