#include "eval/worker/broker_calls.h"

#include <cuda.h>
#include <driver_types.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>

namespace ptxbench::eval::worker {
namespace {
namespace host = ptxbench::eval::host;
using Kind = HostRead::Kind;

// A device that records what it was asked to do, in order.
class FakeDevice : public BrokerDevice {
 public:
  std::vector<std::string> log;
  std::uint64_t next = 0x900000000ull;
  bool fail_launch = false;
  void begin_call_timing() override { log.push_back("begin"); }
  void end_call_timing() override { log.push_back("end"); }
  void launch(const host::Launch& l, const KernelInfo&) override {
    if (fail_launch) throw DeviceFailure("CUDA_ERROR_ILLEGAL_ADDRESS");
    log.push_back("launch " + l.function);
  }
  void memset(std::uint64_t, std::int32_t, std::uint64_t count) override {
    log.push_back("memset " + std::to_string(count));
  }
  void copy_h2d(std::uint64_t, const std::string& b) override {
    log.push_back("h2d " + std::to_string(b.size()));
  }
  void copy_d2d(std::uint64_t, std::uint64_t, std::uint64_t n) override {
    log.push_back("d2d " + std::to_string(n));
  }
  std::string copy_d2h(std::uint64_t, std::uint64_t n, double) override {
    log.push_back("d2h " + std::to_string(n));
    return std::string(n, '\1');
  }
  std::optional<std::uint64_t> allocate(std::uint64_t bytes) override {
    log.push_back("alloc " + std::to_string(bytes));
    const std::uint64_t p = next;
    next += bytes + 4096;
    return p;
  }
  void free(std::uint64_t) override { log.push_back("free"); }
  std::optional<DeviceRegion> symbol(const std::string& name) override {
    if (name != "table") return std::nullopt;
    return DeviceRegion{0x500000, 64, "table"};
  }
  std::int32_t set_attribute(const std::string& f, std::int32_t, std::int32_t) override {
    log.push_back("attribute " + f);
    return cudaSuccess;
  }
  std::pair<std::int32_t, std::int64_t> occupancy(const host::Occupancy&) override {
    return {cudaSuccess, 3};
  }
  int encodes = 0;
  std::pair<std::int32_t, std::string> encode(const host::EncodeTensorMap&) override {
    log.push_back("encode");
    // The first map is the one the tests name ('\7' x 128); later ones differ.
    std::string bytes(128, '\7');
    if (encodes++ > 0) std::memcpy(bytes.data(), &encodes, sizeof encodes);
    return {CUDA_SUCCESS, bytes};
  }
  std::pair<std::int32_t, std::string> replace_address(const std::string&, std::uint64_t) override {
    log.push_back("replace");
    return {CUDA_SUCCESS, std::string(128, '\10')};
  }
  void wait(double) override { log.push_back("wait"); }
};

// A host process that says what the test scripted, then nothing (a timeout).
class FakeHost : public HostLink {
 public:
  std::deque<HostRead> script;
  std::vector<host::Frame> sent;
  bool unread = false;
  std::vector<std::chrono::steady_clock::time_point> deadlines;  // of every read
  bool send(host::MsgType t, const std::string& p) override {
    sent.push_back({t, p});
    return true;
  }
  HostRead read(std::chrono::steady_clock::time_point deadline) override {
    deadlines.push_back(deadline);
    if (script.empty()) return {Kind::timed_out, {}, ""};
    HostRead r = std::move(script.front());
    script.pop_front();
    return r;
  }
  bool has_unread() override { return unread; }
  template <class T>
  void say(host::MsgType t, const T& m) {
    script.push_back({Kind::frame, {t, host::encode(m)}, ""});
  }
  void say(host::MsgType t) { script.push_back({Kind::frame, {t, ""}, ""}); }
};

constexpr std::uint64_t kA = 0x7000000000ull, kC = 0x7100000000ull;

struct Fixture : ::testing::Test {
  FakeDevice device;
  FakeHost hostp;
  std::map<std::string, KernelInfo> kernels = {
      {"gemm", KernelInfo{{{0, 8}, {8, 8}, {16, 4}}, 0}},
      {"fat_frame", KernelInfo{{{0, 8}}, 300 * 1024}},
  };
  CallExecutor exec{device, hostp, kernels, CallExecutor::Limits{1ull << 30, 132 * 2048}};
  std::vector<DeviceRegion> tensors = {{kA, 1 << 20, "input A", true},
                                       {kC, 1 << 20, "output C", false}};
  host::RunCall run;

