// CandidateLibrary without a GPU: loading errors, and the arity-generic call passing
// every tensor pointer and the stream in order (a fake candidate .so records them).
#include "eval/host/candidate.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

namespace ptxbench::eval::host {
namespace {

struct Recorder {
  void* handle = ::dlopen(PTXBENCH_FAKE_CANDIDATE, RTLD_NOW | RTLD_LOCAL);
  void** recorded() const { return static_cast<void**>(::dlsym(handle, "ptxbench_test_recorded")); }
  int calls() const { return *static_cast<int*>(::dlsym(handle, "ptxbench_test_calls")); }
};

std::vector<DLTensor*> fake_tensors(std::vector<DLTensor>& store, int n) {
  store.resize(static_cast<std::size_t>(n));
  std::vector<DLTensor*> out;
  for (auto& t : store) out.push_back(&t);
  return out;
}

TEST(CandidateLibrary, LoadErrorsSayWhatToDo) {
  auto missing = CandidateLibrary::open("/nonexistent/k.so");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot load"), std::string::npos);
  auto nosym = CandidateLibrary::open(PTXBENCH_FAKE_CANDIDATE, "no_such_entry");
  ASSERT_FALSE(nosym.ok());
  EXPECT_NE(nosym.error().message.find("does not export"), std::string::npos);
}

TEST(CandidateLibrary, PassesTensorsThenStream) {
  Recorder rec;
  ASSERT_NE(rec.handle, nullptr);
  auto lib = CandidateLibrary::open(PTXBENCH_FAKE_CANDIDATE);
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  std::vector<DLTensor> store;
  auto args = fake_tensors(store, 3);
  auto stream = reinterpret_cast<void*>(0x1234);
  int before = rec.calls();
  lib->launch(args, stream);
  EXPECT_EQ(rec.calls(), before + 1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rec.recorded()[i], args[static_cast<std::size_t>(i)]);
  EXPECT_EQ(rec.recorded()[3], reinterpret_cast<void*>(stream));
}

TEST(CandidateLibrary, TenArgumentEntryPoint) {
  Recorder rec;
  auto lib = CandidateLibrary::open(PTXBENCH_FAKE_CANDIDATE, "ptxbench_launch10");
  ASSERT_TRUE(lib.ok());
  std::vector<DLTensor> store;
  auto args = fake_tensors(store, 9);  // attention backward: 6 inputs, 3 outputs
  lib->launch(args, reinterpret_cast<void*>(0x99));
  for (int i = 0; i < 9; ++i) EXPECT_EQ(rec.recorded()[i], args[static_cast<std::size_t>(i)]);
  EXPECT_EQ(rec.recorded()[9], reinterpret_cast<void*>(0x99));
}

}  // namespace
}  // namespace ptxbench::eval::host
