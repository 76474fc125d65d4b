#include "compile/tvm_ffi_allow_list.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "compile/allow_list.h"

namespace ptxbench::compile {
namespace {

// What a naive TVM-FFI GEMM built by nvcc imports (kernels/examples/tvm_ffi/gemm.cu), beyond
// what the native contract accepts anyway.
const std::vector<std::string> kExampleImports = {
    "TVMFFIBacktrace",
    "TVMFFIEnvGetStream",
    "TVMFFIErrorSetRaised",
    "TVMFFIGetTypeInfo",
    "_ZN3tvm3ffi6detail15LogFatalHandlerEv",
    "_ZTVN3tvm3ffi6detail11ErrorObjectE",
    "__cudaLaunchKernel@libcudart.so.13",
    "_ZNSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEEC1Ev@GLIBCXX_3.4.26",
    "cudaSetDevice@libcudart.so.13",
    "cudaStreamSynchronize@libcudart.so.13",
    "cuTensorMapEncodeTiled",
    "cuGetErrorString",
};

TEST(TvmFfiAllowList, TheRuntimeAndTheReferenceHarnessCallsPass) {
  SymbolCheck c = check_symbols(kExampleImports, {"__tvm_ffi_run"}, Contract::tvm_ffi);
  EXPECT_TRUE(c.ok()) << (c.reasons.empty() ? "" : c.reasons.front());
}

// The TVM-FFI runtime and the host calls the reference harness tolerates stay the TVM-FFI
// contract's; the driver list's functions are called directly in both contracts.
TEST(TvmFfiAllowList, TheNativeContractStillRefusesThem) {
  SymbolCheck c = check_symbols(kExampleImports, {"__tvm_ffi_run"}, Contract::native);
  auto refused = [&](const char* s) {
    return std::find(c.disallowed_imports.begin(), c.disallowed_imports.end(), s) !=
           c.disallowed_imports.end();
  };
  for (const char* s : {"TVMFFIEnvGetStream", "cudaSetDevice", "cudaStreamSynchronize"})
    EXPECT_TRUE(refused(s)) << s;
  EXPECT_FALSE(refused("cuTensorMapEncodeTiled"));
}

TEST(TvmFfiAllowList, HarmfulRuntimeEntriesAreRefusedWithTheirReason) {
  struct Case {
    const char* symbol;
    const char* says;
  };
  for (const Case& k : {
           Case{"TVMFFIFunctionGetGlobal", "global function registry"},
           Case{"TVMFFIFunctionSetGlobal", "global function registry"},
           Case{"TVMFFIEnvModLookupFromImports", "global function registry"},
           Case{"TVMFFIEnvRegisterCAPI", "global function registry"},
           Case{"_ZN3tvm3ffi6Module12LoadFromFileERKNS0_6StringE", "loads a module"},
           Case{"_ZN3tvm3ffi9ModuleObj11GetFunctionERKNS0_6StringEb", "loads a module"},
           Case{"TVMFFIEnvSetStream", "belongs to the harness"},
           Case{"TVMFFIEnvTensorAlloc", "destination-passing"},
           Case{"TVMFFISetCustomAllocator", "destination-passing"},
       }) {
    SymbolCheck c = check_symbols({k.symbol}, {"__tvm_ffi_run"}, Contract::tvm_ffi);
    ASSERT_EQ(c.disallowed_imports.size(), 1u) << k.symbol;
    ASSERT_EQ(c.reasons.size(), 1u);
    EXPECT_NE(c.reasons[0].find(k.says), std::string::npos) << c.reasons[0];
    EXPECT_EQ(c.reasons[0].rfind(k.symbol, 0), 0u) << c.reasons[0];
  }
}

TEST(TvmFfiAllowList, EverythingElseFollowsTheNativeRules) {
  for (const char* s : {"cudaDeviceSynchronize", "cudaStreamCreate", "cudaMalloc", "dlopen",
                        "pthread_create", "cuCtxSetCurrent", "cuModuleLoadData", "fopen"}) {
    EXPECT_FALSE(tvm_ffi_import_verdict(s).has_value()) << s;
    SymbolCheck c = check_symbols({s}, {}, Contract::tvm_ffi);
    ASSERT_EQ(c.reasons.size(), 1u) << s;
    EXPECT_EQ(c.reasons[0], import_denial_reason(s));
  }
}

TEST(TvmFfiAllowList, ExportingTheRuntimesNamesIsRefused) {
  SymbolCheck c = check_symbols({}, {"__tvm_ffi_run", "TVMFFIEnvGetStream"}, Contract::tvm_ffi);
  ASSERT_EQ(c.forbidden_exports, std::vector<std::string>{"TVMFFIEnvGetStream"});
  EXPECT_NE(c.reasons[0].find("TVM-FFI runtime"), std::string::npos);
  // Other exports of the macro's prefix are harmless (a second exported function).
  EXPECT_TRUE(check_symbols({}, {"__tvm_ffi_run", "__tvm_ffi_helper"}, Contract::tvm_ffi).ok());
  EXPECT_TRUE(check_symbols({}, {"TVMFFIEnvGetStream"}, Contract::native).ok());
}

}  // namespace
}  // namespace ptxbench::compile