  CallReport call() { return exec.run(run, tensors, 5); }
  static host::Launch launch(std::string fn = "gemm", std::size_t bytes = 20) {
    host::Launch l;
    l.function = std::move(fn);
    l.grid = {4, 1, 1};
    l.block = {128, 1, 1};
    l.stream = host::kHarnessStream;
    l.params = std::string(bytes, '\0');
    return l;
  }
  host::ReplyMsg reply(std::size_t i) {
    auto r = host::decode<host::ReplyMsg>(hostp.sent.at(i).payload);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : host::ReplyMsg{};
  }
};

TEST_F(Fixture, WorkRunsBetweenTheCallsEventsAfterTheEntryPointReturns) {
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::memset, host::Memset{kC, 0, 64, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::done) << r.message;
  EXPECT_TRUE(exec.timed());
  EXPECT_EQ(device.log,
            (std::vector<std::string>{"begin", "launch gemm", "launch gemm", "memset 64", "end"}));
  ASSERT_EQ(r.launches.size(), 1u);
  EXPECT_EQ(r.launches[0], (std::pair<std::string, int>{"gemm", 2}));
  EXPECT_TRUE(r.side_streams.empty());
  ASSERT_EQ(hostp.sent.size(), 1u);
  EXPECT_EQ(hostp.sent[0].type, host::MsgType::run);
}

TEST_F(Fixture, ACallWithoutWorkStillHasItsEvents) {
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(device.log, (std::vector<std::string>{"begin", "end"}));
}

TEST_F(Fixture, LaunchesTheDeviceCodeDoesNotHaveOrDoesNotFitAreRefused) {
  hostp.say(host::MsgType::launch, launch("no_such_kernel"));
  CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("lacks"), std::string::npos);
  EXPECT_FALSE(exec.timed());

  hostp.say(host::MsgType::launch, launch("gemm", 24));
  r = call();
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("24 bytes"), std::string::npos);

  host::Launch persisting = launch();
  persisting.attributes.push_back(
      {CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, std::string(host::kLaunchAttributeValueBytes, 0)});
  hostp.say(host::MsgType::launch, persisting);
  r = call();
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("launch attribute 1"), std::string::npos);

  hostp.say(host::MsgType::launch, launch("fat_frame", 8));
  r = call();
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("local-memory"), std::string::npos);
  EXPECT_TRUE(device.log.empty());
}

TEST_F(Fixture, AClusterLaunchIsAllowed) {
  host::Launch l = launch();
  l.attributes.push_back(
      {CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, std::string(host::kLaunchAttributeValueBytes, 0)});
  hostp.say(host::MsgType::launch, l);
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
}

// A call whose launches are all cooperative says so (under the SM load its grid may wait for the
// load, judge_calls); one ordinary launch beside them, or a cooperative attribute set to 0, does
// not.
TEST_F(Fixture, ACallOfCooperativeLaunchesOnlySaysSo) {
  auto cooperative = [&](std::int32_t on) {
    host::Launch l = launch();
    std::string value(host::kLaunchAttributeValueBytes, 0);
    std::memcpy(value.data(), &on, sizeof on);
    l.attributes.push_back({CU_LAUNCH_ATTRIBUTE_COOPERATIVE, value});
    return l;
  };
  int yielded = 0, ordinary = 0;  // the broker's hook (it ends the SM load before a cooperative
  exec.on_launch([&](LaunchKind kind) {  // launch and notes ordinary ones), before each launch
    if (kind != LaunchKind::cooperative) return void(++ordinary);
    device.log.push_back("yield");
    ++yielded;
  });
  hostp.say(host::MsgType::launch, cooperative(1));
  hostp.say(host::MsgType::launch, cooperative(1));
  hostp.say(host::MsgType::call_done);
  EXPECT_TRUE(call().cooperative);
  EXPECT_EQ(yielded, 2);
  const auto y = std::find(device.log.begin(), device.log.end(), "yield");
  ASSERT_NE(y, device.log.end());
  ASSERT_NE(y + 1, device.log.end());
  EXPECT_EQ(y[1].rfind("launch", 0), 0u);  // before the launch is enqueued
  hostp.say(host::MsgType::launch, cooperative(1));
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::call_done);
  EXPECT_FALSE(call().cooperative);
  hostp.say(host::MsgType::launch, cooperative(0));
  hostp.say(host::MsgType::call_done);
  EXPECT_FALSE(call().cooperative);
  EXPECT_EQ(yielded, 3);   // the one cooperative launch of the mixed call; none for attribute 0
  EXPECT_EQ(ordinary, 2);  // the mixed call's ordinary launch, and the one with attribute 0
  hostp.say(host::MsgType::call_done);  // no launch at all
  EXPECT_FALSE(call().cooperative);
}

