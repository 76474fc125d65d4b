// The tvm-ffi calling convention without a GPU: the packing of the tensors, the environment
// stream a candidate reads, the errors it raises, through apache-tvm-ffi's real runtime and a
// stand-in candidate built with its headers (fake_tvm_ffi_candidate.cc).
#include "eval/host/tvm_ffi_call.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <array>

#include "eval/host/candidate.h"

namespace ptxbench::eval::host {
namespace {

// Tensors as the runner describes them: on (kDLCUDA, 0), each with its own first extent.
struct Tensors {
  explicit Tensors(int n) : store(static_cast<std::size_t>(n)), shapes(store.size()) {
    for (std::size_t i = 0; i < store.size(); ++i) {
      shapes[i] = {static_cast<std::int64_t>(10 + i), 4};
      store[i].data = reinterpret_cast<void*>(0x10000 * (i + 1));
      store[i].device = DLDevice{kDLCUDA, 0};
      store[i].ndim = 2;
      store[i].dtype = DLDataType{kDLBfloat, 16, 1};
      store[i].shape = shapes[i].data();
      ptrs.push_back(&store[i]);
    }
  }
  std::vector<DLTensor> store;
  std::vector<std::array<std::int64_t, 2>> shapes;
  std::vector<DLTensor*> ptrs;
};

// The stand-in's records (read after CandidateLibrary::open loaded it).
template <class T>
T* recorded(const char* name) {
  void* h = ::dlopen(PTXBENCH_FAKE_TVM_FFI_CANDIDATE, RTLD_NOW | RTLD_NOLOAD);
  return h ? static_cast<T*>(::dlsym(h, name)) : nullptr;
}

CandidateCall tvm_ffi(std::string symbol = {}) {
  return {Contract::tvm_ffi, PTXBENCH_TVM_FFI_LIBRARY, std::move(symbol)};
}

TEST(TvmFfiCall, PacksEachTensorAsADLTensorPointer) {
  Tensors t(3);
  std::vector<TVMFFIAny> args = pack_tensor_args(t.ptrs);
  ASSERT_EQ(args.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(args[i].type_index, kTVMFFIDLTensorPtr);
    EXPECT_EQ(args[i].zero_padding, 0u);
    EXPECT_EQ(args[i].v_ptr, t.ptrs[i]);
  }
  EXPECT_TRUE(pack_tensor_args({}).empty());
}

TEST(TvmFfiCall, ARawFunctionGetsThePackedTensorsInOrder) {
  auto lib = CandidateLibrary::open(PTXBENCH_FAKE_TVM_FFI_CANDIDATE, tvm_ffi("__tvm_ffi_raw"));
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  EXPECT_EQ(lib->contract(), Contract::tvm_ffi);
  Tensors t(5);
  lib->launch(t.ptrs, reinterpret_cast<void*>(0x5));
  ASSERT_EQ(*recorded<int>("ptxbench_tvm_raw_count"), 5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(recorded<std::int32_t>("ptxbench_tvm_raw_type")[i], kTVMFFIDLTensorPtr);
    EXPECT_EQ(recorded<void*>("ptxbench_tvm_raw_ptr")[i], t.ptrs[static_cast<std::size_t>(i)]);
  }
}

TEST(TvmFfiCall, TheTypedRunSeesTheTensorsAndTheHarnessStream) {
  auto lib = CandidateLibrary::open(PTXBENCH_FAKE_TVM_FFI_CANDIDATE, tvm_ffi());
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  int* calls = recorded<int>("ptxbench_tvm_calls");
  ASSERT_NE(calls, nullptr);
  for (std::uintptr_t stream : {0x1234u, 0x5678u}) {  // set before every call
    Tensors t(3);
    const int before = *calls;
    lib->launch(t.ptrs, reinterpret_cast<void*>(stream));
    EXPECT_EQ(*calls, before + 1);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(recorded<void*>("ptxbench_tvm_data")[i], t.store[static_cast<std::size_t>(i)].data);
      EXPECT_EQ(recorded<std::int64_t>("ptxbench_tvm_extent")[i], 10 + i);
    }
    EXPECT_EQ(*recorded<void*>("ptxbench_tvm_stream"), reinterpret_cast<void*>(stream));
  }
}

TEST(TvmFfiCall, NineTensors) {
  auto lib = CandidateLibrary::open(PTXBENCH_FAKE_TVM_FFI_CANDIDATE, tvm_ffi("__tvm_ffi_run9"));
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  Tensors t(9);
  lib->launch(t.ptrs, reinterpret_cast<void*>(0x99));
  for (int i = 0; i < 9; ++i) EXPECT_EQ(recorded<std::int64_t>("ptxbench_tvm_extent")[i], 10 + i);
  EXPECT_EQ(*recorded<void*>("ptxbench_tvm_stream"), reinterpret_cast<void*>(0x99));
}

TEST(TvmFfiCall, ARaisedErrorBecomesTheCandidatesError) {
  auto lib = CandidateLibrary::open(PTXBENCH_FAKE_TVM_FFI_CANDIDATE, tvm_ffi());
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  Tensors t(3);
  t.store[1].ndim = 0;
  try {
    lib->launch(t.ptrs, nullptr);
    FAIL() << "no error";
  } catch (const CandidateCallFailed& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the candidate's run failed: ValueError: tensor 1 has rank 0"),
              std::string::npos)
        << what;
  }
  // The next call starts clean: nothing left raised.
  Tensors ok(3);
  lib->launch(ok.ptrs, nullptr);
}

TEST(TvmFfiCall, TheWrongNumberOfTensorsIsTheCandidatesError) {
  auto lib = CandidateLibrary::open(PTXBENCH_FAKE_TVM_FFI_CANDIDATE, tvm_ffi());
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  Tensors t(2);
  EXPECT_THROW(lib->launch(t.ptrs, nullptr), CandidateCallFailed);
}

TEST(TvmFfiCall, LoadErrorsSayWhatIsMissing) {
  auto no_runtime = CandidateLibrary::open(
      PTXBENCH_FAKE_TVM_FFI_CANDIDATE, CandidateCall{Contract::tvm_ffi, "/nonexistent/x.so", {}});
  ASSERT_FALSE(no_runtime.ok());
  EXPECT_NE(no_runtime.error().message.find("cannot load the TVM-FFI runtime"), std::string::npos);
  auto no_run = CandidateLibrary::open(PTXBENCH_FAKE_CANDIDATE, tvm_ffi());
  ASSERT_FALSE(no_run.ok());
  EXPECT_NE(no_run.error().message.find("does not export `__tvm_ffi_run`"), std::string::npos);
  EXPECT_NE(no_run.error().hint.find("TVM_FFI_DLL_EXPORT_TYPED_FUNC"), std::string::npos);
}

TEST(TvmFfiCall, TheRuntimeKeepsTheStreamPerDevice) {
  auto rt = TvmFfiRuntime::load(PTXBENCH_TVM_FFI_LIBRARY);
  ASSERT_TRUE(rt.ok()) << rt.error().to_string();
  ASSERT_TRUE(rt->set_stream(kDLCUDA, 0, reinterpret_cast<void*>(0xA)).ok());
  ASSERT_TRUE(rt->set_stream(kDLCUDA, 1, reinterpret_cast<void*>(0xB)).ok());
  EXPECT_EQ(rt->stream(kDLCUDA, 0), reinterpret_cast<void*>(0xA));
  EXPECT_EQ(rt->stream(kDLCUDA, 1), reinterpret_cast<void*>(0xB));
  EXPECT_EQ(rt->take_error(), "");
}

}  // namespace
}  // namespace ptxbench::eval::host
