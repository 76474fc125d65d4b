#include "eval/session_protocol.h"

#include <gtest/gtest.h>

#include <cmath>

#include "eval/plan.h"
#include "eval/test_support.h"

namespace ptxbench::eval {
namespace {

TEST(SessionProtocol, OpenCommandRoundTrip) {
  auto task = testing::gemm_task();
  auto plan = plan_session(task, 3, 9);
  ASSERT_TRUE(plan.ok());
  OpenCommand r = plan->verifier;
  EXPECT_EQ(r.to_json().at("op"), "open");
  auto back = OpenCommand::from_json(r.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  ASSERT_EQ(back->workloads.size(), r.workloads.size());
  EXPECT_EQ(back->workloads[0].bases[1].seed, r.workloads[0].bases[1].seed);
  EXPECT_FALSE(back->workloads[0].bases[1].keep);  // the session's own
  r.workloads[0].bases[1].keep = true;             // the run's (plan.h input_seed)
  EXPECT_TRUE(OpenCommand::from_json(r.to_json())->workloads[0].bases[1].keep);
  r.workloads[0].bases[1].keep = false;
  EXPECT_EQ(back->workloads[0].slots, kTimedSlots);
  EXPECT_TRUE(back->workloads[0].baseline);
  EXPECT_EQ(back->library_plan, gpu::LibraryPlan::fastest);
  r.library_plan = gpu::LibraryPlan::heuristic;
  EXPECT_EQ(OpenCommand::from_json(r.to_json())->library_plan, gpu::LibraryPlan::heuristic);
  EXPECT_EQ(back->library_plan_index, -1);  // the plans are timed in the session
  r.library_plan_index = 4;                 // chosen earlier in the run
  EXPECT_EQ(OpenCommand::from_json(r.to_json())->library_plan_index, 4);
  Json unknown_plan = r.to_json();
  unknown_plan["library_plan"] = "slowest";
  EXPECT_FALSE(OpenCommand::from_json(unknown_plan).ok());
  Json bad = r.to_json();
  bad["workloads"][0]["bases"] = Json::array();
  EXPECT_FALSE(OpenCommand::from_json(bad).ok());
  Json none = r.to_json();
  none["workloads"] = Json::array();
  EXPECT_FALSE(OpenCommand::from_json(none).ok());
  EXPECT_FALSE(OpenCommand::from_json(Json{{"op", "open"}}).ok());
}

// The verifier process's request holds its directory only; the sessions come as "open".
TEST(SessionProtocol, VerifierRequestIsTheProcessOnly) {
  VerifierRequest v{"/tmp/v"};
  EXPECT_EQ(v.to_json(), (Json{{"mode", "verifier"}, {"dir", "/tmp/v"}}));
  auto back = VerifierRequest::from_json(v.to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->dir, "/tmp/v");
  EXPECT_FALSE(VerifierRequest::from_json(Json{{"dir", 3}}).ok());
}

// A broker request; and the map command of the GEMM test task's first workload, one slot.
BrokerRequest gemm_broker_request() {
  BrokerRequest r;
  r.dir = "/tmp/r";
  r.candidate = "/tmp/r/candidate.so";
  return r;
}

constexpr std::uint64_t kMiB2 = std::uint64_t{2} << 20;

MapCommand gemm_map() {
  auto plan = plan_session(testing::gemm_task(), 3, 9);
  MapCommand m;
  m.workloads.push_back(
      {plan->verifier.workloads[0].problem, {{{kMiB2, kMiB2}, {"cc"}, {0, 0}, {0}}}});
  return m;
}

// Each tensor's place in its mapped allocation travels with its handle (DeviceBuffer::exported
// puts a tensor at the end of whole 2 MiB blocks); an input's allocation size travels too (its
// descriptor comes on the descriptor socket).
TEST(SessionProtocol, SlotHandlesCarryEachTensorsOffset) {
  SlotHandles h{{kMiB2, 2 * kMiB2}, {"cc"}, {2086912, 0}, {256}};
  auto back = slot_handles_from_json(h.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->input_offsets, (std::vector<std::uint64_t>{2086912, 0}));
  EXPECT_EQ(back->output_offsets, (std::vector<std::uint64_t>{256}));
  // Required, one per tensor: a tensor described at its block's start would be a harness bug.
  EXPECT_FALSE(
      slot_handles_from_json(Json{{"input_capacities", {kMiB2}}, {"outputs", {"cc"}}}).ok());
  Json short_offsets = h.to_json();
  short_offsets["input_offsets"] = Json::array({0});
  EXPECT_FALSE(slot_handles_from_json(short_offsets).ok());
  Json outside = h.to_json();  // an offset past its allocation: the verifier never sends it
  outside["input_offsets"] = Json::array({kMiB2, 0});
  EXPECT_FALSE(slot_handles_from_json(outside).ok());
  EXPECT_EQ(back->input_capacities, (std::vector<std::uint64_t>{kMiB2, 2 * kMiB2}));
  MapCommand m = gemm_map();
  m.workloads[0].slots[0] = h;
  auto map = map_from_json(m.to_json());
  ASSERT_TRUE(map.ok()) << map.error().to_string();
  EXPECT_EQ(map->workloads[0].slots[0].input_offsets[0], 2086912u);
}

TEST(SessionProtocol, BrokerRequestAndMapCarryNoSeedsOrReferences) {
  BrokerRequest r = gemm_broker_request();
  for (const Json& j : {r.to_json(), gemm_map().to_json()}) {
    const std::string text = j.dump();
    EXPECT_EQ(text.find("seed"), std::string::npos);
    EXPECT_EQ(text.find("bases"), std::string::npos);
  }
  auto back = BrokerRequest::from_json(r.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(back->sandbox);
  EXPECT_EQ(back->candidate, r.candidate);
  EXPECT_EQ(back->workspace_quota, kDefaultWorkspaceQuota);
  EXPECT_EQ(gemm_map().to_json().at("op"), "map");
  auto map = map_from_json(gemm_map().to_json());
  ASSERT_TRUE(map.ok()) << map.error().to_string();
  EXPECT_EQ(map->workloads[0].slots[0].input_capacities,
            (std::vector<std::uint64_t>{kMiB2, kMiB2}));
  EXPECT_EQ(input_descriptors(*map), 2u);  // one per input of every slot
  EXPECT_FALSE(map->inputs_writable);      // every session's broker: read-only
  MapCommand rerun = gemm_map();
  rerun.inputs_writable = true;  // only the re-run of a call that faulted
  auto back_rerun = map_from_json(rerun.to_json());
  ASSERT_TRUE(back_rerun.ok());
  EXPECT_TRUE(back_rerun->inputs_writable);
}

TEST(SessionProtocol, AMapCommandNeedsAWorkloadWithASlot) {
  EXPECT_FALSE(map_from_json(Json{{"op", "map"}, {"workloads", Json::array()}}).ok());
  Json no_slot = gemm_map().to_json();
  no_slot["workloads"][0]["slots"] = Json::array();
  EXPECT_FALSE(map_from_json(no_slot).ok());
  EXPECT_FALSE(map_from_json(Json{{"op", "map"}}).ok());
}

TEST(SessionProtocol, VerifierStatusesHaveOneNameEach) {
  for (VerifierStatus st :
       {VerifierStatus::ok, VerifierStatus::no_device, VerifierStatus::bad_request,
        VerifierStatus::library_failed, VerifierStatus::harness_error})
    EXPECT_EQ(verifier_status_from_string(to_string(st)), st);
  EXPECT_EQ(verifier_status_from_string("escape"), std::nullopt);
}

// A reply's status crosses the pipe as its name and comes back as the enum of the process that
// wrote it; a name of neither process makes the reply malformed (never a string compared later).
TEST(SessionProtocol, ReplyStatusIsTypedOnBothEnds) {
  Reply r;
  r.status = BrokerStatus::audit_error;
  auto back = Reply::parse(to_text(r.to_json()));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->status.broker(), BrokerStatus::audit_error);
  EXPECT_EQ(back->status.verifier(), std::nullopt);
  r.status = VerifierStatus::no_device;
  back = Reply::parse(to_text(r.to_json()));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->status.verifier(), VerifierStatus::no_device);
  EXPECT_EQ(back->status.broker(), std::nullopt);
  // shared names read as either process's
  r.status = BrokerStatus::harness_error;
  back = Reply::parse(to_text(r.to_json()));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->status.verifier(), VerifierStatus::harness_error);
  EXPECT_FALSE(Reply::parse(R"({"ok":false,"status":"escaped"})").ok());
  EXPECT_EQ(Reply().status, BrokerStatus::harness_error);  // a default reply blames nobody else
}

TEST(SessionProtocol, BrokerStatusesHaveOneNameEach) {
  for (BrokerStatus st :
       {BrokerStatus::ok, BrokerStatus::call_timeout, BrokerStatus::cuda_error,
        BrokerStatus::candidate_error, BrokerStatus::host_protocol, BrokerStatus::host_ended,
        BrokerStatus::refused_request, BrokerStatus::policy_refused, BrokerStatus::load_error,
        BrokerStatus::bad_request, BrokerStatus::harness_error, BrokerStatus::audit_error})
    EXPECT_EQ(broker_status_from_string(to_string(st)), st);
  EXPECT_EQ(broker_status_from_string("escape"), std::nullopt);
  BrokerRequest r = gemm_broker_request();
  Json no_candidate = r.to_json();
  no_candidate.erase("candidate");
  EXPECT_FALSE(BrokerRequest::from_json(no_candidate).ok());
  Json bogus = r.to_json();
  bogus["instrument"] = "gdb";
  EXPECT_FALSE(BrokerRequest::from_json(bogus).ok());
}

TEST(SessionProtocol, CommandsParse) {
  PrepareCommand p{1, 0, Content::repeat, 0, 0, 42};
  auto cmd = Command::parse(p.to_json().dump());
  ASSERT_TRUE(cmd.ok());
  EXPECT_EQ(cmd->op, "prepare");
  auto back = prepare_from_json(cmd->body);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->content, Content::repeat);
  EXPECT_EQ(back->poison_seed, 42u);
  EXPECT_FALSE(Command::parse("not json").ok());
  EXPECT_FALSE(Command::parse("{\"x\":1}").ok());
  Json j = p.to_json();
  j["content"] = "bogus";
  EXPECT_FALSE(prepare_from_json(j).ok());
  EXPECT_FALSE(call_from_json(Json{{"workload", "a"}}).ok());
}

