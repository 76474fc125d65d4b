#include "eval/host/broker_fixture.h"

#include <cuda_runtime_api.h>

#include <climits>

namespace ptxbench::eval::host::testing {

Hello test_hello(std::vector<FunctionInfo> functions) {
  Hello h;
  h.driver_version = 13000;
  h.runtime_version = 13000;
  cudaDeviceProp prop{};
  std::strcpy(prop.name, "test device");
  prop.multiProcessorCount = 132;
  prop.maxThreadsPerBlock = 1024;
  h.device_properties.assign(reinterpret_cast<const char*>(&prop), sizeof prop);
  h.runtime_attributes = {
      {cudaDevAttrMaxThreadsPerBlock, 1024}, {cudaDevAttrMaxBlockDimX, 1024},
      {cudaDevAttrMaxBlockDimY, 1024},       {cudaDevAttrMaxBlockDimZ, 64},
      {cudaDevAttrMaxGridDimX, INT_MAX},     {cudaDevAttrMaxGridDimY, 65535},
      {cudaDevAttrMaxGridDimZ, 65535},       {cudaDevAttrMultiProcessorCount, 132}};
  h.driver_attributes = {{1, 1024}, {16, 132}};
  h.runtime_errors = {{cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"}};
  h.driver_errors = {{1, "CUDA_ERROR_INVALID_VALUE", "from the hello"}};
  h.functions = std::move(functions);
  h.workspace_quota = 1ull << 30;
  return h;
}

TensorArg tensor(std::uint64_t address, std::vector<std::int64_t> shape, std::uint8_t code,
                 std::uint8_t bits) {
  TensorArg t;
  t.data = address;
  t.dtype_code = code;
  t.dtype_bits = bits;
  t.shape = std::move(shape);
  return t;
}

RunCall two_tensors(std::vector<std::int64_t> a_shape) {
  RunCall run;
  run.tensors = {tensor(kA, std::move(a_shape)), tensor(kC, {128, 256}, 2, 32)};
  return run;
}

Frame expect_frame(FakeBroker& broker, MsgType type) {
  std::optional<Frame> f = broker.next();
  if (!f) {
    ADD_FAILURE() << "the host sent nothing more; expected " << to_string(type) << "\n"
                  << broker.finish().stderr_text;
    return Frame{};
  }
  EXPECT_EQ(to_string(f->type), to_string(type));
  if (f->type == MsgType::call_threw || f->type == MsgType::load_failed) {
    auto text = decode<Text>(f->payload);
    if (f->type != type && text.ok()) ADD_FAILURE() << "the host said: " << text->text;
  }
  return *f;
}

std::unique_ptr<FakeBroker> start_session(const HostRun& run, const Hello& hello) {
  auto broker = FakeBroker::start(run);
  if (!broker.ok()) {
    ADD_FAILURE() << broker.error().to_string();
    return nullptr;
  }
  FakeBroker& b = **broker;
  auto report = expect<Text>(b, MsgType::sandbox);
  EXPECT_NE(report.text.find("\"applied\""), std::string::npos) << report.text;
  Frame ready = expect_frame(b, MsgType::ready);
  if (ready.type != MsgType::ready) return nullptr;
  b.send(MsgType::hello, encode(hello));
  return std::move(*broker);
}

}  // namespace ptxbench::eval::host::testing
