// Static device memory (static_memory.h): cubins built here by nvcc (a few seconds each; this
// file runs in compiler_test, label nvcc) with a __device__ array just over and just under the
// limit, and the message's figures.
#include "compile/static_memory.h"

#include <gtest/gtest.h>

#include "compile/compiler.h"
#include "core/fs.h"
#include "core/paths.h"
#include "core/subprocess.h"

namespace ptxbench::compile {
namespace {

namespace fs = std::filesystem;

// The cubin nvcc builds from `source` for sm_90a (device code only: no host pass, no link).
std::string cubin_of(const std::string& source) {
  const Paths paths = Paths::discover();
  auto nvcc = paths.tool("nvcc");
  EXPECT_TRUE(nvcc.ok()) << nvcc.error().to_string();
  auto gencode = gencode_flag("sm_90a");
  auto tmp = TempDir::create("ptxbench-static-memory-test-");
  if (!nvcc.ok() || !gencode.ok() || !tmp.ok()) return {};
  const fs::path src = tmp->path() / "k.cu", out = tmp->path() / "k.cubin";
  EXPECT_TRUE(write_file_atomic(src, source).ok());
  ProcessSpec spec;
  spec.argv = {nvcc->string(), "-std=c++17", "-cubin", *gencode, src.string(), "-o", out.string()};
  spec.limits.wall = std::chrono::minutes(3);
  SystemProcessRunner runner;
  auto r = runner.run(spec);
  EXPECT_TRUE(r.ok() && r->succeeded()) << (r.ok() ? r->stderr_text : r.error().to_string());
  auto bytes = read_file(out);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? *bytes : std::string();
}

std::string kernel_with(const std::string& declarations) {
  return declarations +
         "\nextern \"C\" __global__ void k(int* o) {\n"
         "  o[threadIdx.x] = big[threadIdx.x] + init[threadIdx.x & 3];\n}\n";
}

// One byte over 1 GiB of zero-initialised __device__ memory (NOBITS: the cubin stays small) is
// refused, with its size and the limit; 4 KiB under it, with a small initialised array, is not.
TEST(StaticMemory, ADeviceArrayOverTheLimitIsAProblemAndOneUnderItIsNot) {
  const std::string over = cubin_of(kernel_with(
      "__device__ unsigned char big[(1ull << 30) + 1];\n__device__ int init[4] = {1, 2, 3, 4};"));
  auto m = static_device_memory(over);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->zeroed_bytes, (1ull << 30) + 1);
  EXPECT_EQ(m->initialised_bytes, 16u);
  EXPECT_LT(over.size(), 1u << 20);
  const auto problems = static_memory_problems(*m);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("1024.0 MiB of static device memory"), std::string::npos)
      << problems[0];
  EXPECT_NE(problems[0].find("more than the 1024.0 MiB ptxbench accepts"), std::string::npos);
  EXPECT_NE(problems[0].find("cudaMallocAsync"), std::string::npos);

  const std::string under =
      cubin_of(kernel_with("__device__ unsigned char big[(1ull << 30) - 4096];\n"
                           "__device__ int init[4] = {1, 2, 3, 4};"));
  m = static_device_memory(under);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->total(), (1ull << 30) - 4096 + 16);
  EXPECT_TRUE(static_memory_problems(*m).empty());
}

// A multiple of 4 GiB leaves the section header's size 0 (its low 32 bits); the variable's own
// size counts (leak3/static_device_array_oom.cu: 72 GiB).
TEST(StaticMemory, SizesPastFourGibAreReadFromTheVariables) {
  const std::string cubin = cubin_of(kernel_with(
      "__device__ unsigned char big[4ull << 30];\n__device__ int init[4] = {1, 2, 3, 4};"));
  auto m = static_device_memory(cubin);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->zeroed_bytes, 4ull << 30);
  ASSERT_EQ(static_memory_problems(*m).size(), 1u);
  EXPECT_NE(static_memory_problems(*m)[0].find("4096.0 MiB"), std::string::npos);
}

// __managed__ variables are device memory the driver allocates at load too (.nv.global).
TEST(StaticMemory, ManagedVariablesCount) {
  const std::string cubin = cubin_of(
      "__managed__ unsigned char big[2u << 20];\n__device__ int init[4] = {1, 2, 3, 4};\n" +
      std::string("extern \"C\" __global__ void k(int* o) { o[0] = big[threadIdx.x] + init[0]; }"));
  auto m = static_device_memory(cubin);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->zeroed_bytes, 2u << 20);
  EXPECT_FALSE(static_memory_problems(*m, 1u << 20).empty());
  EXPECT_TRUE(static_memory_problems(*m).empty());
}

TEST(StaticMemory, SizesSaturateAndNonElfIsAnError) {
  StaticDeviceMemory m{UINT64_MAX - 1, 2};
  EXPECT_EQ(m.total(), UINT64_MAX);
  EXPECT_EQ(static_memory_problems(m).size(), 1u);
  EXPECT_FALSE(
      static_device_memory("not an ELF file at all, but long enough to be read as one?").ok());
  auto missing = static_memory_problems_of("/nonexistent/kernel.cubin");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot read the built cubin"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::compile