// The SM load's time travels only with the load, and a negative one is refused.
TEST(SessionProtocol, TheLoadsTimeTravelsWithTheLoad) {
  CallCommand c;
  c.calls = {{0, 1}};
  c.sm_load_ms = 250;
  EXPECT_FALSE(c.to_json().contains("sm_load_ms"));  // no load, no time
  c.sm_load = true;
  auto back = call_from_json(c.to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->sm_load);
  EXPECT_DOUBLE_EQ(back->sm_load_ms, 250);
  EXPECT_EQ(back->sm_load_share, LoadShare::half);
  Json bad = c.to_json();
  bad["sm_load_ms"] = -1;
  EXPECT_FALSE(call_from_json(bad).ok());
}

// The load's share has one name each way; an unknown one is refused, none is the half.
TEST(SessionProtocol, TheLoadsShareTravelsByName) {
  for (LoadShare s : {LoadShare::half, LoadShare::most}) {
    LoadShare back = s == LoadShare::half ? LoadShare::most : LoadShare::half;
    ASSERT_TRUE(load_share_from_string(to_string(s), back));
    EXPECT_EQ(back, s);
  }
  CallCommand c;
  c.calls = {{0, 1}};
  c.sm_load = true;
  c.sm_load_share = LoadShare::most;
  EXPECT_EQ(c.to_json().at("sm_load_share"), "most");
  auto back = call_from_json(c.to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->sm_load_share, LoadShare::most);
  Json bad = c.to_json();
  bad["sm_load_share"] = "all";
  ASSERT_FALSE(call_from_json(bad).ok());
  EXPECT_NE(call_from_json(bad).error().to_string().find("sm_load_share 'all'"), std::string::npos);
  bad.erase("sm_load_share");
  EXPECT_EQ(call_from_json(bad)->sm_load_share, LoadShare::half);
}

