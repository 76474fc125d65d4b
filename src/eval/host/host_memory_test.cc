// ptxbench-host end to end on the memory fixture (testdata/memory.cu): workspace allocation,
// memset, copies in every direction (cudaMemcpyDefault told apart by the call's tensors and
// the workspace), the stream synchronisation, frees (a bad one refused locally), events, and
// the queries the Hello answers.
#include <gtest/gtest.h>

#include "eval/host/broker_fixture.h"

namespace ptxbench::eval::host::testing {
namespace {

constexpr std::uint64_t kWorkspace = 0x7f0100000000;

struct Report {  // as testdata/memory.cu writes it
  int codes[16];
  char back[8];
  int sm_count;
  int max_threads;
  char error_text[32];
};

TEST(HostMemory, CopiesAllocationsAndEventsAsTheRuntimeWouldDoThem) {
  auto broker = start_session({PTXBENCH_HOST_FIXTURE_DIR "/memory.so"}, test_hello({}));
  ASSERT_TRUE(broker);
  RunCall run;
  run.call = 3;
  run.tensors = {tensor(kA, {64, 64}), tensor(kC, {64, 64})};
  broker->send(MsgType::run, encode(run));

  const auto alloc = expect<MallocAsync>(*broker, MsgType::malloc_async);
  EXPECT_EQ(alloc.size, 1u << 20);
  EXPECT_EQ(alloc.stream, kHarnessStream);
  broker->send(MsgType::reply, encode(ReplyMsg{0, kWorkspace, {}}));

  const auto set = expect<Memset>(*broker, MsgType::memset);
  EXPECT_EQ(set.dst, kWorkspace);
  EXPECT_EQ(set.value, 0x5a);
  EXPECT_EQ(set.count, 4096u);
  const auto d2d = expect<MemcpyD2D>(*broker, MsgType::memcpy_d2d);
  EXPECT_EQ(d2d.dst, kWorkspace);
  EXPECT_EQ(d2d.src, kA);
  EXPECT_EQ(d2d.count, 256u);
  const auto h2d = expect<MemcpyH2D>(*broker, MsgType::memcpy_h2d);
  EXPECT_EQ(h2d.dst, kC);
  EXPECT_EQ(h2d.data, std::string("fresh inputs\0\0\0\0", 16));
  const auto d2h = expect<MemcpyD2H>(*broker, MsgType::memcpy_d2h);
  EXPECT_EQ(d2h.src, kWorkspace + 8);
  EXPECT_EQ(d2h.count, 8u);
  broker->send(MsgType::reply, encode(ReplyMsg{0, 0, "deviceB!"}));
  const auto sync = expect<StreamSync>(*broker, MsgType::stream_sync);
  EXPECT_EQ(sync.stream, kHarnessStream);
  broker->send(MsgType::reply, encode(ReplyMsg{0, 0, {}}));
  const auto freed = expect<FreeAsync>(*broker, MsgType::free_async);
  EXPECT_EQ(freed.ptr, kWorkspace);

  // A device variable written from a tensor; past its end or no variable at all stays local.
  const auto symbol = expect<MemcpyToSymbol>(*broker, MsgType::memcpy_to_symbol);
  EXPECT_EQ(symbol.symbol, "table");
  EXPECT_EQ(symbol.offset, 16u);
  EXPECT_TRUE(symbol.data.empty());
  EXPECT_EQ(symbol.src, kA);
  EXPECT_EQ(symbol.count, 32u);
  // 20 MiB of host memory in two frames.
  const auto first = expect<MemcpyH2D>(*broker, MsgType::memcpy_h2d);
  const auto second = expect<MemcpyH2D>(*broker, MsgType::memcpy_h2d);
  EXPECT_EQ(first.dst, kA);
  EXPECT_EQ(first.data.size(), 16u << 20);
  EXPECT_EQ(first.data.front(), 'b');
  EXPECT_EQ(second.dst, kA + (16u << 20));
  EXPECT_EQ(second.data.size(), 4u << 20);
  EXPECT_EQ(second.data.back(), 'e');

  // Nothing else was sent: the next frame is the report's copy.
  const auto copy = expect<MemcpyH2D>(*broker, MsgType::memcpy_h2d);
  EXPECT_EQ(copy.dst, kC);
  ASSERT_EQ(copy.data.size(), sizeof(Report));
  Report r;
  std::memcpy(&r, copy.data.data(), sizeof r);
  const int expected[16] = {0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            1 /* not an allocation */,
                            0,
                            0,
                            400 /* a destroyed event */,
                            0,
                            0,
                            1 /* past the variable */,
                            13 /* InvalidSymbol */,
                            0};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(r.codes[i], expected[i]) << "code " << i;
  EXPECT_EQ(std::string(r.back, 8), "deviceB!");
  EXPECT_EQ(r.sm_count, 132);
  EXPECT_EQ(r.max_threads, 1024);
  EXPECT_STREQ(r.error_text, "invalid argument");
  expect_frame(*broker, MsgType::call_done);

  // A second call: the workspace was freed, the tensors are the new call's.
  run.call = 4;
  broker->send(MsgType::run, encode(run));
  EXPECT_EQ(expect<MallocAsync>(*broker, MsgType::malloc_async).size, 1u << 20);
  broker->send(MsgType::reply, encode(ReplyMsg{2 /* cudaErrorMemoryAllocation */, 0, {}}));
  // Without a workspace the candidate's memset goes to address 0 (the broker refuses it).
  EXPECT_EQ(expect<Memset>(*broker, MsgType::memset).dst, 0u);
  broker->send(MsgType::quit);
  EXPECT_EQ(broker->finish().exit_code, 0);
}

}  // namespace
}  // namespace ptxbench::eval::host::testing
