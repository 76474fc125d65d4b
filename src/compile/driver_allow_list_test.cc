#include "compile/driver_allow_list.h"

#include <gtest/gtest.h>

#include "compile/policy.h"

namespace ptxbench::compile {
namespace {

TEST(DriverAllowList, TensorMapEncodingAndQueriesOnly) {
  for (std::string_view ok :
       {"cuTensorMapEncodeTiled", "cuTensorMapEncodeIm2col", "cuTensorMapEncodeIm2colWide",
        "cuTensorMapReplaceAddress", "cuGetErrorString", "cuDeviceGetAttribute", "cuCtxGetDevice"})
    EXPECT_TRUE(driver_function_allowed(ok)) << ok;
  // State of the device, context or stream; loaders; the lookup functions themselves.
  for (std::string_view no :
       {"cuCtxSetLimit", "cuStreamSetAttribute", "cuCtxSetCacheConfig", "cuMemAlloc",
        "cuStreamCreate", "cuLaunchKernel", "cuModuleLoad", "cuGetProcAddress",
        "cuGetProcAddress_v2", "cuDeviceSetMemPool", "cuCtxSynchronize"})
    EXPECT_FALSE(driver_function_allowed(no)) << no;
}

TEST(DriverAllowList, MatchIsExact) {
  EXPECT_FALSE(driver_function_allowed(""));
  EXPECT_FALSE(driver_function_allowed("cuTensorMapEncodeTiled_v2"));
  EXPECT_FALSE(driver_function_allowed("cutensormapencodetiled"));
  EXPECT_FALSE(driver_function_allowed("cuTensorMapEncodeTile"));
  EXPECT_FALSE(driver_function_allowed(std::string_view("cuTensorMapEncodeTiled\0x", 24)));
}

TEST(DriverAllowList, AdviceNamesEveryAllowedFunction) {
  std::string advice = driver_function_advice();
  for (std::string_view name : allowed_driver_functions())
    EXPECT_NE(advice.find(std::string(name)), std::string::npos) << name;
  EXPECT_NE(advice.find("stream state belong to the harness"), std::string::npos);
}

TEST(DriverAllowList, SourcePolicyUsesTheSameList) {
  for (std::string_view name : allowed_driver_functions()) {
    std::string src = "cudaGetDriverEntryPointByVersion(\"" + std::string(name) +
                      "\", &f, 12000, cudaEnableDefault, &q);\n";
    EXPECT_TRUE(check_source_policy(src).empty()) << name;
  }
  auto v = check_source_policy("cudaGetDriverEntryPoint(\"cuCtxSetLimit\", &f, 0);\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message, driver_function_advice());
}

TEST(DriverAllowList, RefusalLineIsParsedBack) {
  EXPECT_EQ(refused_driver_function(
                "some output\nptxbench-sandbox: refused driver function cuCtxSetLimit\n"),
            "cuCtxSetLimit");
  EXPECT_EQ(refused_driver_function("ptxbench-sandbox: refused driver function cuX"), "cuX");
  EXPECT_EQ(refused_driver_function("x ptxbench-sandbox: refused driver function cuA\n"
                                    "ptxbench-sandbox: refused driver function cuB\n"
                                    "ptxbench-sandbox: refused driver function cuC\n"),
            "cuC");  // the last line: the shim writes it right before it exits
  EXPECT_EQ(refused_driver_function("loading\n"), "");
  // Only at the start of a line (a candidate printing the phrase mid-line is not a refusal).
  EXPECT_EQ(refused_driver_function("x ptxbench-sandbox: refused driver function cuY\n"), "");
  std::string msg = driver_refusal_message("cuStreamSetAttribute");
  EXPECT_NE(msg.find("`cuStreamSetAttribute`"), std::string::npos);
  EXPECT_NE(msg.find("cuTensorMapEncodeTiled"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::compile
