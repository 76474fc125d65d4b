#include "eval/host_protocol.h"

#include <gtest/gtest.h>

namespace ptxbench::eval::host {
namespace {

template <class T>
T round_trip(const T& m) {
  auto back = decode<T>(encode(m));
  EXPECT_TRUE(back.ok()) << back.error().message;
  return back.ok() ? *back : T{};
}

TEST(HostProtocol, HelloRoundTrips) {
  Hello h;
  h.driver_version = 13000;
  h.runtime_version = 13000;
  h.device_properties = std::string(1008, '\x7f');
  h.runtime_attributes = {{1, 1024}, {16, 132}};
  h.driver_attributes = {{1, 1024}};
  h.runtime_errors = {{0, "cudaSuccess", "no error"}, {2, "cudaErrorMemoryAllocation", "oom"}};
  h.functions = {{"_Z4gemmPKfS0_Pfi", {{0, 8}, {8, 8}, {16, 8}, {24, 4}}, {{0, 1024}, {1, 0}}}};
  h.workspace_quota = 4ull << 30;
  Hello b = round_trip(h);
  EXPECT_EQ(b.device_properties, h.device_properties);
  ASSERT_EQ(b.functions.size(), 1u);
  EXPECT_EQ(b.functions[0].name, "_Z4gemmPKfS0_Pfi");
  ASSERT_EQ(b.functions[0].params.size(), 4u);
  EXPECT_EQ(b.functions[0].params[3].offset, 24u);
  EXPECT_EQ(b.functions[0].params[3].size, 4u);
  EXPECT_EQ(b.runtime_errors[1].name, "cudaErrorMemoryAllocation");
  EXPECT_EQ(b.workspace_quota, 4ull << 30);
}

TEST(HostProtocol, RunAndLaunchRoundTrip) {
  RunCall r;
  r.call = 7;
  r.tensors = {{0x7f0000000000ull, 4, 16, 1, {2048, 5120}}, {0x7f0010000000ull, 2, 32, 1, {3}}};
  RunCall rb = round_trip(r);
  ASSERT_EQ(rb.tensors.size(), 2u);
  EXPECT_EQ(rb.tensors[0].shape, (std::vector<std::int64_t>{2048, 5120}));
  EXPECT_EQ(rb.tensors[1].dtype_bits, 32);

  Launch l;
  l.function = "k";
  l.grid = {4, 2, 1};
  l.block = {128, 1, 1};
  l.shared_mem = 232448;
  l.stream = kHarnessStream;
  l.attributes = {{4, std::string(kLaunchAttributeValueBytes, '\2')}};
  l.params = std::string("\1\2\3\4\5\6\7\0", 8);
  Launch lb = round_trip(l);
  EXPECT_EQ(lb.grid.x, 4u);
  EXPECT_EQ(lb.block.x, 128u);
  EXPECT_EQ(lb.shared_mem, 232448u);
  EXPECT_EQ(lb.params, l.params);
  ASSERT_EQ(lb.attributes.size(), 1u);
  EXPECT_EQ(lb.attributes[0].id, 4);
}

TEST(HostProtocol, TensorMapAndOccupancyRoundTrip) {
  EncodeTensorMap m;
  m.kind = TensorMapKind::tiled;
  m.data_type = 10;
  m.rank = 2;
  m.global_address = 0x1000;
  m.global_dim = {5120, 2048};
  m.global_strides = {10240};
  m.box_dim = {64, 128};
  m.element_strides = {1, 1};
  m.swizzle = 3;
  EncodeTensorMap b = round_trip(m);
  EXPECT_EQ(b.global_dim, m.global_dim);
  EXPECT_EQ(b.box_dim, m.box_dim);
  EXPECT_EQ(b.swizzle, 3);
  Occupancy o;
  o.query = OccupancyQuery::max_active_clusters;
  o.function = "f";
  o.grid = {132, 1, 1};
  Occupancy ob = round_trip(o);
  EXPECT_EQ(ob.query, OccupancyQuery::max_active_clusters);
  EXPECT_EQ(ob.grid.x, 132u);
}

// The wire layout itself, pinned: fields in declaration order, little-endian, a blob as u32
// length + bytes, a vector as u32 count + elements.
TEST(HostProtocol, TheWireLayoutIsPinned) {
  using namespace std::string_literals;
  EXPECT_EQ(encode(Memset{0x0102030405060708ull, -2, 3, 4}),
            "\x08\x07\x06\x05\x04\x03\x02\x01"s + "\xfe\xff\xff\xff"s + "\x03\0\0\0\0\0\0\0"s +
                "\x04\0\0\0\0\0\0\0"s);
  RunCall r;
  r.call = 1;
  r.tensors = {{0x10, 2, 16, 1, {5}}};
  EXPECT_EQ(encode(r), "\x01\0\0\0"s + "\x01\0\0\0"s + "\x10\0\0\0\0\0\0\0"s + "\x02\x10\x01\0"s +
                           "\x01\0\0\0"s + "\x05\0\0\0\0\0\0\0"s);
  EXPECT_EQ(encode(Text{"ab"}), "\x02\0\0\0ab"s);
  Occupancy o;
  o.query = OccupancyQuery::max_active_clusters;
  EXPECT_EQ(encode(o)[0], '\x03');
}

TEST(HostProtocol, DecodeErrorsNameThePayloadAndTheField) {
  std::string m = encode(Memset{});
  auto r = decode<Memset>(m.substr(0, 10));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "malformed memset (value)");
  Occupancy o;
  std::string q = encode(o);
  q[0] = 4;
  auto bad = decode<Occupancy>(q);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "malformed occupancy query (query 4)");
}

