// The shim's own verdict on a launch (launch_check.h) and the packing of its parameters,
// without a process: limits from a Hello, attributes from a registered function.
#include "eval/host/launch_check.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <climits>
#include <cstring>

namespace ptxbench::eval::host::shim {
namespace {

Hello limits() {
  Hello h;
  h.runtime_attributes = {{cudaDevAttrMaxThreadsPerBlock, 1024}, {cudaDevAttrMaxBlockDimX, 1024},
                          {cudaDevAttrMaxBlockDimY, 1024},       {cudaDevAttrMaxBlockDimZ, 64},
                          {cudaDevAttrMaxGridDimX, INT_MAX},     {cudaDevAttrMaxGridDimY, 65535},
                          {cudaDevAttrMaxGridDimZ, 65535}};
  return h;
}

Function function(std::map<std::int32_t, std::int32_t> attributes) {
  Function f;
  f.name = "k";
  f.attributes = std::move(attributes);
  return f;
}

TEST(LaunchCheck, WithinEveryLimitIsFine) {
  const Function f = function({{CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024}});
  EXPECT_EQ(check_launch({{65535, 65535, 1}, {1024, 1, 1}}, limits(), f), cudaSuccess);
  EXPECT_EQ(check_launch({{1, 1, 1}, {32, 32, 1}}, limits(), f), cudaSuccess);
}

TEST(LaunchCheck, ShapesPastTheDeviceAreInvalidConfigurations) {
  const Function f = function({});
  for (LaunchShape s : {LaunchShape{{0, 1, 1}, {32, 1, 1}}, LaunchShape{{1, 1, 1}, {0, 1, 1}},
                        LaunchShape{{1, 1, 1}, {2048, 1, 1}}, LaunchShape{{1, 1, 1}, {1, 1, 65}},
                        LaunchShape{{1, 65536, 1}, {1, 1, 1}},
                        LaunchShape{{1, 1, 1}, {64, 32, 1}}})  // 2048 threads
    EXPECT_EQ(check_launch(s, limits(), f), cudaErrorInvalidConfiguration)
        << s.grid.x << "x" << s.grid.y << " " << s.block.x << "x" << s.block.y << "x" << s.block.z;
}

TEST(LaunchCheck, TheFunctionsOwnLimits) {
  const Function f = function({{CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 256},
                               {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 48 * 1024}});
  EXPECT_EQ(check_launch({{1, 1, 1}, {512, 1, 1}}, limits(), f), cudaErrorLaunchOutOfResources);
  EXPECT_EQ(check_launch({{1, 1, 1}, {256, 1, 1}, 48 * 1024}, limits(), f), cudaSuccess);
  EXPECT_EQ(check_launch({{1, 1, 1}, {256, 1, 1}, 48 * 1024 + 1}, limits(), f),
            cudaErrorInvalidValue);
}

TEST(LaunchCheck, GridsOfWholeClusters) {
  const Function compiled = function({{CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 2},
                                      {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, 1},
                                      {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, 1}});
  EXPECT_EQ(check_launch({{4, 1, 1}, {32, 1, 1}}, limits(), compiled), cudaSuccess);
  EXPECT_EQ(check_launch({{3, 1, 1}, {32, 1, 1}}, limits(), compiled), cudaErrorInvalidClusterSize);
  const Function plain = function({});
  EXPECT_EQ(check_launch({{6, 4, 1}, {32, 1, 1}, 0, {3, 2, 1}}, limits(), plain), cudaSuccess);
  EXPECT_EQ(check_launch({{6, 3, 1}, {32, 1, 1}, 0, {3, 2, 1}}, limits(), plain),
            cudaErrorInvalidClusterSize);
}

TEST(LaunchCheck, AHelloWithoutLimitsChecksOnlyZeroExtents) {
  const Function f = function({});
  EXPECT_EQ(check_launch({{1, 1, 1}, {4096, 1, 1}}, Hello{}, f), cudaSuccess);
  EXPECT_EQ(check_launch({{1, 0, 1}, {32, 1, 1}}, Hello{}, f), cudaErrorInvalidConfiguration);
}

TEST(PackParameters, EachArgumentAtItsOffset) {
  FunctionInfo info{"k", {{0, 8}, {8, 4}, {12, 1}, {16, 8}}, {}};
  void* pointer = reinterpret_cast<void*>(0x1234);
  int n = -7;
  char c = 'q';
  double d = 2.5;
  void* args[] = {&pointer, &n, &c, &d};
  const auto buffer = pack_parameters(info, args);
  ASSERT_TRUE(buffer.has_value());
  ASSERT_EQ(buffer->size(), 24u);
  std::uint64_t p = 0;
  std::memcpy(&p, buffer->data(), 8);
  EXPECT_EQ(p, 0x1234u);
  int n_back = 0;
  std::memcpy(&n_back, buffer->data() + 8, 4);
  EXPECT_EQ(n_back, -7);
  EXPECT_EQ((*buffer)[12], 'q');
  EXPECT_EQ((*buffer)[13], '\0');  // padding is zero
  double d_back = 0;
  std::memcpy(&d_back, buffer->data() + 16, 8);
  EXPECT_EQ(d_back, 2.5);
}

TEST(PackParameters, NoParametersAndMissingArguments) {
  EXPECT_EQ(pack_parameters(FunctionInfo{"k", {}, {}}, nullptr), std::string());
  EXPECT_FALSE(pack_parameters(FunctionInfo{"k", {{0, 4}}, {}}, nullptr).has_value());
}

TEST(Registry, FunctionsByStubOrHandleBoundToTheHello) {
  Registry r;
  int stub = 0, var = 0;
  r.add_function(&stub, "_Z1kv");
  r.add_variable(&var, "table", 64, true);
  Function* f = r.function(&stub);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(r.function(f->handle()), f);
  EXPECT_EQ(f->info, nullptr);
  Hello h;
  h.functions = {{"_Z1kv", {{0, 8}}, {{CU_FUNC_ATTRIBUTE_NUM_REGS, 32}}}};
  r.bind(h);
  ASSERT_NE(f->info, nullptr);
  EXPECT_EQ(f->attribute(CU_FUNC_ATTRIBUTE_NUM_REGS), 32);
  EXPECT_EQ(r.function(&var), nullptr);
  ASSERT_NE(r.variable(&var), nullptr);
  EXPECT_EQ(r.variable(&var)->name, "table");
  EXPECT_EQ(r.variable(&stub), nullptr);
}

}  // namespace
}  // namespace ptxbench::eval::host::shim