// Every content has one name, read back to itself; only a repeat has no new inputs.
TEST(SessionProtocol, ContentsHaveOneNameEach) {
  for (Content c : {Content::transformed, Content::repeat, Content::fresh}) {
    PrepareCommand p{0, 1, c, 2, 0, 7};
    auto back = prepare_from_json(p.to_json());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->content, c);
    EXPECT_EQ(back->base, 2);
    EXPECT_EQ(new_inputs(c), c != Content::repeat);
  }
  EXPECT_STREQ(to_string(Content::fresh), "fresh");
}

TEST(SessionProtocol, ABurstsEventTimesRoundTrip) {
  Reply r;
  set_events(r, {1.5, 2.0});
  EXPECT_DOUBLE_EQ(r.event_ms, 3.5);
  auto back = Reply::parse(r.to_json().dump());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(events_of(*back), (std::vector<double>{1.5, 2.0}));
  r.extra["events_ms"] = Json::array({1.0, "x"});
  EXPECT_TRUE(events_of(r).empty());  // malformed: none
}

TEST(SessionProtocol, ACallAsksForFunctionTimesOnlyWhenSet) {
  CallCommand c;
  c.calls = {{0, 0}};
  auto plain = call_from_json(c.to_json());
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->sm_load);
  EXPECT_FALSE(plain->function_times);
  EXPECT_FALSE(c.to_json().contains("function_times"));
  c.function_times = true;
  auto timed = call_from_json(c.to_json());
  ASSERT_TRUE(timed.ok());
  EXPECT_TRUE(timed->function_times);
  EXPECT_FALSE(c.to_json().contains("sm_load"));
  c.sm_load = true;
  auto loaded = call_from_json(c.to_json());
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->sm_load);
}

