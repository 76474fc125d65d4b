// ptxbench-host end to end: the session around the calls. An entry point that throws, a
// refused driver lookup (exit 87), the driver called directly (tensor maps) and through the
// entry-point lookup, a tvm-ffi candidate (its stream and its raised error), a candidate built
// for the per-thread default stream, and the candidates it cannot load.
#include <gtest/gtest.h>

#include "compile/driver_allow_list.h"
#include "core/refusal.h"
#include "eval/host/broker_fixture.h"
#include "eval/host/shim_control.h"

namespace ptxbench::eval::host::testing {
namespace {

constexpr std::uint64_t kA = 0x7f0000000000, kC = 0x7f0020000000;

RunCall two_tensors(std::vector<std::int64_t> a_shape = {128, 256}) {
  RunCall run;
  run.tensors = {tensor(kA, std::move(a_shape)), tensor(kC, {128, 256}, 2, 32)};
  return run;
}

TEST(HostSession, AnExceptionFromTheEntryPointIsTheCallsError) {
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/throws.so"},
                              test_hello({{"_Z5touchPf", {{0, 8}}, {}}}));
  ASSERT_TRUE(broker);
  broker->send(MsgType::run, encode(two_tensors()));
  EXPECT_EQ(expect<Launch>(*broker, MsgType::launch).function, "_Z5touchPf");
  EXPECT_EQ(expect<Text>(*broker, MsgType::call_threw).text, "the fixture threw on purpose");
  // The process goes on: a call that does not throw.
  broker->send(MsgType::run, encode(two_tensors({128})));
  expect<Launch>(*broker, MsgType::launch);
  expect_frame(*broker, MsgType::call_done);
  EXPECT_EQ(broker->finish().exit_code, 0);  // end of file: a normal end
}

TEST(HostSession, ARefusedDriverLookupEndsTheProcess) {
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/refused_lookup.so"}, test_hello({}));
  ASSERT_TRUE(broker);
  broker->send(MsgType::run, encode(two_tensors()));
  EXPECT_EQ(expect<Text>(*broker, MsgType::refused_driver_function).text, "cuMemAlloc");
  const ProcessResult end = broker->finish();
  EXPECT_EQ(end.exit_code, kSandboxRefusalExit);
  EXPECT_EQ(compile::refused_driver_function(end.stderr_text), "cuMemAlloc") << end.stderr_text;
}

TEST(HostSession, TensorMapsAreEncodedByTheBroker) {
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

TEST(HostSession, ATvmFfiCandidateGetsTheHarnessStreamAndItsErrorsAreReported) {
  HostRun run{PTXBENCH_HOST_FIXTURE_DIR "/tvm_ffi.so", Contract::tvm_ffi};
  auto broker = start_session(run, test_hello({{"_Z10copy_firstPKfPf", {{0, 8}, {8, 8}}, {}}}));
  ASSERT_TRUE(broker);
  RunCall call = two_tensors();
  call.tensors.insert(call.tensors.begin() + 1, tensor(0x7f0010000000, {4}));
  broker->send(MsgType::run, encode(call));
  const Launch l = expect<Launch>(*broker, MsgType::launch);
  EXPECT_EQ(l.stream, kHarnessStream);
  EXPECT_EQ(at<std::uint64_t>(l.params, 0), kA);
  EXPECT_EQ(at<std::uint64_t>(l.params, 8), kC);
  expect_frame(*broker, MsgType::call_done);
  call.tensors[0].shape = {128};
  broker->send(MsgType::run, encode(call));
  const std::string threw = expect<Text>(*broker, MsgType::call_threw).text;
  EXPECT_NE(threw.find("A must be a matrix"), std::string::npos) << threw;
  broker->send(MsgType::quit);
  EXPECT_EQ(broker->finish().exit_code, 0);
}

TEST(HostSession, PerThreadDefaultStreamCallsNameTheirStream) {
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/per_thread.so"},
                              test_hello({{"_Z5touchPf", {{0, 8}}, {}}}));
  ASSERT_TRUE(broker);
  broker->send(MsgType::run, encode(two_tensors()));
  EXPECT_EQ(expect<Launch>(*broker, MsgType::launch).stream, kHarnessStream);
  EXPECT_EQ(expect<Launch>(*broker, MsgType::launch).stream, 2u);         // <<<1, 1>>>: per-thread
  EXPECT_EQ(expect<MemcpyD2D>(*broker, MsgType::memcpy_d2d).stream, 2u);  // stream 0 likewise
  expect_frame(*broker, MsgType::call_done);
}

TEST(HostSession, ACandidateNeedingAnotherLibraryIsRefusedBeforeTheSandbox) {
  // The tvm-ffi fixture judged as native: libtvm_ffi.so is not loaded.
  auto broker = FakeBroker::start({PTXBENCH_HOST_FIXTURE_DIR "/tvm_ffi.so"});
  ASSERT_TRUE(broker.ok());
  const std::string why = expect<Text>(**broker, MsgType::load_failed).text;
  EXPECT_NE(why.find("needs libtvm_ffi.so"), std::string::npos) << why;
  EXPECT_EQ((*broker)->finish().exit_code, 0);
}

TEST(HostSession, ACandidateWithoutTheEntryPointIsALoadFailure) {
  auto no_entry = FakeBroker::start({PTXBENCH_HOST_HOSTILE, Contract::tvm_ffi});
  ASSERT_TRUE(no_entry.ok());
  expect<Text>(**no_entry, MsgType::sandbox);
  const std::string why = expect<Text>(**no_entry, MsgType::load_failed).text;
  EXPECT_NE(why.find("does not export `__tvm_ffi_run`"), std::string::npos) << why;
  EXPECT_EQ((*no_entry)->finish().exit_code, 0);
}

TEST(HostSession, QuitBeforeTheHelloIsANormalEnd) {
  auto broker = FakeBroker::start({PTXBENCH_HOST_HOSTILE});
  ASSERT_TRUE(broker.ok());
  const auto report = expect<Text>(**broker, MsgType::sandbox);
  EXPECT_NE(report.text.find("\"profile\":\"host\""), std::string::npos) << report.text;
  expect_frame(**broker, MsgType::ready);
  (*broker)->send(MsgType::quit);
  EXPECT_EQ((*broker)->finish().exit_code, 0);
}

TEST(HostSession, AHelloThatDoesNotFitIsAProtocolError) {
  auto broker = FakeBroker::start({PTXBENCH_HOST_HOSTILE});
  ASSERT_TRUE(broker.ok());
  expect_frame(**broker, MsgType::sandbox);
  expect_frame(**broker, MsgType::ready);
  Hello hello = test_hello({});
  hello.device_properties.resize(100);  // another runtime's cudaDeviceProp
  (*broker)->send(MsgType::hello, encode(hello));
  const ProcessResult end = (*broker)->finish();
  EXPECT_EQ(end.exit_code, kHostProtocolExit);
  EXPECT_NE(end.stderr_text.find("device properties have 100 bytes"), std::string::npos)
      << end.stderr_text;
}

TEST(HostSession, AMalformedFrameFromTheBrokerIsAProtocolError) {
  auto broker = FakeBroker::start({PTXBENCH_HOST_HOSTILE});
  ASSERT_TRUE(broker.ok());
  expect_frame(**broker, MsgType::sandbox);
  expect_frame(**broker, MsgType::ready);
  (*broker)->send(MsgType::run, "not a hello");
  const ProcessResult end = (*broker)->finish();
  EXPECT_EQ(end.exit_code, kHostProtocolExit);
  EXPECT_NE(end.stderr_text.find("expected a hello, got run"), std::string::npos)
      << end.stderr_text;
}

}  // namespace
}  // namespace ptxbench::eval::host::testing
