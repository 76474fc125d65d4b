// The built shims, loaded into this process (nothing attached: no message is sent): every
// driver function of the allow-list resolves through the runtime shim's lookup and is
// exported by the driver shim, and the runtime shim exports the names nvcc's generated code
// imports under the runtime's version node.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "compile/driver_allow_list.h"

namespace ptxbench::eval::host {
namespace {

void* load(const char* file) {
  void* h = ::dlopen(file, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(h, nullptr) << ::dlerror();
  return h;
}

TEST(ShimExports, EveryAllowedDriverFunctionResolves) {
  void* runtime = load(PTXBENCH_HOST_SHIM_DIR "/libcudart.so.13");
  void* driver = load(PTXBENCH_HOST_SHIM_DIR "/libcuda.so.1");
  ASSERT_TRUE(runtime && driver);
  using Lookup = cudaError_t (*)(const char*, void**, unsigned, unsigned long long,
                                 cudaDriverEntryPointQueryResult*);
  auto lookup = reinterpret_cast<Lookup>(::dlsym(runtime, "cudaGetDriverEntryPointByVersion"));
  ASSERT_NE(lookup, nullptr);
  for (std::string_view name : compile::allowed_driver_functions()) {
    const std::string n(name);
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    EXPECT_EQ(lookup(n.c_str(), &fn, 13000, cudaEnableDefault, &found), cudaSuccess) << n;
    EXPECT_NE(fn, nullptr) << n;
    EXPECT_EQ(found, cudaDriverEntryPointSuccess) << n;
    EXPECT_NE(::dlsym(driver, n.c_str()), nullptr) << "libcuda.so.1 lacks " << n;
  }
}

TEST(ShimExports, TheRuntimeNamesNvccImportsUnderTheRuntimesVersion) {
  void* runtime = load(PTXBENCH_HOST_SHIM_DIR "/libcudart.so.13");
  ASSERT_NE(runtime, nullptr);
  for (const char* name :
       {"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
        "__cudaRegisterFunction", "__cudaRegisterVar", "__cudaPushCallConfiguration",
        "__cudaPopCallConfiguration", "__cudaGetKernel", "__cudaLaunchKernel",
        "__cudaLaunchKernel_ptsz", "cudaLaunchKernel", "cudaLaunchKernelExC",
        "cudaMemcpyAsync_ptsz", "cudaGetDriverEntryPoint"})
    EXPECT_NE(::dlvsym(runtime, name, "libcudart.so.13"), nullptr) << name;
  EXPECT_NE(::dlvsym(runtime, "ptxbench_host_shim_control", "PTXBENCH_HOST"), nullptr);
  EXPECT_EQ(::dlsym(runtime, "cuTensorMapEncodeTiled"), nullptr);  // the driver shim's
}

}  // namespace
}  // namespace ptxbench::eval::host
