// The driver lookup guard, linked into this test program the way ptxbench-worker links it
// (ptxbench_link_driver_guard), with a host-only fake candidate dlopen'd like a real one
// (RTLD_NOW | RTLD_LOCAL). Runs without a GPU or a driver: there the real lookups return
// an error code, and the tests check the guard returned exactly that (forwarded) instead of
// refusing. Refusals end the process, so they run in death tests (a forked child).
#include "eval/worker/driver_lookup_guard.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "compile/driver_allow_list.h"
#include "compile/elf_symbols.h"

namespace ptxbench::eval::worker {
namespace {

namespace fs = std::filesystem;

using FetchFn = int (*)(int, const char*, const char*, void**);
enum How { kRuntime = 0, kRuntimePtsz = 1, kDriver = 2 };

const std::vector<std::string> kGuarded = {"cudaGetDriverEntryPoint",
                                           "cudaGetDriverEntryPoint_ptsz",
                                           "cudaGetDriverEntryPointByVersion",
                                           "cudaGetDriverEntryPointByVersion_ptsz",
                                           "cuGetProcAddress",
                                           "cuGetProcAddress_v2"};

FetchFn load_fake() {
  void* h = ::dlopen(PTXBENCH_GUARD_FAKE_CANDIDATE, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(h, nullptr) << ::dlerror();
  return h ? reinterpret_cast<FetchFn>(::dlsym(h, "fake_fetch")) : nullptr;
}

// What libcudart's own cudaGetDriverEntryPointByVersion answers, reached through its handle
// (not through the global scope, where the guard comes first).
struct Answer {
  int status = -1;
  void* fn = nullptr;
};
Answer real_runtime_lookup(const char* name) {
  void* cudart = ::dlopen("libcudart.so.13", RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(cudart, nullptr);
  using Fn = cudaError_t (*)(const char*, void**, unsigned int, unsigned long long,
                             cudaDriverEntryPointQueryResult*);
  auto real = reinterpret_cast<Fn>(::dlsym(cudart, "cudaGetDriverEntryPointByVersion"));
  EXPECT_NE(real, nullptr);
  Answer a;
  cudaDriverEntryPointQueryResult q;
  if (real) a.status = real(name, &a.fn, 12000, cudaEnableDefault, &q);
  return a;
}

// What the driver's cuGetProcAddress_v2 answers; CUDA_ERROR_NOT_INITIALIZED (the guard's
// answer) on a machine without libcuda.so.1.
Answer real_driver_lookup(const char* name) {
  Answer a;
  a.status = CUDA_ERROR_NOT_INITIALIZED;
  void* cuda = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda) return a;
  using Fn = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
  auto real = reinterpret_cast<Fn>(::dlsym(cuda, "cuGetProcAddress_v2"));
  CUdriverProcAddressQueryResult s;
  if (real) a.status = real(name, &a.fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &s);
  return a;
}

Answer fetch(FetchFn f, How how, const char* prefix, const char* suffix) {
  Answer a;
  a.status = f(how, prefix, suffix, &a.fn);
  return a;
}

std::string refusal(const std::string& name) {
  return "^" + std::string(compile::kDriverRefusalPrefix) + name + "\n$";
}

TEST(DriverLookupGuard, DisarmedForwardsEveryName) {
  FetchFn f = load_fake();
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(driver_lookup_guard_armed());
  Answer got = fetch(f, kRuntime, "cu", "CtxSetLimit");
  Answer want = real_runtime_lookup("cuCtxSetLimit");
  EXPECT_EQ(got.status, want.status);
  EXPECT_EQ(got.fn, want.fn);
  EXPECT_EQ(fetch(f, kDriver, "cu", "StreamSetAttribute").status,
            real_driver_lookup("cuStreamSetAttribute").status);
}

TEST(DriverLookupGuard, ArmedRefusesAnAssembledNameWithOneLineAndTheSandboxStatus) {
  FetchFn f = load_fake();
  ASSERT_NE(f, nullptr);
  EXPECT_EXIT(
      {
        fetch(f, kRuntime, "cu", "CtxSetLimit");  // still disarmed: forwarded
        arm_driver_lookup_guard();
        fetch(f, kRuntime, "cu", "CtxSetLimit");
      },
      ::testing::ExitedWithCode(kDriverLookupRefusalExit), refusal("cuCtxSetLimit"));
  EXPECT_EXIT(
      {
        arm_driver_lookup_guard();
        fetch(f, kRuntimePtsz, "cu", "StreamSetAttribute");
      },
      ::testing::ExitedWithCode(87), refusal("cuStreamSetAttribute"));
  EXPECT_EXIT(
      {
        arm_driver_lookup_guard();
        fetch(f, kDriver, "cuGetProc", "Address");  // the lookup itself is not on the list
      },
      ::testing::ExitedWithCode(87), refusal("cuGetProcAddress"));
}

TEST(DriverLookupGuard, RefusalLineIsOnePrintableLineOfBoundedLength) {
  FetchFn f = load_fake();
  ASSERT_NE(f, nullptr);
  EXPECT_EXIT(
      {
        arm_driver_lookup_guard();
        fetch(f, kRuntime, "cuCtx\nptxbench: fine", "");
      },
      ::testing::ExitedWithCode(87), refusal("cuCtx\\?ptxbench:\\?fine"));
  std::string long_name(300, 'x');
  EXPECT_EXIT(
      {
        arm_driver_lookup_guard();
        fetch(f, kRuntime, "cuTensorMapEncodeTiled", long_name.c_str());
      },
      ::testing::ExitedWithCode(87), refusal("cuTensorMapEncodeTiled" + std::string(178, 'x')));
}

TEST(DriverLookupGuard, ArmedForwardsAllowedNamesAndReturnsTheRealAnswer) {
  FetchFn f = load_fake();
  ASSERT_NE(f, nullptr);
  // In a child, so that this process stays disarmed for the other tests.
  EXPECT_EXIT(
      {
        arm_driver_lookup_guard();
        bool same = true;
        for (std::string_view name : compile::allowed_driver_functions()) {
          std::string n(name);
          Answer got = fetch(f, kRuntime, n.substr(0, 2).c_str(), n.substr(2).c_str());
          Answer want = real_runtime_lookup(n.c_str());
          Answer got_ptsz = fetch(f, kRuntimePtsz, "", n.c_str());
          Answer got_driver = fetch(f, kDriver, "", n.c_str());
          Answer want_driver = real_driver_lookup(n.c_str());
          same = same && got.status == want.status && got.fn == want.fn &&
                 got_ptsz.status == want.status && got_driver.status == want_driver.status &&
                 got_driver.fn == want_driver.fn;
        }
        ::_exit(same && driver_lookup_guard_armed() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(DriverLookupGuard, WithoutADriverTheRuntimeLookupFailsButIsNotRefused) {
  if (::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) GTEST_SKIP() << "a driver is installed";
  FetchFn f = load_fake();
  ASSERT_NE(f, nullptr);
  EXPECT_EXIT(
      {
        arm_driver_lookup_guard();
        Answer a = fetch(f, kRuntime, "cuTensorMap", "EncodeTiled");
        ::_exit(a.status != cudaSuccess && a.fn == nullptr ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(DriverLookupGuard, WorkerExportsTheGuardedNamesAndNothingOfItsOwn) {
  auto symbols = compile::read_dynamic_symbols(PTXBENCH_WORKER);
  ASSERT_TRUE(symbols.ok()) << symbols.error().to_string();
  const auto& defined = symbols->defined;
  for (const auto& name : kGuarded)
    EXPECT_NE(std::find(defined.begin(), defined.end(), name), defined.end()) << name;
  // Not -rdynamic (thousands of names): besides the guard, only what the shared C++ and fmt
  // libraries bind to in the executable (template instances, copy-relocated objects).
  EXPECT_LT(defined.size(), 100u);
  for (const auto& name : defined) {
    bool guarded = std::find(kGuarded.begin(), kGuarded.end(), name) != kGuarded.end();
    EXPECT_TRUE(guarded || !name.starts_with("cu")) << name;
    EXPECT_FALSE(name.starts_with("_ZN8ptxbench")) << name;
    EXPECT_NE(name, "main");
  }
}

// The dynamic symbols of a (large) library, read through mmap: only the pages read load.
Result<compile::DynamicSymbols> mapped_symbols(const fs::path& lib) {
  int fd = ::open(lib.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error("cannot open " + lib.string());
  struct stat st {};
  void* p = ::fstat(fd, &st) == 0 ? ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ,
                                           MAP_PRIVATE, fd, 0)
                                  : MAP_FAILED;
  ::close(fd);
  if (p == MAP_FAILED) return make_error("cannot map " + lib.string());
  auto r = compile::parse_dynamic_symbols(
      std::string_view(static_cast<const char*>(p), static_cast<std::size_t>(st.st_size)));
  ::munmap(p, static_cast<std::size_t>(st.st_size));
  return r;
}

TEST(DriverLookupGuard, TrustedLibrariesNeverReachTheGuard) {
  // The CUDA runtime, cuBLASLt, cuDNN and CUPTI import none of the guarded names (static
  // runtimes, -Bsymbolic, dlsym on libcuda), so the armed guard cannot refuse their lookups.
  std::vector<fs::path> libs;
  for (const fs::path& dir :
       {fs::path(PTXBENCH_CUDA_LIBRARY_DIR), fs::path(PTXBENCH_CUDNN_LIBRARY_DIR)})
    for (const auto& e : fs::directory_iterator(dir)) {
      std::string n = e.path().filename().string();
      if (n == "libcudart.so.13" || n == "libcublasLt.so.13" || n == "libcupti.so.13" ||
          (n.starts_with("libcudnn") && n.ends_with(".so.9")))
        libs.push_back(e.path());
    }
  ASSERT_GE(libs.size(), 3u);
  for (const auto& lib : libs) {
    auto symbols = mapped_symbols(lib);
    ASSERT_TRUE(symbols.ok()) << symbols.error().to_string();
    EXPECT_FALSE(symbols->defined.empty()) << lib;  // the table was read
    for (const auto& name : symbols->undefined)
      for (const auto& guarded : kGuarded)
        EXPECT_NE(name.substr(0, name.find('@')), guarded) << lib;
  }
}

}  // namespace
}  // namespace ptxbench::eval::worker
