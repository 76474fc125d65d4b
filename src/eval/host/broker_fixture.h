// What the host's end-to-end tests share: the Hello a test broker sends (a made-up H200 with
// the fixture's kernel functions), the tensors of a RunCall at made-up device addresses, and
// assertions on the frames the host sends back.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "eval/host/fake_broker.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host::testing {

// A device of 132 SMs (cudaDeviceProp), its launch limits, one error text of each API, and
// `functions` (name, parameter slots, attributes, as the broker's cuFuncGetParamInfo and
// cuFuncGetAttribute would give them).
Hello test_hello(std::vector<FunctionInfo> functions);

// A tensor at `address` of `dtype_bits`-bit elements (bf16: code 4; float: code 2).
TensorArg tensor(std::uint64_t address, std::vector<std::int64_t> shape, std::uint8_t code = 4,
                 std::uint8_t bits = 16);

// The device addresses the tests give their tensors (any values: the host never dereferences
// them).
inline constexpr std::uint64_t kA = 0x7f0000000000, kB = 0x7f0010000000, kC = 0x7f0020000000;

// A call of two tensors: a bf16 input at kA of `a_shape` and a float {128, 256} output at kC.
RunCall two_tensors(std::vector<std::int64_t> a_shape = {128, 256});

// The host's next frame, which must be of `type` (a test failure otherwise).
Frame expect_frame(FakeBroker& broker, MsgType type);

template <class T>
T expect(FakeBroker& broker, MsgType type) {
  Frame f = expect_frame(broker, type);
  auto decoded = decode<T>(f.payload);
  if (!decoded.ok()) {
    ADD_FAILURE() << "cannot decode " << to_string(type) << ": " << decoded.error().message;
    return T{};
  }
  return std::move(*decoded);
}

// The start of a session: the host started on `run`, its Sandbox and Ready frames read, then
// `hello` sent. Null (with a test failure) when the host did not get that far.
std::unique_ptr<FakeBroker> start_session(const HostRun& run, const Hello& hello);

// The value of type T at `offset` of a packed parameter buffer (or a copy's bytes).
template <class T>
T at(const std::string& bytes, std::size_t offset) {
  T v{};
  if (offset + sizeof v <= bytes.size()) std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

}  // namespace ptxbench::eval::host::testing
