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

// The C++ standard library by family, whatever one host compiler names it (issue 16): vector
// copies, iostream (GCC 12 and GCC 13 spell its set-up differently), strings, exceptions.
TEST(AllowList, TheStandardLibraryIsAcceptedByFamilyNotByOneCompilersSpelling) {
  for (const char* s : {"_ZSt28__throw_bad_array_new_lengthv",  // copying a std::vector
                        "_ZSt21ios_base_library_initv",         // <iostream>, GCC 13
                        "_ZNSt9basic_iosIcSt11char_traitsIcEE5clearESt12_Ios_Iostate",  // GCC 12
                        "_ZNSolsEi", "_ZNKSt9exception4whatEv", "_ZTISt13runtime_error",
                        "_ZNSt13runtime_errorC1EPKc", "_ZNSt8ios_base4InitC1Ev", "_ZNSt6localeD1Ev",
                        "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7compareEPKc",
                        // std::ostringstream's VTT and its stringbuf's vtable (nested names).
                        "_ZTTNSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEEE",
                        "_ZTVNSt7__cxx1115basic_stringbufIcSt11char_traitsIcESaIcEEE"})
    EXPECT_TRUE(is_allowed_import(s)) << s;
  // ... but not the nested names of a harmful family.
  EXPECT_FALSE(is_allowed_import("_ZTVNSt7__cxx1113basic_filebufIcSt11char_traitsIcEEE"));
  // What reaches outside the call stays refused, with its reason.
  for (const char* s :
       {"_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE",
        "_ZNSt11this_thread11__sleep_forENSt6chrono8durationIlSt5ratioILl1ELl1EEEENS1_IlS2_"
        "ILl1ELl1000000000EEEE",
        "_ZNSt13basic_filebufIcSt11char_traitsIcEE4openEPKcSt13_Ios_Openmode",
        "_ZNSt10filesystem6removeERKNS_7__cxx114pathE", "pthread_create"})
    EXPECT_FALSE(is_allowed_import(s)) << s;
  EXPECT_NE(import_denial_reason("pthread_create").find("threads"), std::string::npos);
  EXPECT_NE(
      import_denial_reason(
          "_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE")
          .find("threads"),
      std::string::npos);
  EXPECT_NE(import_denial_reason("_ZNSt10filesystem6removeERKNS_7__cxx114pathE").find("files"),
            std::string::npos);
}

// Every refused host call says what to use instead (issue 16).
TEST(AllowList, DeviceStateAndDriverFunctionsGetTheirOwnReasons) {
  EXPECT_NE(import_denial_reason("cudaSetDevice").find("already current"), std::string::npos);
  EXPECT_TRUE(is_allowed_import("cuGetErrorString"));  // on the driver list: not denied
  EXPECT_NE(import_denial_reason("cuCtxSetLimit").find("may not use at all"), std::string::npos);
}

TEST(AllowList, EscapesAreRejected) {
  for (const char* s :
       {"cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaDeviceSynchronize",
        "cudaStreamSynchronize", "cudaMalloc", "cudaMemcpy", "cudaEventElapsedTime",
        "cudaEventSynchronize", "cublasGemmEx", "cuLaunchKernel", "cuCtxResetPersistingL2Cache",
        "dlopen", "dlsym", "fopen", "socket", "syscall", "system", "getenv",
        "_ZNSt14basic_ifstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode"})
    EXPECT_FALSE(is_allowed_import(s)) << s;
}

// The driver list's functions are called directly in both contracts: the host process's
// libcuda.so.1 is ptxbench's shim (docs/kernel-contract.md).
TEST(AllowList, AllowListedDriverFunctionsMayBeImported) {
  for (const char* s : {"cuTensorMapEncodeTiled", "cuGetErrorString", "cuDeviceGetAttribute"})
    EXPECT_TRUE(is_allowed_import(s)) << s;
  EXPECT_TRUE(check_symbols({"cuTensorMapEncodeTiled"}, {}).disallowed_imports.empty());
  // The same imports, versioned as the linker records them against libcuda.so.1, in both
  // contracts alike (issue 36 item 4b).
  for (Contract c : {Contract::native, Contract::tvm_ffi})
    EXPECT_TRUE(check_symbols({"cuTensorMapEncodeTiled@libcuda.so.1", "cuGetErrorString",
                               "cuFuncSetAttribute", "cuDeviceGetAttribute"},
                              {}, c)
                    .ok())
        << to_string(c);
  for (Contract c : {Contract::native, Contract::tvm_ffi})
    EXPECT_EQ(check_symbols({"cuLaunchKernel@libcuda.so.1"}, {}, c).disallowed_imports,
              std::vector<std::string>{"cuLaunchKernel"})
        << to_string(c);
}

// A banned binary library is refused for its calls, with the library named (issue 36 item 4a);
// its header alone imports nothing (policy.h).
TEST(AllowList, BannedLibraryCallsNameTheLibrary) {
  EXPECT_EQ(banned_library_of("cublasCreate_v2"), "cuBLAS");
  EXPECT_EQ(banned_library_of("cublasLtMatmul@libcublasLt.so.13"), "cuBLASLt");
  EXPECT_EQ(banned_library_of("cudnnCreate"), "cuDNN");
  EXPECT_EQ(banned_library_of("_ZN7cutlass4gemm6kernelEv"), "CUTLASS");
  EXPECT_EQ(banned_library_of("cudaLaunchKernel"), "");
  for (Contract c : {Contract::native, Contract::tvm_ffi}) {
    SymbolCheck check = check_symbols({"cublasCreate_v2", "cudaLaunchKernel"}, {}, c);
    ASSERT_EQ(check.disallowed_imports, std::vector<std::string>{"cublasCreate_v2"});
    ASSERT_EQ(check.reasons.size(), 1u);
    EXPECT_EQ(check.reasons[0].rfind("cublasCreate_v2: calls cuBLAS, a banned library", 0), 0u)
        << check.reasons[0];
    EXPECT_NE(check.reasons[0].find("header that nothing calls is fine"), std::string::npos);
  }
  EXPECT_NE(import_denial_reason("cudnnSetStream").find("calls cuDNN"), std::string::npos);
}

TEST(AllowList, ReasonsSayWhatToDo) {
  EXPECT_NE(import_denial_reason("cudaStreamCreate").find("side stream"), std::string::npos);
  EXPECT_NE(import_denial_reason("cudaDeviceSynchronize@libcudart.so.13").find("synchronises"),
            std::string::npos);
  EXPECT_NE(import_denial_reason("cudaMalloc").find("destination-passing"), std::string::npos);
  EXPECT_NE(import_denial_reason("cuLaunchKernel").find("tensor-map encoding"), std::string::npos);
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
