// The DT_NEEDED list of a real candidate (an nvcc fixture) and of the shims, what the
// loader already has, and malformed input.
#include "eval/host/needed_libraries.h"

#include <gtest/gtest.h>

#include "core/fs.h"

namespace ptxbench::eval::host {
namespace {

TEST(NeededLibraries, ACandidateNeedsTheRuntimeAndTheCppLibraries) {
  auto bytes = read_file(PTXBENCH_HOST_FIXTURE_DIR "/tensor_map.so");
  ASSERT_TRUE(bytes.ok());
  auto needed = needed_libraries(*bytes);
  ASSERT_TRUE(needed.ok()) << needed.error().message;
  for (const char* name : {"libcuda.so.1", "libcudart.so.13", "libstdc++.so.6", "libc.so.6"})
    EXPECT_NE(std::find(needed->begin(), needed->end(), name), needed->end()) << name;
}

TEST(NeededLibraries, TheDriverShimNeedsTheRuntimeShim) {
  auto bytes = read_file(PTXBENCH_HOST_SHIM_DIR "/libcuda.so.1");
  ASSERT_TRUE(bytes.ok());
  auto needed = needed_libraries(*bytes);
  ASSERT_TRUE(needed.ok()) << needed.error().message;
  ASSERT_FALSE(needed->empty());
  EXPECT_EQ(needed->front(), "libcudart.so.13");
}

TEST(NeededLibraries, MalformedFilesAreErrors) {
  EXPECT_FALSE(needed_libraries("not an ELF file").ok());
  auto bytes = read_file(PTXBENCH_HOST_FIXTURE_DIR "/throws.so");
  ASSERT_TRUE(bytes.ok());
  EXPECT_FALSE(needed_libraries(bytes->substr(0, 4096)).ok());  // the string table is cut off
}

TEST(NotLoaded, ThisProcessHasTheCRuntimeButNoCudaRuntime) {
  EXPECT_EQ(not_loaded({"libc.so.6", "libstdc++.so.6"}), std::vector<std::string>{});
  EXPECT_EQ(not_loaded({"libc.so.6", "libcudart.so.13", "libnothing.so.7"}),
            (std::vector<std::string>{"libcudart.so.13", "libnothing.so.7"}));
}

}  // namespace
}  // namespace ptxbench::eval::host