// A launch in clusters (by its attribute or its function's compiled shape) is told apart from
// an ordinary one, so the broker can end the larger SM load's second part before it (its
// blocks must fit together in one GPC); a cooperative attribute decides over clusters.
TEST(LaunchKinds, ClustersByAttributeOrCompiledShape) {
  auto attribute = [](std::int32_t id, std::vector<std::uint32_t> words) {
    std::string value(host::kLaunchAttributeValueBytes, 0);
    std::memcpy(value.data(), words.data(), words.size() * sizeof(std::uint32_t));
    return host::LaunchAttribute{id, value};
  };
  host::Launch l = Fixture::launch();
  KernelInfo plain, compiled;
  compiled.cluster = {1, 2, 1};
  EXPECT_EQ(launch_kind(l, plain.cluster_blocks()), LaunchKind::ordinary);
  EXPECT_EQ(launch_kind(l, compiled.cluster_blocks()), LaunchKind::clustered);
  l.attributes.push_back(attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, {1, 1, 1}));
  EXPECT_EQ(launch_kind(l, plain.cluster_blocks()), LaunchKind::ordinary);  // clusters of one block
  l.attributes.back() = attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, {1, 2, 1});
  EXPECT_EQ(launch_kind(l, plain.cluster_blocks()), LaunchKind::clustered);
  l.attributes.back() = attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, {2, 2, 1});
  EXPECT_EQ(launch_kind(l, plain.cluster_blocks()), LaunchKind::wide_clusters);
  l.attributes.push_back(attribute(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, {1}));
  EXPECT_EQ(launch_kind(l, plain.cluster_blocks()), LaunchKind::cooperative);
}

// An attribute set twice in one launch is refused, naming it: the driver's choice between the
// two is undocumented, and the broker reads them (red team leak11/dup_coop_attribute.cu: 1 and
// 0 for cooperative).
TEST_F(Fixture, AnAttributeSetTwiceIsRefused) {
  host::Launch l = launch();
  for (std::int32_t on : {1, 0}) {
    std::string value(host::kLaunchAttributeValueBytes, 0);
    std::memcpy(value.data(), &on, sizeof on);
    l.attributes.push_back({CU_LAUNCH_ATTRIBUTE_COOPERATIVE, value});
  }
  hostp.say(host::MsgType::launch, l);
  hostp.say(host::MsgType::call_done);
  const CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("sets launch attribute 2 twice"), std::string::npos) << r.message;
  EXPECT_EQ(std::count(device.log.begin(), device.log.end(), "launch gemm"), 0);
}

TEST_F(Fixture, TheHookHearsALaunchInClustersBeforeItIsEnqueued) {
  std::vector<LaunchKind> heard;
  exec.on_launch([&](LaunchKind k) {
    heard.push_back(k);
    device.log.push_back("hook");
  });
  host::Launch l = launch();
  std::string dims(host::kLaunchAttributeValueBytes, 0);
  const std::uint32_t cluster[3] = {2, 1, 1};
  std::memcpy(dims.data(), cluster, sizeof cluster);
  l.attributes.push_back({CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, dims});
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::launch, l);
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(heard, (std::vector<LaunchKind>{LaunchKind::ordinary, LaunchKind::clustered}));
  const auto h = std::find(device.log.rbegin(), device.log.rend(), "hook");
  ASSERT_NE(h, device.log.rbegin());
  EXPECT_EQ((h - 1)->rfind("launch", 0), 0u);  // the launch came after its hook
}