TEST(HostProtocol, DecodersRefuseWhatDoesNotFit) {
  std::string launch = encode(Launch{});
  EXPECT_FALSE(decode<Launch>(launch.substr(0, launch.size() - 1)).ok());
  EXPECT_FALSE(decode<Launch>(launch + "x").ok());  // trailing bytes
  // A vector count far larger than the bytes that follow.
  std::string huge = encode(RunCall{});
  huge[4] = '\xff', huge[5] = '\xff', huge[6] = '\xff', huge[7] = '\x7f';
  auto r = decode<RunCall>(huge);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("tensors"), std::string::npos);
  std::string bad_kind = encode(EncodeTensorMap{});
  bad_kind[0] = 9;
  EXPECT_FALSE(decode<EncodeTensorMap>(bad_kind).ok());
  ReplaceAddress ra;
  ra.tensor_map = "short";
  EXPECT_FALSE(decode<ReplaceAddress>(encode(ra)).ok());
}

TEST(FrameParser, SplitsAStreamFedByteByByte) {
  const std::string a = encode_frame(MsgType::call_done, "");
  const std::string b = encode_frame(MsgType::call_threw, encode(Text{"boom"}));
  const std::string stream = a + b;
  FrameParser p;
  std::vector<Frame> got;
  for (char c : stream) {
    p.feed(std::string_view(&c, 1));
    while (true) {
      auto f = p.next();
      ASSERT_TRUE(f.ok());
      if (!*f) break;
      got.push_back(std::move(**f));
    }
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].type, MsgType::call_done);
  EXPECT_EQ(got[1].type, MsgType::call_threw);
  EXPECT_EQ(decode<Text>(got[1].payload)->text, "boom");
  EXPECT_EQ(p.buffered(), 0u);
}

TEST(FrameParser, AForgedJsonReplyLineIsAProtocolError) {
  FrameParser p;
  p.feed("{\"ok\":false,\"status\":\"harness_error\"}\n");
  auto f = p.next();
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().message.find("magic"), std::string::npos);
  p.feed(encode_frame(MsgType::call_done, ""));
  EXPECT_FALSE(p.next().ok());  // out of step for good
}

TEST(FrameParser, RefusesUnknownTypesReservedBitsAndHugeLengths) {
  auto first_error = [](std::string bytes) {
    FrameParser p;
    p.feed(bytes);
    auto f = p.next();
    return f.ok() ? std::string() : f.error().message;
  };
  std::string unknown = encode_frame(MsgType::call_done, "");
  unknown[4] = 99;
  EXPECT_NE(first_error(unknown).find("unknown type"), std::string::npos);
  std::string reserved = encode_frame(MsgType::call_done, "");
  reserved[6] = 1;
  EXPECT_NE(first_error(reserved).find("reserved"), std::string::npos);
  std::string huge = encode_frame(MsgType::call_done, "");
  huge[11] = '\x7f';
  EXPECT_NE(first_error(huge).find("past the limit"), std::string::npos);
}

TEST(HostProtocol, MessageKinds) {
  EXPECT_TRUE(is_ordered_work(MsgType::launch));
  EXPECT_TRUE(is_ordered_work(MsgType::free_async));
  EXPECT_FALSE(is_ordered_work(MsgType::malloc_async));
  EXPECT_TRUE(is_synchronous(MsgType::stream_sync));
  EXPECT_FALSE(is_synchronous(MsgType::call_done));
  EXPECT_FALSE(is_known(0));
  EXPECT_TRUE(is_known(static_cast<std::uint16_t>(MsgType::memcpy_d2h)));
  EXPECT_TRUE(is_known(static_cast<std::uint16_t>(MsgType::sandbox)));
  EXPECT_EQ(to_string(MsgType::sandbox), "sandbox");
  EXPECT_FALSE(is_ordered_work(MsgType::sandbox) || is_synchronous(MsgType::sandbox));
}

TEST(HostRequest, RoundTripsAndNeedsTheTvmFfiLibrary) {
  HostRequest r;
  r.dir = "/tmp/h";
  r.library = "/tmp/h/candidate.so";
  r.shim_dir = "/opt/shim";
  auto back = HostRequest::from_json(r.to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->library, r.library);
  EXPECT_TRUE(back->sandbox);
  r.contract = Contract::tvm_ffi;
  EXPECT_FALSE(HostRequest::from_json(r.to_json()).ok());
}

}  // namespace
}  // namespace ptxbench::eval::host
