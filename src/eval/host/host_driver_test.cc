// ptxbench-host end to end: the CUDA driver side. Tensor maps encoded by the broker (called
// directly with -lcuda, and through cudaGetDriverEntryPointByVersion and cuGetProcAddress), the
// queries the Hello and the registry answer, an attribute the broker sets, and a lookup of a
// driver function off the allow-list (RefusedDriverFunction, the worker's line, exit 87).
#include <gtest/gtest.h>

#include "compile/driver_allow_list.h"
#include "eval/host/broker_fixture.h"
#include "sandbox/refusal.h"

namespace ptxbench::eval::host::testing {
namespace {

TEST(HostDriver, TensorMapsAreEncodedByTheBroker) {
  const std::string kernel = "_Z9tma_probe14CUtensorMap_stPfi";
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/tensor_map.so"},
                              test_hello({{kernel, {{0, 128}, {128, 8}, {136, 4}}, {}}}));
  ASSERT_TRUE(broker);
  broker->send(MsgType::run, encode(two_tensors({128, 256})));
  const auto enc = expect<EncodeTensorMap>(*broker, MsgType::encode_tensor_map);
  EXPECT_EQ(enc.kind, TensorMapKind::tiled);
  EXPECT_EQ(enc.data_type, 9);  // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  EXPECT_EQ(enc.rank, 2u);
  EXPECT_EQ(enc.global_address, kA);
  EXPECT_EQ(enc.global_dim, (std::vector<std::uint64_t>{256, 128}));
  EXPECT_EQ(enc.global_strides, (std::vector<std::uint64_t>{512}));
  EXPECT_EQ(enc.box_dim, (std::vector<std::uint32_t>{64, 128}));
  EXPECT_EQ(enc.element_strides, (std::vector<std::uint32_t>{1, 1}));
  EXPECT_EQ(enc.swizzle, 3);       // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(enc.l2_promotion, 2);  // CU_TENSOR_MAP_L2_PROMOTION_L2_128B
  broker->send(MsgType::reply, encode(ReplyMsg{0, 0, std::string(kTensorMapBytes, '\xab')}));
  const auto replace = expect<ReplaceAddress>(*broker, MsgType::replace_address);
  EXPECT_EQ(replace.tensor_map, std::string(kTensorMapBytes, '\xab'));
  EXPECT_EQ(replace.global_address, kC);
  broker->send(MsgType::reply, encode(ReplyMsg{0, 0, std::string(kTensorMapBytes, '\x05')}));
  const Launch probe = expect<Launch>(*broker, MsgType::launch);
  EXPECT_EQ(probe.function, kernel);
  ASSERT_EQ(probe.params.size(), 140u);
  EXPECT_EQ(probe.params.substr(0, 128), std::string(kTensorMapBytes, '\x05'));
  EXPECT_EQ(at<std::uint64_t>(probe.params, 128), kC);
  EXPECT_EQ(at<std::int32_t>(probe.params, 136), 1);  // both CUDA_SUCCESS, the Hello's text
  expect_frame(*broker, MsgType::call_done);
  broker->send(MsgType::quit);
  EXPECT_EQ(broker->finish().exit_code, 0);
}

TEST(HostDriver, QueriesAreAnsweredFromTheHelloAndTheRegistry) {
  const std::string kernel = "_Z5probePf";
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/driver_queries.so"},
                              test_hello({{kernel, {{0, 8}}, {{4 /* NUM_REGS */, 40}}}}));
  ASSERT_TRUE(broker);
  broker->send(MsgType::run, encode(two_tensors({2, 16, 16, 64})));
  const auto set = expect<FuncSetAttribute>(*broker, MsgType::func_set_attribute);
  EXPECT_EQ(set.function, kernel);
  EXPECT_EQ(set.attribute, 8);  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  EXPECT_EQ(set.value, 64 * 1024);
  broker->send(MsgType::reply, encode(ReplyMsg{0, 0, {}}));
  const auto enc = expect<EncodeTensorMap>(*broker, MsgType::encode_tensor_map);
  EXPECT_EQ(enc.kind, TensorMapKind::im2col);
  EXPECT_EQ(enc.rank, 4u);
  EXPECT_EQ(enc.global_strides.size(), 3u);
  EXPECT_EQ(enc.lower_corner, (std::vector<std::int32_t>{-1, -1}));
  EXPECT_EQ(enc.upper_corner, (std::vector<std::int32_t>{1, 1}));
  EXPECT_EQ(enc.channels_per_pixel, 64u);
  EXPECT_EQ(enc.pixels_per_column, 32u);
  EXPECT_TRUE(enc.box_dim.empty());
  broker->send(MsgType::reply, encode(ReplyMsg{1 /* CUDA_ERROR_INVALID_VALUE */, 0, {}}));
  struct Report {  // as testdata/driver_queries.cu writes it
    int codes[8];
    int sm_count, max_threads, regs, device;
    char error_name[32];
  };
  const auto copy = expect<MemcpyH2D>(*broker, MsgType::memcpy_h2d);
  ASSERT_EQ(copy.data.size(), sizeof(Report));
  Report r;
  std::memcpy(&r, copy.data.data(), sizeof r);
  const int expected[8] = {0, 101 /* CUDA_ERROR_INVALID_DEVICE: device 1 */, 0, 0, 0, 0, 0,
                           1 /* the broker's answer */};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r.codes[i], expected[i]) << "code " << i;
  EXPECT_EQ(r.sm_count, 132);
  EXPECT_EQ(r.regs, 40);
  EXPECT_EQ(r.device, 0);
  EXPECT_STREQ(r.error_name, "CUDA_ERROR_INVALID_VALUE");
  expect_frame(*broker, MsgType::call_done);
}

TEST(HostDriver, ARefusedDriverLookupEndsTheProcess) {
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/refused_lookup.so"}, test_hello({}));
  ASSERT_TRUE(broker);
  broker->send(MsgType::run, encode(two_tensors()));
  EXPECT_EQ(expect<Text>(*broker, MsgType::refused_driver_function).text, "cuMemAlloc");
  const ProcessResult end = broker->finish();
  EXPECT_EQ(end.exit_code, kSandboxRefusalExit);
  EXPECT_EQ(compile::refused_driver_function(end.stderr_text), "cuMemAlloc") << end.stderr_text;
}

}  // namespace
}  // namespace ptxbench::eval::host::testing
