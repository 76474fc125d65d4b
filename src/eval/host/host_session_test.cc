// ptxbench-host end to end: the session around the calls. An entry point that throws, a
// tvm-ffi candidate (its stream and its raised error), a candidate built for the per-thread
// default stream, the candidates it cannot load, and a broker that breaks the protocol.
#include <gtest/gtest.h>

#include "eval/host/broker_fixture.h"
#include "eval/host/shim_control.h"

namespace ptxbench::eval::host::testing {
namespace {

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