// A cluster shape set at run time (cudaFuncSetAttribute's RequiredClusterWidth) makes the
// function's later launches clustered, as a compiled one does (red team
// leak11/runtime_cluster_width_unseen.cu: the broker read only the compiled shape).
TEST_F(Fixture, AClusterShapeSetAtRunTimeMakesLaunchesClustered) {
  std::vector<LaunchKind> heard;
  exec.on_launch([&](LaunchKind k) { heard.push_back(k); });
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::func_set_attribute,
            host::FuncSetAttribute{"gemm", CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 4});
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::func_set_attribute,
            host::FuncSetAttribute{"gemm", CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 0});
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(heard, (std::vector<LaunchKind>{LaunchKind::ordinary, LaunchKind::wide_clusters,
                                            LaunchKind::ordinary}));
}

TEST_F(Fixture, MemoryOutsideTheCallsTensorsAndWorkspaceIsRefused) {
  hostp.say(host::MsgType::memset, host::Memset{kC + (1 << 20) - 8, 0, 16, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("not inside this call's tensors"), std::string::npos);
  hostp.say(host::MsgType::memcpy_d2d, host::MemcpyD2D{kC, kA - 64, 128, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::refused);
  hostp.say(host::MsgType::memcpy_d2d, host::MemcpyD2D{kC, kA, 128, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
}

// The inputs are read-only to the kernels (worker/shared_inputs.h) and to the host's requests:
// a memset or copy that writes any byte of an input ends the call as input_written before the
// device sees it,
// whatever the copy engine would do with a read-only mapping (red team leak10/host_*_restore.cu:
// rows rewritten and restored by the host around the GEMM). Reading an input stays allowed.
TEST_F(Fixture, TheHostMayNotWriteAnInput) {
  const std::size_t before = device.log.size();
  hostp.say(host::MsgType::memset, host::Memset{kA + 4096, 0, 64, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::input_written);  // the candidate's incorrect result, not a refusal
  EXPECT_NE(r.message.find("input A: inputs are read-only"), std::string::npos) << r.message;
  hostp.say(host::MsgType::memcpy_h2d,
            host::MemcpyH2D{kA, std::string(32, '\1'), host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::input_written);
  hostp.say(host::MsgType::memcpy_d2d, host::MemcpyD2D{kA, kC, 128, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::input_written);
  // A write that starts before the input and reaches into it, and one of a huge count.
  hostp.say(host::MsgType::memset, host::Memset{kA - 64, 0, 128, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::input_written);
  hostp.say(host::MsgType::memset, host::Memset{kA - 64, 0, ~0ull, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::input_written);
  for (std::size_t i = before; i < device.log.size(); ++i)  // no write reached the device
    EXPECT_TRUE(device.log[i] == "begin" || device.log[i] == "end") << device.log[i];
  hostp.say(host::MsgType::memcpy_d2d, host::MemcpyD2D{kC, kA, 128, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);  // reading one is fine
}

// Another call's input and a range that wraps onto an input are inputs too (red team
// leak12/host_memset_kept_input.cu, host_memset_wraps_into_input.cu).
TEST_F(Fixture, AnyInputOfTheSessionIsAnInputForTheHostsWrites) {
  constexpr std::uint64_t kOtherA = 0x7200000000ull;
  exec.know_tensors({{kA, 1 << 20, "input A", true},
                     {kC, 1 << 20, "output C", false},
                     {kOtherA, 1 << 20, "input A", true}});
  hostp.say(host::MsgType::memset, host::Memset{kOtherA + 64, 0, 64, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::input_written);
  // From C's end past 2^64 onto A: wraps, so it reaches A.
  const std::uint64_t from = kC + 4096;
  hostp.say(host::MsgType::memset,
            host::Memset{from, 0, (~std::uint64_t{0} - from) + 1 + kA + 16, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::input_written);
  // Outside every tensor and not wrapping: refused, no input named.
  hostp.say(host::MsgType::memset, host::Memset{0x9000000000ull, 0, 64, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::refused);
}

TEST_F(Fixture, WorkspaceWithinTheQuotaIsTheCandidatesUntilFreed) {
  hostp.say(host::MsgType::malloc_async, host::MallocAsync{4096, host::kHarnessStream});
  hostp.say(host::MsgType::malloc_async, host::MallocAsync{2ull << 30, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  const host::ReplyMsg got = reply(1);
  EXPECT_EQ(got.status, cudaSuccess);
  EXPECT_EQ(reply(2).status, cudaErrorMemoryAllocation);
  EXPECT_EQ(exec.workspace_held(), 4096u);
  // The next call may use it (a kept workspace) and free it.
  hostp.sent.clear();
  hostp.say(host::MsgType::memset, host::Memset{got.value, 0, 4096, host::kHarnessStream});
  hostp.say(host::MsgType::free_async, host::FreeAsync{got.value, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  const CallReport kept = call();
  EXPECT_EQ(kept.end, CallEnd::done);
  EXPECT_EQ(kept.kept_bytes, 4096u);  // named in the verdict: workspace_kept
  EXPECT_EQ(exec.workspace_held(), 0u);
  hostp.say(host::MsgType::free_async, host::FreeAsync{got.value, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("not an allocation"), std::string::npos);
}

// The workspace's zeroing (the device's allocate) comes after the call's start event.
TEST_F(Fixture, AWorkspaceIsZeroedInsideTheCallsEvents) {
  hostp.say(host::MsgType::malloc_async, host::MallocAsync{4096, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(device.log, (std::vector<std::string>{"begin", "alloc 4096", "end"}));
}

TEST_F(Fixture, ASideStreamIsNotedAndItsWorkTimedLikeTheRest) {
  host::Launch l = launch();
  l.stream = 0x2;  // cudaStreamPerThread
  hostp.say(host::MsgType::launch, l);
  hostp.say(host::MsgType::call_done);
  CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::done);
  EXPECT_EQ(r.side_streams, (std::vector<std::uint64_t>{0x2}));
  EXPECT_EQ(device.log.front(), "begin");
}

TEST_F(Fixture, ACopyToTheHostStartsTheCallsTiming) {
  hostp.say(host::MsgType::memcpy_d2h, host::MemcpyD2H{kA, 32, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(device.log, (std::vector<std::string>{"begin", "d2h 32", "end"}));
  EXPECT_EQ(reply(1).bytes.size(), 32u);
  hostp.say(host::MsgType::memcpy_d2h, host::MemcpyD2H{0x1000, 32, host::kHarnessStream});
  EXPECT_EQ(call().end, CallEnd::refused);
}

TEST_F(Fixture, AnAttributeChangeComesAfterTheWorkBeforeIt) {
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::func_set_attribute, host::FuncSetAttribute{"gemm", 8, 200000});
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(device.log, (std::vector<std::string>{"begin", "launch gemm", "attribute gemm",
                                                  "launch gemm", "end"}));
}

TEST_F(Fixture, TensorMapsMustLieInsideTheCallsBuffers) {
  host::EncodeTensorMap m;
  m.data_type = 9;  // bf16
  m.rank = 2;
  m.global_dim = {256, 1024};
  m.global_strides = {512};
  m.box_dim = {64, 64};
  m.element_strides = {1, 1};
  m.global_address = kA;  // 512 * 1023 + 512 bytes: inside the 1 MiB input
  hostp.say(host::MsgType::encode_tensor_map, m);
  m.global_address = kA + (1 << 20) - 1024;  // runs past its end
  hostp.say(host::MsgType::encode_tensor_map, m);
  hostp.say(host::MsgType::replace_address, host::ReplaceAddress{std::string(128, '\7'), kC});
  hostp.say(host::MsgType::replace_address, host::ReplaceAddress{std::string(128, '\3'), kC});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(reply(1).status, CUDA_SUCCESS);
  EXPECT_EQ(reply(1).bytes.size(), 128u);
  EXPECT_EQ(reply(2).status, CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(reply(3).status, CUDA_SUCCESS);              // a map the broker encoded
  EXPECT_EQ(reply(4).status, CUDA_ERROR_INVALID_VALUE);  // one it never saw
  EXPECT_EQ(device.log, (std::vector<std::string>{"encode", "replace", "begin", "end"}));
}

TEST_F(Fixture, CopiesToASymbolStayInsideIt) {
  hostp.say(host::MsgType::memcpy_to_symbol,
            host::MemcpyToSymbol{"table", 32, std::string(32, '\1'), 0, 0, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  hostp.say(host::MsgType::memcpy_to_symbol,
            host::MemcpyToSymbol{"table", 40, std::string(32, '\1'), 0, 0, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::refused);
  hostp.say(host::MsgType::memcpy_to_symbol,
            host::MemcpyToSymbol{"other", 0, std::string(4, '\1'), 0, 0, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::refused);
}

TEST_F(Fixture, WhateverTheHostDoesWrongEndsTheCallAsTheCandidates) {
  hostp.script.push_back({Kind::garbled, {}, "a frame without the protocol's magic number"});
  EXPECT_EQ(call().end, CallEnd::host_protocol);
  hostp.script.push_back({Kind::ended, {}, "end of file"});
  EXPECT_EQ(call().end, CallEnd::host_ended);
  EXPECT_EQ(call().end, CallEnd::host_timeout);  // nothing scripted: it never returns
  hostp.say(host::MsgType::hello, host::Hello{});
  EXPECT_EQ(call().end, CallEnd::host_protocol);
  hostp.say(host::MsgType::reply, host::ReplyMsg{});
  EXPECT_EQ(call().end, CallEnd::host_protocol);
  hostp.script.push_back({Kind::frame, {host::MsgType::launch, "\1\2\3"}, ""});
  EXPECT_EQ(call().end, CallEnd::host_protocol);
  hostp.unread = true;  // frames sent between calls
  EXPECT_EQ(call().end, CallEnd::host_protocol);
}

// The host's time before its work is not GPU time: it may not hold the GPU idle for the whole
// call limit (Limits::host_seconds), and once its work began it has the call limit.
TEST_F(Fixture, TheHostsTimeBeforeItsWorkIsBounded) {
  const auto t0 = std::chrono::steady_clock::now();
  CallReport r = call();  // the host never sends anything
  EXPECT_EQ(r.end, CallEnd::host_timeout);
  EXPECT_NE(r.message.find("before the call's work began"), std::string::npos) << r.message;
  ASSERT_FALSE(hostp.deadlines.empty());
  EXPECT_LT(hostp.deadlines.back() - t0, std::chrono::milliseconds(2500));
  hostp.deadlines.clear();
  hostp.say(host::MsgType::memcpy_d2h, host::MemcpyD2H{kA, 32, host::kHarnessStream});
  r = call();  // timing began with the copy: the rest of the call limit (5 s) applies
  EXPECT_EQ(r.end, CallEnd::host_timeout);
  EXPECT_NE(r.message.find("did not return"), std::string::npos) << r.message;
  EXPECT_GT(hostp.deadlines.back() - t0, std::chrono::milliseconds(4000));
}

// The broker remembers a bounded number of encoded maps (a candidate may encode every call).
TEST_F(Fixture, RememberedTensorMapsAreBounded) {
  host::EncodeTensorMap m;
  m.data_type = 9;
  m.rank = 1;
  m.global_dim = {64};
  m.box_dim = {64};
  m.element_strides = {1};
  m.global_address = kA;
  for (std::size_t i = 0; i <= CallExecutor::kMaxTensorMaps; ++i)
    hostp.say(host::MsgType::encode_tensor_map, m);
  hostp.say(host::MsgType::replace_address, host::ReplaceAddress{std::string(128, '\7'), kC});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  // The first map was forgotten: replacing its address is refused like an unknown map's.
  EXPECT_EQ(reply(CallExecutor::kMaxTensorMaps + 2).status, CUDA_ERROR_INVALID_VALUE);
}

TEST_F(Fixture, ThrowsRefusalsAndDeviceFailuresAreReported) {
  hostp.say(host::MsgType::call_threw, host::Text{"no tuned configuration"});
  CallReport r = call();
  EXPECT_EQ(r.end, CallEnd::threw);
  EXPECT_EQ(r.message, "no tuned configuration");
  hostp.say(host::MsgType::refused_driver_function, host::Text{"cuCtxResetPersistingL2Cache"});
  r = call();
  EXPECT_EQ(r.end, CallEnd::driver_refused);
  EXPECT_EQ(r.message, "cuCtxResetPersistingL2Cache");
  device.fail_launch = true;
  hostp.say(host::MsgType::launch, launch());
  hostp.say(host::MsgType::call_done);
  r = call();
  EXPECT_EQ(r.end, CallEnd::device_failure);
  EXPECT_NE(r.message.find("ILLEGAL_ADDRESS"), std::string::npos);
}

TEST_F(Fixture, OccupancyAndAttributesOfUnknownFunctionsAreErrorsNotFailures) {
  host::Occupancy q;
  q.function = "gemm";
  q.block_size = 128;
  hostp.say(host::MsgType::occupancy, q);
  q.function = "nope";
  hostp.say(host::MsgType::occupancy, q);
  hostp.say(host::MsgType::func_set_attribute, host::FuncSetAttribute{"nope", 8, 1});
  hostp.say(host::MsgType::call_done);
  EXPECT_EQ(call().end, CallEnd::done);
  EXPECT_EQ(reply(1).value, 3u);
  EXPECT_EQ(reply(2).status, cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(reply(3).status, cudaErrorInvalidDeviceFunction);
}

// Issue 36 item 4e: what the broker can name but not refuse. A second call's buffers (another
// slot) are known to it; a launch carrying the first call's pointers or tensor maps is noted.
struct StaleFixture : Fixture {
  static constexpr std::uint64_t kA2 = 0x7200000000ull, kC2 = 0x7300000000ull;
  std::vector<DeviceRegion> other = {{kA2, 1 << 20, "input A"}, {kC2, 1 << 20, "output C"}};
  static std::map<std::string, KernelInfo> with_tma(std::map<std::string, KernelInfo> k) {
    k["tma"] = KernelInfo{{{0, 128}, {128, 8}}, 0};
    return k;
  }
  CallExecutor exec2{device, hostp, with_tma(kernels),
                     CallExecutor::Limits{1ull << 30, 132 * 2048}};
  StaleFixture() {
    std::vector<DeviceRegion> all = tensors;
    all.insert(all.end(), other.begin(), other.end());
    exec2.know_tensors(all);
  }
  static host::Launch with_pointer(std::uint64_t p, std::size_t at = 8) {
    host::Launch l = launch();
    std::memcpy(l.params.data() + at, &p, sizeof p);
    return l;
  }
};

TEST_F(StaleFixture, APointerIntoAnotherCallsTensorsIsNamed) {
  hostp.say(host::MsgType::launch, with_pointer(kC + 64));  // this call's C: fine
  hostp.say(host::MsgType::call_done);
  CallReport r = exec2.run(run, tensors, 5);
  EXPECT_EQ(r.end, CallEnd::done);
  EXPECT_TRUE(r.stale.empty());
  hostp.say(host::MsgType::launch, with_pointer(kC2 + 64));  // the other slot's C
  hostp.say(host::MsgType::call_done);
  r = exec2.run(run, tensors, 5);
  EXPECT_EQ(r.end, CallEnd::done);  // named, not refused: the outputs decide the verdict
  ASSERT_EQ(r.stale.size(), 1u);
  EXPECT_EQ(r.stale[0],
            "a launch of 'gemm': bytes 8..16 point into output C of another call, not this call's");
  EXPECT_EQ(device.log.back(), "end");
  // Memory that is no call's tensor is not "stale" (nor refused: a launch's pointers are the
  // kernel's business).
  hostp.say(host::MsgType::launch, with_pointer(0x1234000, 8));
  hostp.say(host::MsgType::call_done);
  EXPECT_TRUE(exec2.run(run, tensors, 5).stale.empty());
}

TEST_F(StaleFixture, ATensorMapOfAnEarlierCallIsNamed) {
  host::EncodeTensorMap m;
  m.data_type = 9;
  m.rank = 2;
  m.global_dim = {256, 1024};
  m.global_strides = {512};
  m.box_dim = {64, 64};
  m.element_strides = {1, 1};
  m.global_address = kA2;  // encoded in a call on the other slot
  hostp.say(host::MsgType::encode_tensor_map, m);
  hostp.say(host::MsgType::call_done);
  ASSERT_EQ(exec2.run(run, other, 5).end, CallEnd::done);
  ASSERT_EQ(reply(1).status, CUDA_SUCCESS);
  const std::string map = reply(1).bytes;
  host::Launch l = launch("tma", 136);
  l.params.replace(0, 128, map);
  hostp.say(host::MsgType::launch, l);
  hostp.say(host::MsgType::call_done);
  CallReport r = exec2.run(run, tensors, 5);  // the map kept in a static, used on this call
  EXPECT_EQ(r.end, CallEnd::done);
  ASSERT_FALSE(r.stale.empty());
  EXPECT_EQ(r.stale[0],
            "a launch of 'tma': the tensor map at bytes 0 was encoded over input A of another "
            "call, not this call's");
  // The same map used on its own call's buffers is fine.
  hostp.say(host::MsgType::launch, l);
  hostp.say(host::MsgType::call_done);
  EXPECT_TRUE(exec2.run(run, other, 5).stale.empty());
}

TEST_F(StaleFixture, ACopiedPointerTableAndACopyOfAnEarlierBufferAreNamed) {
  std::string table(64, '\0');
  const std::uint64_t p = kA2 + 8;
  std::memcpy(table.data() + 16, &p, sizeof p);
  hostp.say(host::MsgType::memcpy_h2d, host::MemcpyH2D{kC, table, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  CallReport r = exec2.run(run, tensors, 5);
  EXPECT_EQ(r.end, CallEnd::done);
  ASSERT_EQ(r.stale.size(), 1u);
  EXPECT_EQ(r.stale[0],
            "a cudaMemcpyAsync to the device: bytes 16..24 point into input A of another call, "
            "not this call's");
  // A memset of the other call's buffer stays refused, and the refusal says whose it is.
  hostp.say(host::MsgType::memset, host::Memset{kC2, 0, 64, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  r = exec2.run(run, tensors, 5);
  EXPECT_EQ(r.end, CallEnd::refused);
  EXPECT_NE(r.message.find("they are in output C of another call"), std::string::npos) << r.message;
}

// A pointer table copied to a `__device__` symbol is read as one copied to a buffer (red team
// leak6/stale_symbol_copy: that branch had no scan).
TEST_F(StaleFixture, APointerCopiedToASymbolIsNamed) {
  std::string table(32, '\0');
  const std::uint64_t p = kC2;
  std::memcpy(table.data() + 8, &p, sizeof p);
  hostp.say(host::MsgType::memcpy_to_symbol,
            host::MemcpyToSymbol{"table", 0, table, 0, 0, host::kHarnessStream});
  hostp.say(host::MsgType::call_done);
  CallReport r = exec2.run(run, tensors, 5);
  EXPECT_EQ(r.end, CallEnd::done);
  ASSERT_EQ(r.stale.size(), 1u);
  EXPECT_EQ(r.stale[0],
            "a cudaMemcpyToSymbolAsync to 'table': bytes 8..16 point into output C of another "
            "call, not this call's");
}

TEST_F(StaleFixture, TheBurstsExtrasCarryEveryCallsReport) {
  CallReport a, b;
  a.launches = {{"gemm", 2}};
  a.side_streams = {0};
  a.host_ms = 0.5;
  b.stale = {"x"};
  b.kept_bytes = 4096;
  const Json j = call_extras({a, b});
  EXPECT_EQ(j.at("launches"), Json::parse(R"([[["gemm", 2]], []])"));
  EXPECT_EQ(j.at("side_streams"), Json::parse("[[0], []]"));
  EXPECT_EQ(j.at("host_ms"), Json::parse("[0.5, 0.0]"));
  EXPECT_EQ(j.at("stale"), Json::parse(R"([[], ["x"]])"));
  EXPECT_EQ(j.at("kept_bytes"), Json::parse("[0, 4096]"));
  EXPECT_FALSE(j.contains("cooperative"));  // written only when a call's launches all were
  b.cooperative = true;
  EXPECT_EQ(call_extras({a, b}).at("cooperative"), Json::parse("[false, true]"));
}

}  // namespace
}  // namespace ptxbench::eval::worker
