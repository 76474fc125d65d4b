// ptxbench-host end to end on the launches fixture (testdata/launches.cu): every kind of kernel
// launch the contract allows, each Launch frame checked (function, grid, block, shared
// memory, stream, attributes, the parameters packed at the Hello's offsets), the launches the
// runtime refuses kept local, and the error codes the candidate saw.
#include <gtest/gtest.h>

#include "eval/host/broker_fixture.h"

namespace ptxbench::eval::host::testing {
namespace {

constexpr char kGemm[] = "_Z10gemm_mixedPK13__nv_bfloat16S1_PS_iiifcdx";
constexpr char kFillFloat[] = "_Z9fill_tileILi64EfEvPT0_S0_i";
constexpr char kFillShort[] = "_Z9fill_tileILi32EsEvPT0_S0_i";
constexpr char kBigSmem[] = "_Z8big_smemPf";
constexpr char kClustered[] = "_Z9clusteredPf";
constexpr char kClusterEx[] = "_Z10cluster_exPfi";
// The kernels as the broker describes them (offsets as the device ABI lays the parameters
// out; CU_FUNC_ATTRIBUTE_* ids).
std::vector<FunctionInfo> launches_functions() {
  return {
      {kGemm,
       {{0, 8}, {8, 8}, {16, 8}, {24, 4}, {28, 4}, {32, 4}, {36, 4}, {40, 1}, {48, 8}, {56, 8}},
       {{0, 1024}}},
      {kFillFloat, {{0, 8}, {8, 4}, {12, 4}}, {{0, 1024}}},
      {kFillShort, {{0, 8}, {8, 2}, {12, 4}}, {{0, 1024}}},
      {kBigSmem, {{0, 8}}, {{0, 1024}, {8, 48 * 1024}}},
      {kClustered, {{0, 8}}, {{0, 1024}, {11, 2}, {12, 1}, {13, 1}}},
      {kClusterEx, {{0, 8}, {8, 4}}, {{0, 1024}}},
  };
}

void expect_launch(const Launch& l, const std::string& function, Dim3 grid, Dim3 block,
                   std::uint64_t shared_mem = 0, std::uint64_t stream = kHarnessStream) {
  EXPECT_EQ(l.function, function);
  EXPECT_EQ(l.grid.x, grid.x);
  EXPECT_EQ(l.grid.y, grid.y);
  EXPECT_EQ(l.grid.z, grid.z);
  EXPECT_EQ(l.block.x, block.x);
  EXPECT_EQ(l.block.y, block.y);
  EXPECT_EQ(l.block.z, block.z);
  EXPECT_EQ(l.shared_mem, shared_mem);
  EXPECT_EQ(l.stream, stream);
}

TEST(HostLaunches, EveryLaunchIsSentAsTheRuntimeWouldMakeIt) {
  auto broker =
      start_session({PTXBENCH_HOST_FIXTURE_DIR "/launches.so"}, test_hello(launches_functions()));
  ASSERT_TRUE(broker);
  RunCall run;
  run.call = 1;
  run.tensors = {tensor(kA, {3, 64}), tensor(kB, {300, 64}), tensor(kC, {3, 300})};
  broker->send(MsgType::run, encode(run));

  const Launch gemm = expect<Launch>(*broker, MsgType::launch);
  expect_launch(gemm, kGemm, {3, 3, 1}, {128, 1, 1});
  ASSERT_EQ(gemm.params.size(), 64u);
  EXPECT_EQ(at<std::uint64_t>(gemm.params, 0), kA);
  EXPECT_EQ(at<std::uint64_t>(gemm.params, 8), kB);
  EXPECT_EQ(at<std::uint64_t>(gemm.params, 16), kC);
  EXPECT_EQ(at<std::int32_t>(gemm.params, 24), 3);
  EXPECT_EQ(at<std::int32_t>(gemm.params, 28), 300);
  EXPECT_EQ(at<std::int32_t>(gemm.params, 32), 64);
  EXPECT_EQ(at<float>(gemm.params, 36), 0.5f);
  EXPECT_EQ(at<char>(gemm.params, 40), 'x');
  EXPECT_EQ(at<double>(gemm.params, 48), 2.0);
  EXPECT_EQ(at<std::int64_t>(gemm.params, 56), 300);
  EXPECT_TRUE(gemm.attributes.empty());

  const Launch fill = expect<Launch>(*broker, MsgType::launch);
  expect_launch(fill, kFillFloat, {1, 1, 1}, {64, 1, 1});
  EXPECT_EQ(at<float>(fill.params, 8), 1.5f);
  EXPECT_EQ(at<std::int32_t>(fill.params, 12), 7);
  const Launch fill_short = expect<Launch>(*broker, MsgType::launch);
  expect_launch(fill_short, kFillShort, {2, 1, 1}, {32, 1, 1});
  EXPECT_EQ(at<std::int16_t>(fill_short.params, 8), -3);
  EXPECT_EQ(at<std::int32_t>(fill_short.params, 12), 9);

  const auto symbol = expect<MemcpyToSymbol>(*broker, MsgType::memcpy_to_symbol);
  EXPECT_EQ(symbol.symbol, "kScale");
  EXPECT_EQ(symbol.offset, 0u);
  ASSERT_EQ(symbol.data.size(), 16u);
  EXPECT_EQ(at<float>(symbol.data, 12), 4.f);
  EXPECT_EQ(symbol.stream, kHarnessStream);

  // The launch past the function's dynamic shared memory stays local; the attribute is raised.
  const auto raise = expect<FuncSetAttribute>(*broker, MsgType::func_set_attribute);
  EXPECT_EQ(raise.function, kBigSmem);
  EXPECT_EQ(raise.attribute, 8);  // cudaFuncAttributeMaxDynamicSharedMemorySize
  EXPECT_EQ(raise.value, 200 * 1024);
  broker->send(MsgType::reply, encode(ReplyMsg{0, 0, {}}));
  expect_launch(expect<Launch>(*broker, MsgType::launch), kBigSmem, {1, 1, 1}, {256, 1, 1},
                200 * 1024);

  // The oversized block stays local; the cluster launch carries its attribute.
  const Launch ex = expect<Launch>(*broker, MsgType::launch);
  expect_launch(ex, kClusterEx, {4, 1, 1}, {32, 1, 1});
  ASSERT_EQ(ex.attributes.size(), 1u);
  EXPECT_EQ(ex.attributes[0].id, 4);  // cudaLaunchAttributeClusterDimension
  ASSERT_EQ(ex.attributes[0].value.size(), kLaunchAttributeValueBytes);
  EXPECT_EQ(at<std::uint32_t>(ex.attributes[0].value, 0), 2u);
  EXPECT_EQ(at<std::uint32_t>(ex.attributes[0].value, 4), 1u);
  EXPECT_EQ(at<std::int32_t>(ex.params, 8), 4);

  // The three blocks of a two-block cluster stay local; the side stream is sent as it is.
  expect_launch(expect<Launch>(*broker, MsgType::launch), kFillFloat, {1, 1, 1}, {64, 1, 1}, 0,
                2 /* cudaStreamPerThread */);

  // Occupancy is the broker's answer; function attributes are the Hello's, as raised.
  const auto occupancy = expect<Occupancy>(*broker, MsgType::occupancy);
  EXPECT_EQ(occupancy.query, OccupancyQuery::max_active_blocks);
  EXPECT_EQ(occupancy.function, kGemm);
  EXPECT_EQ(occupancy.block_size, 128);
  EXPECT_EQ(occupancy.dynamic_smem, 0u);
  broker->send(MsgType::reply, encode(ReplyMsg{0, 8, {}}));

  const auto codes = expect<MemcpyH2D>(*broker, MsgType::memcpy_h2d);
  EXPECT_EQ(codes.dst, kC);
  ASSERT_EQ(codes.data.size(), 12 * sizeof(int));
  const int expected[12] = {1 /* InvalidValue: peeked */,
                            1 /* ... returned and cleared */,
                            0,
                            0 /* the attribute was set */,
                            9 /* InvalidConfiguration: 2048 threads */,
                            0,
                            912 /* InvalidClusterSize */,
                            0,
                            0,
                            8 /* blocks per SM, the broker's answer */,
                            200 * 1024,
                            1024};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(at<int>(codes.data, 4 * i), expected[i]) << "code " << i;
  expect_frame(*broker, MsgType::call_done);

  broker->send(MsgType::quit);
  const ProcessResult end = broker->finish();
  EXPECT_EQ(end.exit_code, 0) << end.stderr_text;
}

TEST(HostLaunches, AFunctionTheBrokerDoesNotKnowIsNotLaunched) {
  std::vector<FunctionInfo> functions = launches_functions();
  functions.erase(functions.begin());  // no gemm_mixed in the broker's device code
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/launches.so"}, test_hello(functions));
  ASSERT_TRUE(broker);
  RunCall run;
  run.tensors = {tensor(kA, {3, 64}), tensor(kB, {300, 64}), tensor(kC, {3, 300})};
  broker->send(MsgType::run, encode(run));
  expect_launch(expect<Launch>(*broker, MsgType::launch), kFillFloat, {1, 1, 1}, {64, 1, 1});
  broker->finish();  // end of file while it waits: the host ends
}

}  // namespace
}  // namespace ptxbench::eval::host::testing