TEST(SessionProtocol, FunctionTimesDropWhatIsMalformed) {
  const Json call =
      Json::array({Json::array({"k0", 1.5}), Json::array({"k1", -1.0}), Json::array({"k2"}),
                   Json::array({3, 1.0}), "x", Json::array({"k3", 0.0})});
  const auto got = function_times_of(call);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "k0");
  EXPECT_DOUBLE_EQ(got[0].second, 1.5);
  EXPECT_EQ(got[1].first, "k3");
  EXPECT_TRUE(function_times_of(Json("x")).empty());
}

TEST(SessionProtocol, ABurstNamesDistinctSlots) {
  CallCommand c;
  c.calls = {{0, 1}, {0, 0}, {2, 0}};
  auto cmd = Command::parse(c.to_json().dump());
  ASSERT_TRUE(cmd.ok());
  EXPECT_EQ(cmd->op, "call");
  auto back = call_from_json(cmd->body);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->calls.size(), 3u);
  EXPECT_EQ(back->calls[2].workload, 2);
  EXPECT_EQ(back->calls[0].slot, 1);
  EXPECT_EQ(c.to_json("noop")["op"], "noop");
  c.calls.push_back({0, 1});  // the same buffers twice: one call's outputs would be lost
  EXPECT_FALSE(call_from_json(c.to_json()).ok());
  EXPECT_FALSE(call_from_json(Json{{"calls", Json::array()}}).ok());
  auto lib = library_from_json(LibraryCommand{0, 4, 3}.to_json());
  ASSERT_TRUE(lib.ok());
  EXPECT_EQ(lib->count, 4);
  EXPECT_EQ(lib->slot, 3);
  EXPECT_FALSE(library_from_json(LibraryCommand{0, 0}.to_json()).ok());
  EXPECT_FALSE(library_from_json(LibraryCommand{0, 1, -1}.to_json()).ok());
  auto heat = heat_from_json(HeatCommand{25}.to_json());
  ASSERT_TRUE(heat.ok());
  EXPECT_EQ(heat->ms, 25);
  EXPECT_EQ(HeatCommand{25}.to_json()["op"], "heat");
  EXPECT_FALSE(heat_from_json(HeatCommand{0}.to_json()).ok());
  EXPECT_FALSE(heat_from_json(HeatCommand{std::nan("")}.to_json()).ok());
}

TEST(SessionProtocol, ReplyWithCheckRoundTrip) {
  Reply r;
  r.ok = true;
  r.status = BrokerStatus::ok;
  r.event_ms = 1.25;
  CallCheck c;
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 10;
  s.passed = true;
  c.outputs = {s};
  c.inputs_modified = {"B"};
  r.check = c;
  auto back = Reply::parse(r.to_json().dump());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_DOUBLE_EQ(back->event_ms, 1.25);
  ASSERT_TRUE(back->check);
  EXPECT_EQ(back->check->inputs_modified, std::vector<std::string>{"B"});
  EXPECT_FALSE(back->check->passed());  // modified inputs fail the call
  EXPECT_FALSE(Reply::parse("[1,2]").ok());
}

TEST(SessionProtocol, Hex) {
  const unsigned char b[4] = {0x00, 0xff, 0x12, 0xab};
  EXPECT_EQ(to_hex(b, 4), "00ff12ab");
  auto back = from_hex("00ff12AB");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->size(), 4u);
  EXPECT_EQ((*back)[3], 0xab);
  EXPECT_FALSE(from_hex("abc").ok());
  EXPECT_FALSE(from_hex("zz").ok());
}

}  // namespace
}  // namespace ptxbench::eval
