// The Evaluator and its judging session against a fake WorkerLauncher that plays the verifier
// and the broker (session_protocol.h): every command gets a scripted reply, so the whole parent
// side (planning, the call loop, early exit, failure mapping, timing, flags) is tested without
// a GPU.
#include "eval/evaluator.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <thread>

#include "core/fd_passing.h"
#include "core/fs.h"
#include "core/text.h"
#include "eval/call_failure.h"
#include "eval/plan.h"
#include "eval/sanitizer_report.h"
#include "eval/test_support.h"
#include "sandbox/refusal.h"

namespace ptxbench::eval {
namespace {

namespace fs = std::filesystem;

gpu::CompareStats stats(bool pass, std::int64_t unwritten = 0) {
  gpu::CompareStats s;
  s.tensor = "C";
  s.numel = 256 * 128;
  s.passed = pass;
  s.unwritten = unwritten;
  if (!pass) {
    s.failed = std::max<std::int64_t>(unwritten, 128);
    s.max_abs_err = 0.7;
    gpu::BadElement b;
    b.index = {255, 0};
    b.tile_row = 1;
    s.first_bad = {b};
  }
  return s;
}

Reply ok_reply(double event_ms = 0) {
  Reply r;
  r.ok = true;
  r.status = BrokerStatus::ok;
  r.event_ms = event_ms;
  return r;
}

Json repeated(int n, const Json& v) {
  Json a = Json::array();
  for (int i = 0; i < n; ++i) a.push_back(v);
  return a;
}

// What the fake processes do; the tests change the pieces they need.
struct Script {
  // verify number n (0-based, candidate and baseline calls alike) -> the check.
  std::function<CallCheck(int n, const Json& last_prepare)> verify = [](int, const Json&) {
    CallCheck c;
    c.outputs = {stats(true)};
    return c;
  };
  // call number n -> the broker's reply (nullopt: the process dies without a reply).
  std::function<std::optional<Reply>(int n)> call = [](int) { return ok_reply(2.0); };
  // set: call number n of broker process `broker` (0 = the first) -> its reply, before `call`.
  std::function<std::optional<Reply>(int broker, int n)> broker_call;
  double baseline_ms = 3.0;
  double library_best_ms = 0;  // the verifier's best of earlier sessions (0: none)
  double alone_ms = 0;         // set: the library's time once the session's broker has ended
  int sleep_call_ms = 0, sleep_baseline_ms = 0, sleep_noop_ms = 0;  // wall time per command
  std::function<int(int workload)> call_sleep_ms;  // set: a call's wall time by its workload
  // set: a call's (event ms, wall ms) by its number in its broker process and its workload
  std::function<std::pair<double, int>(int n, int workload)> call_by_workload;
  std::vector<std::vector<int>> broker_calls;  // per broker process: its calls' workloads
  std::vector<Json> broker_requests;           // per broker process: its request
  std::vector<Json> maps;                      // every broker's "map" command
  std::vector<std::size_t> map_descriptors;    // per "map": input descriptors the broker got
  bool verifier_ready = true;
  bool verifier_no_device = false;  // the verifier could not open a CUDA device (no_device)
  std::optional<ProcessResult> verifier_end;       // set: it ended so before its first reply
  int verifier_processes = 0;                      // verifier processes launched
  std::vector<std::string> verifier_ops;           // every command any verifier got, in order
  std::vector<Json> opens;                         // every verifier's "open" command
  std::vector<std::string> ends;                   // "broker ended" and "verifier closed", in order
  int verifies = 0;                                // every verifier's verify commands so far
  bool close_fails = false;                        // the verifier's "close" replies harness_error
  Json input_offsets = Json::array({2086912, 0});  // the open reply's, per slot
  // The broker's own set-up failed: it replied harness_error and ended before the parent sent
  // "map" (the parent's write then fails).
  bool broker_setup_died = false;
  std::optional<Reply> broker_ready = ok_reply();
  // The broker's instrumentation: the launches every call reports, and the audit's state.
  Json launches;  // [[function, count], ...]; null: not instrumented
  // Set: the launches of broker `broker` (0 = the session's first), instead of `launches`; its
  // audit then records the armed function only when that broker launches it.
  std::function<Json(int broker)> launches_of;
  Json side_streams;  // every call's [stream, ...]; null: none
  // [[function, ms], ...] every call asking for function times reports; null: none.
  Json function_ms;
  int function_time_calls = 0;            // calls that asked for function times
  std::set<int> function_time_workloads;  // the workloads of those calls
  std::vector<int> sm_load_workloads;     // per burst that asked for the SM load, its workload
  bool last_burst_loaded = false;         // the latest burst asked for it
  bool sm_load_fails = false;             // the broker cannot start the load
  // Every loaded burst's work outlasts its load (sm_load_outlasted), with all launches
  // cooperative or not; the loads' times asked for (sm_load_ms).
  bool sm_load_outlasted = false, cooperative = false;
  bool sm_load_bare = false;  // a launch of every loaded burst ran beside none of the load
  std::vector<double> sm_load_ms;
  std::vector<std::string> sm_load_shares;  // per loaded burst, the share asked for
  std::string armed;                        // the function the audit is armed for ("" = not armed)
  // "counters" (worker/call_counters.h): every call of the broker counted with these values.
  double counted_flops = 0, counted_tma_bytes = 0;
  int counter_ms = 0;  // per burst: the broker's range push/pop, slept and reported as counter_ms
  std::vector<std::string> armed_for;  // every arm, in order
  // Every timing-relevant command in order: {"call" or "library", slot} (a broker burst logs
  // each of its calls' slots).
  std::vector<std::pair<std::string, int>> slot_log;
  bool heat_fails = false;   // the verifier's "heat" replies library_failed
  std::string last_content;  // of the verifier's last "prepare" ("transformed" or "repeat")
  ProcessResult broker_end = [] {
    ProcessResult p;
    p.exit_code = 0;
    p.network_isolated = true;
    return p;
  }();
  // The candidate's host process: how it ended (its refusal line, its output), and how many.
  ProcessResult host_end = broker_end;
  std::function<ProcessResult(int broker)> broker_end_of;  // set: how broker `broker` ended
  // What a tool the broker runs under writes to its --log-file (in the broker's folder).
  std::string tool_log;
  int hosts = 0;
  std::vector<LaunchPipes> pipes;  // every launch's wiring, in order
  // A broker's calibration no-op, by the broker's number (0 = the first): false fails it.
  std::function<bool(int broker)> noop_ok = [](int) { return true; };
};

class FakeProcess : public WorkerProcess {
 public:
  // `descriptors`: its end of the descriptor socket (kDescriptorFd), as the real processes
  // have it: the verifier sends every slot input's descriptor on it before its "open" reply, the
  // broker takes them before "map".
  FakeProcess(Script& s, const Json& request, int& verifies, OwnedFd descriptors)
      : s_(s),
        verifier_(request.at("mode") == "verifier"),
        verifies_(verifies),
        descriptors_(std::move(descriptors)) {
    if (verifier_) {
      ++s.verifier_processes;
    } else {
      broker_ = static_cast<int>(s.broker_calls.size());
      s.broker_calls.emplace_back();
      s.broker_requests.push_back(request);  // ready once its slots are mapped ("map")
      if (s.broker_setup_died) {
        queue_.push_back(Reply{false,
                               BrokerStatus::harness_error,
                               "broker set-up: cudaErrorMemoryAllocation",
                               "",
                               0,
                               {},
                               {}});
        gone_ = true;
      }
    }
  }
  Status send(const Json& cmd) override {
    commands.push_back(cmd);
    if (gone_) return make_error("write: Broken pipe");
    const std::string op = cmd.value("op", "");
    if (op == "quit") return {};
    if (!verifier_) {
      const int burst = cmd.contains("calls") ? static_cast<int>(cmd["calls"].size()) : 0;
      if (op == "map") {
        s_.maps.push_back(cmd);
        auto m = map_from_json(cmd);
        PTXB_CHECK(m.ok(), "fake broker: a bad map");
        auto fds = receive_descriptors(descriptors_.get(), input_descriptors(*m),
                                       std::chrono::milliseconds(2000));
        s_.map_descriptors.push_back(fds.ok() ? fds->size() : 0);
        // As the real broker: no slot can be mapped without its inputs' descriptors.
        if (!fds.ok() || fds->size() != input_descriptors(*m)) {
          queue_.push_back(Reply{false,
                                 BrokerStatus::harness_error,
                                 "the inputs' descriptors: none came",
                                 "",
                                 0,
                                 {},
                                 {}});
          return {};
        }
        queue_.push_back(ok_reply());  // ready, candidate not loaded yet
      } else if (op == "noop") {
        if (!s_.noop_ok(broker_)) {
          queue_.push_back(
              Reply{false, BrokerStatus::harness_error, "cudaErrorUnknown", "", 0, {}, {}});
          return {};
        }
        if (s_.sleep_noop_ms)
          std::this_thread::sleep_for(std::chrono::milliseconds(s_.sleep_noop_ms * burst));
        Reply r = ok_reply(0.01 * burst);
        r.extra["events_ms"] = repeated(burst, 0.01);
        queue_.push_back(r);
      } else if (op == "load") {
        if (s_.broker_ready) queue_.push_back(*s_.broker_ready);
      } else if (op == "counters") {
        Reply r = ok_reply();
        Json rows = Json::array();
        for (int n = 1; n <= calls_; ++n)
          rows.push_back(Json{{"call", n},
                              {"tensor_flops", s_.counted_flops},
                              {"sparse_tensor_flops", 0},
                              {"tma_load_bytes", s_.counted_tma_bytes},
                              {"thread_instructions", 100},
                              {"hmma_instructions", 0},
                              {"dmma_instructions", 0},
                              {"imma_instructions", 0}});
        r.extra = Json{{"counted", rows}, {"error", ""}, {"unsupported", false}};
        queue_.push_back(r);
      } else if (op == "audit_arm") {
        s_.armed = cmd.value("function", "");
        s_.armed_for.push_back(s_.armed);
        queue_.push_back(ok_reply());
      } else if (op == "audit_collect") {
        Reply r = ok_reply();
        bool seen = true;  // CUPTI saw the armed function launched after arming
        if (s_.launches_of) {
          seen = false;
          for (const auto& l : s_.launches_of(broker_)) seen = seen || l.at(0) == s_.armed;
        }
        r.extra = Json{
            {"chip", "GH100"},
            {"enabled_for", seen ? s_.armed : std::string()},
            {"records", seen ? Json::array({Json::array({s_.armed, 16, 4, 128})}) : Json::array()},
            {"error", ""},
            {"error_kind", ""}};
        s_.armed.clear();
        queue_.push_back(r);
      } else {  // a burst: the first call without a reply or a failed one ends it
        int sleep_ms = s_.sleep_call_ms * burst;
        for (const auto& c : cmd.value("calls", Json::array())) {
          s_.slot_log.emplace_back("call", c.at(1).get<int>());
          s_.broker_calls[static_cast<std::size_t>(broker_)].push_back(c.at(0).get<int>());
          if (s_.call_sleep_ms) sleep_ms += s_.call_sleep_ms(c.at(0).get<int>());
        }
        Reply sum = ok_reply();
        s_.last_burst_loaded = cmd.value("sm_load", false);
        if (cmd.value("sm_load", false)) {
          s_.sm_load_workloads.push_back(cmd["calls"][0].at(0).get<int>());
          sum.extra["sm_load"] = !s_.sm_load_fails;
          s_.sm_load_ms.push_back(cmd.value("sm_load_ms", 0.0));
          s_.sm_load_shares.push_back(cmd.value("sm_load_share", std::string()));
          if (s_.sm_load_outlasted) sum.extra["sm_load_outlasted"] = true;
          if (s_.sm_load_outlasted) sum.extra["sm_load_note"] = "the load's time 140 ms";
          if (s_.cooperative) sum.extra["cooperative"] = repeated(burst, Json(true));
          if (s_.sm_load_bare) sum.extra["sm_load_bare"] = true;
        }
        if (cmd.value("function_times", false)) {
          s_.function_time_calls += burst;
          s_.function_time_workloads.insert(cmd["calls"][0].at(0).get<int>());
          if (!s_.function_ms.is_null()) sum.extra["function_ms"] = repeated(burst, s_.function_ms);
        }
        Json events = Json::array(), launches = Json::array();
        for (int i = 0; i < burst; ++i) {
          if (s_.call_by_workload) {
            const auto [ev, ms] = s_.call_by_workload(
                calls_++, cmd["calls"][static_cast<std::size_t>(i)].at(0).get<int>());
            sleep_ms += ms;
            sum.event_ms += ev;
            events.push_back(ev);
            launches.push_back(s_.launches_of ? s_.launches_of(broker_) : s_.launches);
            continue;
          }
          auto r = s_.broker_call ? s_.broker_call(broker_, calls_++) : s_.call(calls_++);
          if (!r) return {};
          if (!r->ok) {
            queue_.push_back(*r);
            return {};
          }
          sum.event_ms += r->event_ms;
          events.push_back(r->event_ms);
          launches.push_back(s_.launches_of ? s_.launches_of(broker_) : s_.launches);
        }
        sum.extra["events_ms"] = events;
        for (int i = burst; i > 0; --i) sum.extra["call_numbers"].push_back(calls_ + 1 - i);
        if (!s_.launches.is_null() || s_.launches_of) sum.extra["launches"] = launches;
        if (!s_.side_streams.is_null())
          sum.extra["side_streams"] = repeated(burst, s_.side_streams);
        if (s_.counter_ms) {  // as the broker does: the time the range took, measured
          const auto t0 = std::chrono::steady_clock::now();
          std::this_thread::sleep_for(std::chrono::milliseconds(s_.counter_ms));
          sum.extra["counter_ms"] =
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count();
        }
        if (sleep_ms) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
        queue_.push_back(sum);
      }
      return {};
    }
    s_.verifier_ops.push_back(op);
    if (op == "open") {
      s_.opens.push_back(cmd);
      if (s_.verifier_end) return {};  // no reply: it has ended
      plan_index_ = cmd.value("library_plan_index", -1);
      Reply r = ok_reply();
      const std::uint64_t mib2 = std::uint64_t{2} << 20;
      Json slot{{"input_capacities", {mib2, mib2}},
                {"outputs", {"cc"}},
                {"input_offsets", s_.input_offsets},
                {"output_offsets", Json::array({512})}};
      Json slots = Json::array();  // as many as the session asks for, per workload
      for (const auto& w : cmd.at("workloads"))
        slots.push_back(repeated(w.at("slots").get<int>(), slot));
      r.extra =
          Json{{"slots", slots}, {"provenance", {{"gpu", "NVIDIA H200"}, {"driver", "580.00"}}}};
      if (s_.verifier_ready && !s_.verifier_no_device) {  // one per input of every slot
        std::size_t n = 0;
        for (const auto& w : cmd.at("workloads")) n += 2 * w.at("slots").get<std::size_t>();
        PTXB_CHECK(
            send_descriptors(descriptors_.get(), std::vector<int>(n, descriptors_.get())).ok(),
            "fake verifier: the input descriptors");
      }
      if (!s_.verifier_ready)
        r = Reply{false, VerifierStatus::harness_error, "out of memory", "", 0, {}, {}};
      if (s_.verifier_no_device)
        r = Reply{false,
                  VerifierStatus::no_device,
                  "cudaErrorNoDevice: no CUDA-capable device is detected",
                  "opening the GPU",
                  0,
                  {},
                  {}};
      queue_.push_back(r);
      return {};
    }
    if (op == "scrub") s_.ends.push_back("slots scrubbed");
    if (op == "close") {
      s_.ends.push_back("verifier closed");
      queue_.push_back(s_.close_fails
                           ? Reply{false, VerifierStatus::harness_error, "busy", "", 0, {}, {}}
                           : Reply{true, VerifierStatus::ok, "", "", 0, {}, {{"closed", true}}});
      return {};
    }
    if (op == "heat") {
      s_.slot_log.emplace_back("heat", -1);
      queue_.push_back(
          s_.heat_fails ? Reply{false, VerifierStatus::library_failed, "no plan", "heat", 0, {}, {}}
                        : ok_reply());
      return {};
    }
    const auto slot = std::make_pair(cmd.value("workload", 0), cmd.value("slot", 0));
    if (op == "prepare") {
      prepared_[slot] = cmd;
      s_.last_content = cmd.value("content", "");
    }
    if (op == "verify") {
      Reply r = ok_reply();
      r.check = s_.verify(verifies_++, prepared_[slot]);
      queue_.push_back(r);
    } else if (op == "baseline" || op == "library") {
      const int runs = op == "library" ? cmd.value("count", 1) : 1;
      const bool alone = s_.alone_ms > 0 && !s_.ends.empty() && s_.ends.back() == "broker ended";
      const double ms = alone ? s_.alone_ms : s_.baseline_ms;
      if (op == "library") s_.slot_log.emplace_back("library", cmd.value("slot", -1));
      if (s_.sleep_baseline_ms)
        std::this_thread::sleep_for(std::chrono::milliseconds(s_.sleep_baseline_ms * runs));
      Reply r = ok_reply(ms * runs);
      // A plan given by the parent is run untimed; else this verifier "times" and picks #5.
      r.extra = Json{{"name", "cublaslt"},
                     {"description", plan_index_ < 0 ? "algo 5, timed" : "algo, reused"},
                     {"plan_index", plan_index_ < 0 ? 5 : plan_index_},
                     {"plan_timed", plan_index_ < 0},
                     {"library_best_ms", s_.library_best_ms},
                     {"events_ms", repeated(runs, ms)}};
      // The library's checked run: its check comes with the reply (on the verifier's own copy).
      if (op == "baseline" && cmd.value("check", false))
        r.check = s_.verify(verifies_++, prepared_[slot]);
      queue_.push_back(r);
    } else {
      queue_.push_back(ok_reply());
    }
    return {};
  }
  Received receive(std::chrono::milliseconds) override {
    if (queue_.empty()) return {std::nullopt, ReceiveFailure::closed, "closed"};
    Reply r = queue_.front();
    queue_.pop_front();
    return {r, ReceiveFailure::none, {}};
  }
  ProcessResult finish(std::chrono::milliseconds) override {
    if (verifier_) {
      ProcessResult p;
      p.exit_code = 0;
      return s_.verifier_end.value_or(p);
    }
    s_.ends.push_back("broker ended");
    return s_.broker_end_of ? s_.broker_end_of(broker_) : s_.broker_end;
  }
  std::vector<Json> commands;

 private:
  Script& s_;
  bool verifier_;
  int plan_index_ = -1;  // the verifier request's library_plan_index
  int broker_ = -1;      // a broker: its index in Script::broker_calls
  int& verifies_;
  OwnedFd descriptors_;
  int calls_ = 0;
  std::map<std::pair<int, int>, Json> prepared_;  // the last prepare of each (workload, slot)
  std::deque<Reply> queue_;
  bool gone_ = false;  // Script::broker_setup_died
};

// The candidate's host process: no protocol with the parent (its pipes lead to the broker,
// which the fake broker plays alone); only how it ended.
class FakeHost : public WorkerProcess {
 public:
  explicit FakeHost(Script& s) : s_(s) {}
  Status send(const Json&) override { return make_error("this child process has no command pipe"); }
  Received receive(std::chrono::milliseconds) override {
    return {std::nullopt, ReceiveFailure::closed, "closed"};
  }
  ProcessResult finish(std::chrono::milliseconds) override { return s_.host_end; }

 private:
  Script& s_;
};

class FakeLauncher : public WorkerLauncher {
 public:
  explicit FakeLauncher(Script& s) : s_(s) {}
  using WorkerLauncher::launch;
  Result<std::unique_ptr<WorkerProcess>> launch(const ProcessSpec& spec,
                                                const LaunchPipes& pipes) override {
    specs.push_back(spec);
    s_.pipes.push_back(pipes);
    for (std::size_t i = 0; i + 1 < spec.argv.size(); ++i)
      if (spec.argv[i] == "--log-file" && !s_.tool_log.empty())
        PTXB_CHECK(write_file_atomic(spec.cwd / spec.argv[i + 1], s_.tool_log).ok(),
                   "fake launcher: the tool's log");
    auto text = read_file(spec.argv.back());
    PTXB_CHECK(text.ok(), "fake launcher: no request");
    Json req = Json::parse(*text);
    requests.push_back(req);
    if (req.at("mode") == "host") {
      ++s_.hosts;
      return std::unique_ptr<WorkerProcess>(std::make_unique<FakeHost>(s_));
    }
    OwnedFd descriptors;  // its end of the descriptor socket, kept as the child would
    for (const ChildFd& f : pipes.extra)
      if (f.child_fd == kDescriptorFd) descriptors = OwnedFd(::dup(f.parent_fd));
    return std::unique_ptr<WorkerProcess>(
        std::make_unique<FakeProcess>(s_, req, s_.verifies, std::move(descriptors)));
  }
  std::vector<ProcessSpec> specs;
  std::vector<Json> requests;

 private:
  Script& s_;
};

class EvaluatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("PTXBENCH_ASSUME_GPU", "1", 1);
    auto d = TempDir::create("eval-test-");
    ASSERT_TRUE(d.ok());
    dir_ = std::make_unique<TempDir>(std::move(*d));
    paths_.root = dir_->path();
    paths_.bin_dir = dir_->path();
    std::ofstream(dir_->path() / "ptxbench-worker") << "fake";
    std::ofstream(dir_->path() / "ptxbench-host") << "fake";
    std::ofstream(dir_->path() / "k.so") << "fake";
    opts_.seed = 77;
    opts_.locate_faults = false;
    opts_.sample_budget_seconds = 0.05;
    opts_.warmup_seconds = 0;
    opts_.allow_weaker_sandbox = true;
  }
  void TearDown() override { ::unsetenv("PTXBENCH_ASSUME_GPU"); }

  EvalResult eval() {
    FakeLauncher launcher(script_);
    Evaluator e(paths_, launcher);
    EvalResult r = e.evaluate(task_, dir_->path() / "k.so", opts_);
    specs_ = launcher.specs;
    requests_ = launcher.requests;
    return r;
  }

  task::TaskSpec task_ = testing::gemm_task();
  std::unique_ptr<TempDir> dir_;
  Paths paths_;
  Script script_;
  EvalOptions opts_;
  std::vector<ProcessSpec> specs_;
  std::vector<Json> requests_;
};

// A run's shared base sets only where the candidate's process has the whole sandbox.
TEST(SessionInputSeed, SharedOnlyUnderTheWholeSandbox) {
  EvalOptions o;
  EXPECT_EQ(session_input_seed(o, false), std::nullopt);  // the default: each its own
  o.input_seed = 42;
  EXPECT_EQ(session_input_seed(o, false), 42u);
  EXPECT_EQ(session_input_seed(o, true), std::nullopt);  // a sandbox mechanism missing
  o.audit = Instrument::nvtx;                            // the broker under ncu: sockets
  EXPECT_EQ(session_input_seed(o, false), std::nullopt);
  o.audit = Instrument::cupti;
  EXPECT_EQ(session_input_seed(o, false), 42u);
}

TEST_F(EvaluatorTest, PassingCandidateIsCheckedOnEveryCallAndTimed) {
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_EQ(requests_.size(), 3u);
  EXPECT_EQ(requests_[0]["mode"], "verifier");
  EXPECT_EQ(requests_[1]["mode"], "broker");
  EXPECT_EQ(requests_[2]["mode"], "host");
  EXPECT_EQ(requests_[1].dump().find("seed"), std::string::npos);  // the broker sees no seed
  EXPECT_EQ(requests_[2].dump().find("seed"), std::string::npos);  // nor does the host
  ASSERT_EQ(specs_.size(), 3u);
  for (const auto& s : specs_) {
    EXPECT_TRUE(s.clear_env);
    EXPECT_TRUE(s.isolate_network);
  }
  // The host has no GPU: nothing of CUDA in its environment, no file it may write; its fds 3 and
  // 4 are the broker's pipes (no protocol with the parent), the broker's 5 and 6 their other ends.
  for (const auto& [k, v] : specs_[2].env) EXPECT_EQ(k.find("CUDA"), std::string::npos) << k;
  EXPECT_EQ(specs_[2].limits.file_size_bytes, 0u);
  // Each host runs its own copy of the program, in its private directory (no shared file).
  EXPECT_EQ(std::filesystem::path(specs_[2].argv[0]).parent_path(),
            std::filesystem::path(requests_[2]["dir"].get<std::string>()));
  ASSERT_EQ(script_.pipes.size(), 3u);
  EXPECT_TRUE(script_.pipes[1].protocol);
  EXPECT_FALSE(script_.pipes[2].protocol);
  ASSERT_EQ(script_.pipes[1].extra.size(), 3u);
  ASSERT_EQ(script_.pipes[2].extra.size(), 2u);
  EXPECT_EQ(script_.pipes[1].extra[0].child_fd, kBrokerFromHostFd);
  // The verifier and the broker have a descriptor socket each (the inputs' descriptors); the
  // candidate's host process none.
  ASSERT_EQ(script_.pipes[0].extra.size(), 1u);
  EXPECT_EQ(script_.pipes[0].extra[0].child_fd, kDescriptorFd);
  EXPECT_EQ(script_.pipes[1].extra[2].child_fd, kDescriptorFd);
  for (const ChildFd& f : script_.pipes[2].extra) EXPECT_NE(f.child_fd, kDescriptorFd);
  EXPECT_EQ(script_.pipes[2].extra[0].child_fd, 3);
  EXPECT_EQ(script_.pipes[2].extra[1].child_fd, 4);
  // The broker reads what the host writes: one pipe, both ends.
  EXPECT_NE(script_.pipes[1].extra[0].parent_fd, script_.pipes[2].extra[1].parent_fd);
  // The broker, which loads the candidate, loads eagerly in every session; the trusted verifier
  // lazily (worker_spec.h says why).
  EXPECT_EQ(specs_[0].env.at("CUDA_MODULE_LOADING"), "LAZY");
  EXPECT_EQ(specs_[1].env.at("CUDA_MODULE_LOADING"), "EAGER");
  auto names = [](const ProcessSpec& s) {  // the same variables, whatever their values
    std::vector<std::string> v;
    for (const auto& [k, value] : s.env) v.push_back(k);
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(names(specs_[0]), names(specs_[1]));
  EXPECT_NE(requests_[1]["candidate"], requests_[2]["library"]);  // a copy each
  EXPECT_GE(r.trials.size(), 4u);
  for (const auto& t : r.trials) EXPECT_TRUE(t.passed);
  ASSERT_TRUE(r.timing.has_value());
  EXPECT_NEAR(*r.timing->speedup, 1.5, 1e-12);
  EXPECT_EQ(r.timing->speedup_basis, SpeedupBasis::events);
  EXPECT_GT(r.phase_seconds.start, 0);  // each phase of the session timed (bench/judging_cost.py)
  EXPECT_GT(r.phase_seconds.checks, 0);
  EXPECT_GT(r.phase_seconds.timing, 0);
  EXPECT_TRUE(r.to_json().at("phase_seconds").contains("timing"));
  ASSERT_TRUE(r.timing->speedup_rel_ci95.has_value());
  EXPECT_LE(*r.timing->speedup_rel_ci95, 0.005);
  EXPECT_NE(r.timing->stop_reason.find("speedup: converged"), std::string::npos)
      << r.timing->stop_reason;
  EXPECT_GE(r.timing->verified_calls, 10);  // the timing calls are verified too
  EXPECT_EQ(r.timing->baseline_name, "cublaslt");
  EXPECT_FALSE(r.baseline_check.empty());
  EXPECT_EQ(r.seed, 77u);
  EXPECT_TRUE(r.flags.empty()) << to_string(r.flags.front());
  EXPECT_NE(r.summary().find("speedup vs baseline: 1.500x"), std::string::npos);
}

// The timed session on the CUPTI route counts every call (timed_counts.h): the first broker is
// asked to, the counters are read before the audit is armed, and the timed samples are joined to
// them.
TEST_F(EvaluatorTest, TheTimedCallsCountersAreReadBeforeTheAudit) {
  opts_.audit = Instrument::cupti;
  opts_.count_timed_calls = true;
  script_.launches = Json::array({Json::array({"k_main", 1})});
  script_.counted_flops = 3e9;
  script_.counted_tma_bytes = 5e6;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_FALSE(script_.broker_requests.empty());
  EXPECT_TRUE(script_.broker_requests[0].value("count_calls", false));
  ASSERT_TRUE(r.audit_trace && r.audit_trace->timed);
  const TimedCounts& t = *r.audit_trace->timed;
  EXPECT_TRUE(t.counted) << t.why_not;
  EXPECT_GT(t.calls, 0);
  EXPECT_GT(t.task_flops, 0);
  EXPECT_GT(t.input_bytes, 0);
  EXPECT_DOUBLE_EQ(t.min_tensor_share, 3e9 / t.task_flops);
  EXPECT_DOUBLE_EQ(t.min_tma_input_ratio, 5e6 / t.input_bytes);
}

TEST_F(EvaluatorTest, WithoutCountingNoCountersAreAskedFor) {
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1})});
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_FALSE(script_.broker_requests.empty());
  EXPECT_FALSE(script_.broker_requests[0].value("count_calls", true));
  ASSERT_TRUE(r.audit_trace);
  EXPECT_FALSE(r.audit_trace->timed.has_value());
}

// The broker is launched beside the verifier, before the slots exist: its request has none, and
// its first command maps the verifier's slots (every broker of the session gets the same).
TEST_F(EvaluatorTest, TheRunnerStartsBesideTheVerifierAndGetsTheSlotsFirst) {
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1}), Json::array({"k_tail", 1})});
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_EQ(script_.broker_requests.size(), 2u);
  for (const Json& req : script_.broker_requests) EXPECT_FALSE(req.contains("workloads"));
  ASSERT_EQ(script_.maps.size(), 2u);
  EXPECT_EQ(script_.maps[0], script_.maps[1]);
  const Json& w = script_.maps[0].at("workloads");
  ASSERT_EQ(w.size(), 6u);  // the timed workload (4 slots) and the five drawn hidden ones (1)
  EXPECT_EQ(w[0].at("slots").size(), 4u);
  EXPECT_EQ(w[1].at("slots").size(), 1u);
  const std::uint64_t mib2 = std::uint64_t{2} << 20;
  EXPECT_EQ(w[0].at("slots")[0].at("input_capacities"), (Json::array({mib2, mib2})));
  // Each broker got every slot input's descriptor from the parent before its map (two inputs a
  // slot: 4 + 5 slots), copies of what the verifier sent.
  EXPECT_EQ(script_.map_descriptors, (std::vector<std::size_t>{18, 18}));
  // Each tensor's offset in its exported block reaches the broker as the verifier gave it.
  EXPECT_EQ(w[0].at("slots")[0].at("input_offsets"), (Json::array({2086912, 0})));
  EXPECT_EQ(w[0].at("slots")[0].at("output_offsets"), (Json::array({512})));
  // Before the second broker (the audit's, for k_tail): the first ended, the slots' slack was
  // zeroed again.
  const auto scrub = std::find(script_.verifier_ops.begin(), script_.verifier_ops.end(), "scrub");
  ASSERT_NE(scrub, script_.verifier_ops.end());
  EXPECT_EQ(std::count(script_.verifier_ops.begin(), script_.verifier_ops.end(), "scrub"), 1);
  const auto scrubbed = std::find(script_.ends.begin(), script_.ends.end(), "slots scrubbed");
  ASSERT_NE(scrubbed, script_.ends.begin());
  EXPECT_EQ(*(scrubbed - 1), "broker ended");
  auto back = map_from_json(script_.maps[0]);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->workloads.size(), 6u);
}

// Slots whose offsets do not match their tensors are the verifier's fault, not the candidate's.
TEST_F(EvaluatorTest, MalformedSlotOffsetsAreAHarnessError) {
  script_.input_offsets = Json::array({0});  // two inputs, one offset
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_NE(r.message.find("the verifier's slots"), std::string::npos) << r.message;
  EXPECT_TRUE(script_.maps.empty());
}

// A verifier that cannot prepare the session leaves the broker waiting for its slots: it is told
// to quit, and the session is a harness error.
TEST_F(EvaluatorTest, AVerifierFailureStopsTheWaitingRunner) {
  script_.verifier_ready = false;
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_NE(r.message.find("could not prepare the session's inputs"), std::string::npos);
  EXPECT_NE(r.withheld.find("out of memory"), std::string::npos);  // its words: for people only
  EXPECT_EQ(script_.broker_requests.size(), 1u);
  EXPECT_TRUE(script_.maps.empty());
}

// Issue 38 (N19): a verifier that could not open a CUDA device at all says so in CUDA's words,
// which name no workload; with PTXBENCH_ASSUME_GPU=1 (set by this fixture) it names that too.
TEST_F(EvaluatorTest, NoUsableGpuIsNamedWithTheAssumedGpu) {
  script_.verifier_no_device = true;
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_EQ(r.message.find("PTXBENCH_ASSUME_GPU=1 is set, but no GPU could be used (the verifier "
                           "could not open a CUDA device: cudaErrorNoDevice: no CUDA-capable "
                           "device is detected): unset PTXBENCH_ASSUME_GPU"),
            0u)
      << r.message;
  EXPECT_TRUE(r.withheld.empty());  // nothing in it is kept from the model
  EXPECT_TRUE(script_.maps.empty());
  // A verifier the loader could not start (no NVIDIA driver installed): the same, in its words.
  script_.verifier_no_device = false;
  script_.verifier_end = ProcessResult{};
  script_.verifier_end->exit_code = 127;
  script_.verifier_end->stderr_text =
      "ptxbench-worker: error while loading shared libraries: libcuda.so.1: cannot open shared "
      "object file: No such file or directory\n";
  r = eval();
  EXPECT_EQ(r.message.find("PTXBENCH_ASSUME_GPU=1 is set, but no GPU could be used (the verifier "
                           "could not open a CUDA device: the NVIDIA driver's library "
                           "libcuda.so.1 cannot be loaded): unset PTXBENCH_ASSUME_GPU"),
            0u)
      << r.message;
  // Any other end before its reply is the verifier's failure, its words kept from the model.
  script_.verifier_end->exit_code = 3;
  r = eval();
  EXPECT_NE(r.message.find("could not prepare the session's inputs"), std::string::npos);
}

// The library walks its private buffer sets in the candidate's order: each library run of a
// timing round uses the slot of that round's candidate call (session_protocol.h says why).
TEST_F(EvaluatorTest, TheLibraryRotatesOverItsBufferSetsLikeTheCandidate) {
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  int libraries = 0;
  std::set<int> slots;
  for (std::size_t i = 0; i < script_.slot_log.size(); ++i) {
    const auto& [what, slot] = script_.slot_log[i];
    if (what != "library") continue;
    ASSERT_GT(i, 0u);
    EXPECT_EQ(script_.slot_log[i - 1], std::make_pair(std::string("call"), slot)) << i;
    slots.insert(slot);
    ++libraries;
  }
  EXPECT_GE(libraries, 10);
  EXPECT_GT(slots.size(), 1u);  // not one warm set
}

// With a sustained load, every burst of the candidate's calls (checks, timing, audit) follows
// the library's load, so no call starts on a cooler GPU than another (HeatCommand).
TEST_F(EvaluatorTest, ASustainedLoadPrecedesEveryBurstOfTheCandidate) {
  opts_.sustained_load_ms = 5;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  int bursts = 0;
  for (std::size_t i = 0; i < script_.slot_log.size(); ++i) {
    if (script_.slot_log[i].first != "call" || (i > 0 && script_.slot_log[i - 1].first == "call"))
      continue;  // the first call of each burst
    ASSERT_GT(i, 0u);
    EXPECT_EQ(script_.slot_log[i - 1].first, "heat") << i;
    ++bursts;
  }
  EXPECT_GE(bursts, 10);
  ASSERT_TRUE(r.timing.has_value());
  EXPECT_EQ(r.timing->sustained_load_ms, 5);
}

TEST_F(EvaluatorTest, WithoutASustainedLoadNoHeatIsAsked) {
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  for (const auto& [what, slot] : script_.slot_log) EXPECT_NE(what, "heat");
  EXPECT_EQ(r.timing->sustained_load_ms, 0);
}

TEST_F(EvaluatorTest, ALibraryThatCannotHeatLeavesTheSessionGoingWithoutIt) {
  opts_.sustained_load_ms = 5;
  script_.heat_fails = true;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  int heats = 0;
  for (const auto& [what, slot] : script_.slot_log) heats += what == "heat";
  EXPECT_EQ(heats, 1);  // asked once, then never again
  EXPECT_EQ(r.timing->sustained_load_ms, 0);
}

// The audit (audit_trace.h): calls of the same session, after timing, on the timed and the
// audit workload; the first kernel function in the session's broker, every further one in a
// broker of its own; every launch of the audited calls counted.
TEST_F(EvaluatorTest, AuditedCallsAreCallsOfTheSessionAndEachFunctionHasItsRunner) {
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1}), Json::array({"k_tail", 2})});
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  // verifier, the session's broker and host, one more pair for k_tail
  ASSERT_EQ(requests_.size(), 5u);
  EXPECT_EQ(requests_[1]["instrument"], "cupti");
  EXPECT_EQ(requests_[3]["mode"], "broker");
  EXPECT_EQ(requests_[4]["mode"], "host");
  EXPECT_NE(requests_[1]["dir"], requests_[3]["dir"]);  // fresh private directories
  EXPECT_NE(requests_[2]["dir"], requests_[4]["dir"]);
  EXPECT_EQ(script_.armed_for, (std::vector<std::string>{"k_main", "k_tail"}));
  ASSERT_TRUE(r.audit_trace.has_value());
  const AuditTrace& t = *r.audit_trace;
  EXPECT_EQ(t.route, Instrument::cupti);
  EXPECT_EQ(t.brokers, 2);
  ASSERT_EQ(t.workloads.size(), 2u);  // the timed workload and the drawn audit workload
  EXPECT_EQ(t.workloads[0], "timed");
  ASSERT_EQ(t.functions.size(), 2u);
  EXPECT_EQ(t.functions[0].name, "k_main");
  EXPECT_EQ(t.functions[0].launches, 2);  // 1 per call, 2 audited calls
  EXPECT_EQ(t.functions[1].launches, 4);
  for (const auto& f : t.functions) {
    EXPECT_TRUE(f.recorded) << f.note;
    EXPECT_EQ(f.pcs.at(16).thread_pred_on, 128u);
  }
}

// 28 kernel functions (shared/cases/oracle/audit_runner_per_function.cu): the broker's times
// choose what is audited, and every other function is listed with its share and why. One
// carrying 99% of the time: it alone, in the session's broker. 28 equal: the largest only (no
// credit is possible within kMaxAuditedFunctions), also without a further broker.
TEST_F(EvaluatorTest, TheAuditInstrumentsOnlyTheFunctionsCarryingTheWork) {
  opts_.audit = Instrument::cupti;
  auto functions = [&](double main_ms, double other_ms) {
    script_.launches = Json::array();
    script_.function_ms = Json::array();
    for (int i = 0; i < 28; ++i) {
      const std::string f = "k" + std::to_string(i);
      script_.launches.push_back(Json::array({f, 1}));
      script_.function_ms.push_back(Json::array({f, i == 8 ? main_ms : other_ms}));
    }
  };
  functions(0.99, 0.01 / 27);
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  // The checked calls on the timed workload ask for the times; timing samples, audited calls and
  // the hidden checks do not: a burst with an event around every launch serialises programmatic
  // dependent launches, so a race between them would never show on the hidden shapes (red team
  // leak6/pdl_race_hidden.cu).
  EXPECT_GT(script_.function_time_calls, 0);
  EXPECT_LT(script_.function_time_calls, static_cast<int>(r.trials.size()));
  EXPECT_EQ(script_.function_time_workloads, std::set<int>{0});
  ASSERT_TRUE(r.audit_trace.has_value());
  const AuditTrace& t = *r.audit_trace;
  EXPECT_EQ(t.brokers, 1);
  EXPECT_EQ(script_.armed_for, (std::vector<std::string>{"k8"}));
  ASSERT_EQ(t.functions.size(), 1u);
  EXPECT_NEAR(t.functions[0].share, 0.99, 1e-9);
  EXPECT_TRUE(t.shares_measured);
  ASSERT_EQ(t.skipped.size(), 27u);
  for (const auto& s : t.skipped) {
    EXPECT_EQ(s.why, AuditSkip::small_share) << s.name;
    EXPECT_NEAR(s.share, 0.01 / 27, 1e-9) << s.name;
  }
  script_.armed_for.clear();
  script_.function_time_calls = 0;
  functions(1, 1);
  r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.audit_trace.has_value());
  EXPECT_EQ(r.audit_trace->brokers, 1);
  EXPECT_EQ(script_.armed_for, (std::vector<std::string>{"k0"}));
  EXPECT_EQ(r.audit_trace->skipped.size(), 27u);
  EXPECT_EQ(r.audit_trace->skipped.back().why, AuditSkip::unreachable);
  EXPECT_NEAR(r.audit_trace->audited_share, 1.0 / 28, 1e-9);
}

// A function is audited in its own broker, and its launches are that broker's: a host that
// launches another function in a fresh process (lk_whole instead of lk_bottom) leaves the armed
// one never launched there, which earns its share nothing and sends nobody to Nsight Compute
// (red team of 2026-12-06, leak3/ncu_fallback_token_credit.cu); the function run instead was
// launched only in audited calls: no_time.
TEST_F(EvaluatorTest, AFunctionsLaunchesAreThoseOfItsOwnAuditBroker) {
  opts_.audit = Instrument::cupti;
  script_.launches_of = [](int broker) {
    return Json::array({Json::array({"lk_top", 1}),
                        Json::array({broker == 0 ? "lk_bottom" : "lk_whole", 1}),
                        Json::array({"lk_token", 1})});
  };
  script_.function_ms = Json::array({Json::array({"lk_top", 0.5}), Json::array({"lk_bottom", 0.5}),
                                     Json::array({"lk_token", 0.001})});
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_EQ(script_.armed_for, (std::vector<std::string>{"lk_top", "lk_bottom"}));
  ASSERT_TRUE(r.audit_trace.has_value());
  const AuditTrace& t = *r.audit_trace;
  ASSERT_EQ(t.functions.size(), 2u);
  EXPECT_EQ(t.functions[0].launches, 2);
  EXPECT_TRUE(t.functions[0].recorded);
  EXPECT_EQ(t.functions[1].name, "lk_bottom");
  EXPECT_EQ(t.functions[1].launches, 0);  // its own broker never launched it
  EXPECT_FALSE(t.functions[1].recorded);
  EXPECT_EQ(t.functions[1].note, kNotLaunchedInAuditedCalls);
  auto whole = std::find_if(t.skipped.begin(), t.skipped.end(),
                            [](const SkippedFunction& s) { return s.name == "lk_whole"; });
  ASSERT_NE(whole, t.skipped.end());
  EXPECT_EQ(whole->why, AuditSkip::no_time);
}

// The Nsight Compute route chooses the functions as the CUPTI route does, from the session's
// own measured times: the trace carries them and their shares, so the audit's share rule holds
// there too (leak3/ncu_route_no_share_rule.cu).
TEST_F(EvaluatorTest, TheNcuRouteChoosesTheFunctionsByTheirMeasuredShare) {
  ::setenv("PTXBENCH_NCU", "/bin/true", 1);  // never run: the launcher is fake
  opts_.audit = Instrument::nvtx;
  opts_.timing = false;
  script_.launches = Json::array({Json::array({"k_main", 1}), Json::array({"lk_token", 1})});
  script_.function_ms =
      Json::array({Json::array({"k_main", 0.99}), Json::array({"lk_token", 0.01})});
  EvalResult r = eval();
  ::unsetenv("PTXBENCH_NCU");
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.audit_trace.has_value());
  const AuditTrace& t = *r.audit_trace;
  EXPECT_EQ(t.route, Instrument::nvtx);
  EXPECT_TRUE(t.shares_measured);
  ASSERT_EQ(t.functions.size(), 1u);
  EXPECT_EQ(t.functions[0].name, "k_main");
  EXPECT_NEAR(t.functions[0].share, 0.99, 1e-9);
  EXPECT_EQ(t.functions[0].launches, 2);
  ASSERT_EQ(t.skipped.size(), 1u);
  EXPECT_EQ(t.skipped[0].name, "lk_token");
  EXPECT_EQ(t.skipped[0].why, AuditSkip::small_share);
}

// --timeline: every round trip of the session as a span, in its phase; none unless asked for.
TEST_F(EvaluatorTest, TheTimelineHasEveryRoundTripInItsPhaseWhenAskedFor) {
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1}), Json::array({"k_tail", 2})});
  EvalResult plain = eval();
  ASSERT_EQ(plain.outcome, Outcome::passed) << plain.message;
  EXPECT_TRUE(plain.timeline.empty());
  EXPECT_FALSE(plain.to_json().contains("timeline"));
  opts_.timeline = true;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  std::map<std::pair<SessionPhase, SpanKind>, int> n;
  double last_at = -1;
  for (const TimelineSpan& s : r.timeline) {
    ++n[{s.phase, s.kind}];
    EXPECT_GE(s.ms, 0);
    EXPECT_GE(s.at_ms, last_at);  // in the order they started
    last_at = s.at_ms;
  }
  using P = SessionPhase;
  using K = SpanKind;
  EXPECT_EQ((n[{P::start, K::verifier_start}]), 1);
  EXPECT_EQ((n[{P::start, K::broker_start}]), 1);
  EXPECT_EQ((n[{P::checks, K::candidate_call}]), (n[{P::checks, K::verify}]));
  EXPECT_EQ((n[{P::checks, K::candidate_call}]), (n[{P::checks, K::prepare}]));
  EXPECT_GE((n[{P::checks, K::candidate_call}]), 4);
  EXPECT_GE((n[{P::timing, K::library}]), 10);
  EXPECT_GE((n[{P::timing, K::candidate_call}]), 10);
  EXPECT_EQ((n[{P::audit, K::broker_start}]), 1);   // k_tail's broker
  EXPECT_EQ((n[{P::audit, K::broker_stop}]), 1);    // the session's broker, for it
  EXPECT_EQ((n[{P::audit, K::audit_command}]), 4);  // arm and collect, twice
  EXPECT_EQ((n[{P::end, K::broker_stop}]), 1);
  EXPECT_EQ((n[{P::end, K::verifier_stop}]), 1);
  const Json j = r.to_json().at("timeline");
  ASSERT_EQ(j.size(), r.timeline.size());
  EXPECT_EQ(j[0][1], "verifier_start");
}

TEST_F(EvaluatorTest, AWrongOutputInAnAuditedCallMakesTheCandidateIncorrect) {
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1})});
  Script& s = script_;
  int audited_verifies = 0;
  script_.verify = [&s, &audited_verifies](int, const Json&) {
    CallCheck c;  // the first audited call is wrong (the library's re-check on it is right)
    c.outputs = {stats(s.armed.empty() || audited_verifies++ > 0)};
    return c;
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_NE(r.phase.find("audited call"), std::string::npos) << r.phase;
}

// A candidate far slower than the library gets only the timing its feedback needs.
TEST_F(EvaluatorTest, AFarSlowerCandidateStopsTimingEarly) {
  script_.call = [](int n) -> std::optional<Reply> {
    return ok_reply(20.0 * (1 + 0.05 * (n % 3 - 1)));
  };
  opts_.sample_budget_seconds = 30;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.timing && r.timing->speedup);
  EXPECT_LT(*r.timing->speedup, 0.5);
  EXPECT_NE(r.timing->stop_reason.find("speedup: slow"), std::string::npos)
      << r.timing->stop_reason;
  EXPECT_LE(r.timing->candidate.n, 12u);
}

// Known slow from its checked calls (0.15x against the library's opening check): no warm-up, no
// timing call with new inputs; the library timed on its own and the closing repeats, which
// with the checked repeat make kMinRepeatsKnownSlow.
TEST_F(EvaluatorTest, ACandidateKnownSlowFromItsChecksIsTimedOnThem) {
  script_.call = [](int n) -> std::optional<Reply> {
    return ok_reply(20.0 * (1 + 0.01 * (n % 3)));
  };
  opts_.warmup_seconds = 1;
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1})});
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.timing && r.timing->speedup);
  EXPECT_NEAR(*r.timing->speedup, 3.0 / 20.1, 0.005);
  EXPECT_NE(r.timing->stop_reason.find("speedup: slow, from 5 checked calls"), std::string::npos)
      << r.timing->stop_reason;
  // The calls' event times cycle with the broker's call index (n % 3), so where the closing
  // repeats fall decides whether one round of them is enough: with the session's checks (the
  // last under the SM load) the first repeat lands on a slow slot and a second is made.
  EXPECT_NE(r.timing->stop_reason.find("then 2 repeat call(s), to 2"), std::string::npos)
      << r.timing->stop_reason;
  EXPECT_EQ(r.phase_seconds.warmup_rounds, 0);
  EXPECT_EQ(r.phase_seconds.sampled_rounds, 2);
  EXPECT_EQ(r.timing->candidate.n, 5u);  // the checked calls with new inputs after the first
  EXPECT_EQ(r.timing->baseline.n, 5u);   // 3 on its own, one per closing round
  EXPECT_TRUE(r.audit_trace.has_value());
}

// A kernel too slow on the timed workload to audit there (150 ms a call: about 45 s under
// instrumentation) is audited on the hidden workload only; the broker of its second kernel
// function makes its one ordinary call there too, not on the slow timed workload.
TEST_F(EvaluatorTest, AnAuditRunnersFirstCallIsOnTheAuditedWorkload) {
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1}), Json::array({"k_tail", 1})});
  script_.call_sleep_ms = [](int workload) { return workload == 0 ? 150 : 5; };
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.audit_trace.has_value());
  ASSERT_EQ(r.audit_trace->workloads.size(), 1u);
  EXPECT_NE(r.audit_trace->workloads[0], "timed");
  ASSERT_EQ(script_.broker_calls.size(), 2u);  // the session's broker, one for k_tail
  const std::vector<int>& second = script_.broker_calls[1];
  ASSERT_EQ(second.size(), 2u);  // the ordinary call, the audited one
  EXPECT_NE(second[0], 0);
  EXPECT_EQ(second[0], second[1]);
}

// The session's workloads as plan_session draws them under the fixture's seed: their names by
// index, and the index of the largest other hidden workload than the audit one, by FLOPs.
struct DrawnWorkloads {
  std::vector<std::string> names;
  int audit = 0, largest_other = 0;
};
DrawnWorkloads drawn_workloads(const task::TaskSpec& task, const EvalOptions& o) {
  auto plan = plan_session(task, o.trials, *o.seed, "", o.input_seed);
  PTXB_CHECK(plan.ok(), "the test task plans");
  DrawnWorkloads d;
  d.audit = plan->audit_workload;
  for (const auto& w : plan->verifier.workloads) d.names.push_back(w.problem.workload);
  for (std::size_t w = 1; w < d.names.size(); ++w)
    if (static_cast<int>(w) != d.audit &&
        (d.largest_other == 0 ||
         plan->workload_flops[w] > plan->workload_flops[static_cast<std::size_t>(d.largest_other)]))
      d.largest_other = static_cast<int>(w);
  return d;
}

// A kernel whose audited call on the audit workload (2 ms a call, about 0.6 s under
// instrumentation) would pass kAuditWorkloadBudgetSeconds is audited on the largest other hidden
// workload where it would not (1 ms); the audit says so. Its timed workload (150 ms) is too slow
// to audit at all.
TEST_F(EvaluatorTest, ATooSlowAuditWorkloadMovesToTheLargestHiddenOneThatFits) {
  opts_.audit = Instrument::cupti;
  const DrawnWorkloads d = drawn_workloads(task_, opts_);
  ASSERT_EQ(d.names.size(), 6u);
  ASSERT_EQ(d.names[static_cast<std::size_t>(d.audit)], "hidden_audit");
  script_.launches = Json::array({Json::array({"k_main", 1})});
  // The others 0 ms: at 1 ms (300 ms instrumented, against the 0.5 s budget) a loaded CPU
  // pushed one past it and the test failed by chance (ctest -j2, 2026-12-08).
  script_.call_sleep_ms = [a = d.audit](int w) { return w == 0 ? 150 : w == a ? 2 : 0; };
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.audit_trace.has_value());
  const std::string& moved = d.names[static_cast<std::size_t>(d.largest_other)];
  EXPECT_EQ(r.audit_trace->workloads, std::vector<std::string>{moved});
  const auto& m = r.audit_trace->messages;
  EXPECT_NE(std::find_if(m.begin(), m.end(),
                         [&](const std::string& s) {
                           return s.find(moved + " audited instead of hidden_audit") !=
                                  std::string::npos;
                         }),
            m.end());
}

// A kernel fast on the timed shape but slow on the untimed hidden calls (5 ms on the audit
// workload, 120 ms on the others: a fallback path, or a sleep) cannot move the audit off its
// workload nor drop it: the estimate of a hidden workload never exceeds the timed calls' scaled
// by FLOPs (review of 2026-12-01, eighth session).
TEST_F(EvaluatorTest, SlowHiddenCallsDoNotSteerTheAudit) {
  opts_.audit = Instrument::cupti;
  const DrawnWorkloads d = drawn_workloads(task_, opts_);
  script_.launches = Json::array({Json::array({"k_main", 1})});
  for (const int others_ms : {0, 120}) {
    script_.call_sleep_ms = [others_ms, a = d.audit](int w) {
      return w == 0 ? 0 : w == a ? 5 : others_ms;
    };
    EvalResult r = eval();
    ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
    ASSERT_TRUE(r.audit_trace.has_value());
    EXPECT_EQ(r.audit_trace->workloads, (std::vector<std::string>{"timed", "hidden_audit"}))
        << others_ms;
  }
}

// A fast kernel keeps the audit workload (and the timed one).
TEST_F(EvaluatorTest, AFastKernelIsAuditedOnTheDrawnAuditWorkload) {
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array({Json::array({"k_main", 1})});
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.audit_trace.has_value());
  EXPECT_EQ(r.audit_trace->workloads, (std::vector<std::string>{"timed", "hidden_audit"}));
}

// The library's plan is timed in the run's first session and reused by the next: the second
// verifier is told the index the first chose, and its report says the plan was not re-timed.
TEST_F(EvaluatorTest, TheLibraryPlanIsChosenOnceARun) {
  opts_.library_choices = std::make_shared<LibraryChoices>();
  EvalResult first = eval();
  ASSERT_EQ(first.outcome, Outcome::passed) << first.message;
  ASSERT_EQ(script_.opens.size(), 1u);
  EXPECT_EQ(script_.opens.back().value("library_plan_index", 0), -1);
  EXPECT_EQ(first.timing->baseline_description, "algo 5, timed");
  EXPECT_EQ(opts_.library_choices->size(), 1u);
  EvalResult second = eval();
  ASSERT_EQ(second.outcome, Outcome::passed) << second.message;
  EXPECT_EQ(script_.opens.back().value("library_plan_index", 0), 5);
  EXPECT_EQ(second.timing->baseline_description, "algo, reused");
  // Without a run's choices, every session times the plans itself.
  opts_.library_choices.reset();
  eval();
  EXPECT_EQ(script_.opens.back().value("library_plan_index", 0), -1);
}

// A run's sessions share one warm verifier per GPU (verifier_host.h): the second session opens
// its own in the first one's process, after the first closed its session, and only once that
// session's brokers had ended. The hosted verifier's process limit is the host's.
TEST_F(EvaluatorTest, ARunsSessionsShareAWarmVerifier) {
  opts_.verifier_host = std::make_shared<VerifierHost>();
  EvalResult first = eval();
  ASSERT_EQ(first.outcome, Outcome::passed) << first.message;
  EXPECT_EQ(first.verifier_session, 1);
  EXPECT_EQ(specs_.at(0).limits.wall, std::chrono::seconds(VerifierHost::kHostedVerifierWall));
  EXPECT_EQ(opts_.verifier_host->warm(), 1u);
  opts_.seed = 78;  // a run draws each session's seed
  EvalResult second = eval();
  ASSERT_EQ(second.outcome, Outcome::passed) << second.message;
  EXPECT_EQ(second.verifier_session, 2);
  EXPECT_EQ(second.to_json().at("verifier_session"), 2);
  EXPECT_EQ(script_.verifier_processes, 1);
  ASSERT_EQ(requests_.size(), 2u);  // this session launched its broker and host only
  EXPECT_EQ(requests_[0]["mode"], "broker");
  EXPECT_EQ(requests_[1]["mode"], "host");
  ASSERT_EQ(script_.opens.size(), 2u);
  EXPECT_NE(script_.opens[0], script_.opens[1]);  // the session's own inputs
  std::vector<std::string> session_ops;
  for (const auto& op : script_.verifier_ops)
    if (op == "open" || op == "close") session_ops.push_back(op);
  EXPECT_EQ(session_ops, (std::vector<std::string>{"open", "close", "open", "close"}));
  ASSERT_FALSE(script_.ends.empty());
  EXPECT_EQ(script_.ends.back(), "verifier closed");
  EXPECT_EQ(std::count(script_.ends.begin(), script_.ends.end(), "verifier closed"), 2);
  for (std::size_t i = 1; i < script_.ends.size(); ++i) {  // each close after a broker's end
    if (script_.ends[i] == "verifier closed") {
      EXPECT_EQ(script_.ends[i - 1], "broker ended");
    }
  }
}

// A verifier whose session failed on the harness's side, or that did not answer "close", is
// never given back: the next session starts a new process. Without a host every session quits
// its own.
TEST_F(EvaluatorTest, AVerifierIsGivenBackOnlyAfterAClosedSession) {
  opts_.verifier_host = std::make_shared<VerifierHost>();
  script_.close_fails = true;
  ASSERT_EQ(eval().outcome, Outcome::passed);
  EXPECT_EQ(opts_.verifier_host->warm(), 0u);
  script_.close_fails = false;
  script_.verifier_ready = false;  // the session's open fails: a harness error, no close
  EXPECT_EQ(eval().outcome, Outcome::harness_error);
  EXPECT_EQ(opts_.verifier_host->warm(), 0u);
  EXPECT_EQ(std::count(script_.verifier_ops.begin(), script_.verifier_ops.end(), "close"), 1);
  script_.verifier_ready = true;
  ASSERT_EQ(eval().outcome, Outcome::passed);
  EXPECT_EQ(script_.verifier_processes, 3);
  EXPECT_EQ(opts_.verifier_host->warm(), 1u);
  opts_.verifier_host.reset();
  ASSERT_EQ(eval().outcome, Outcome::passed);
  EXPECT_EQ(script_.verifier_processes, 4);
  EXPECT_EQ(std::count(script_.verifier_ops.begin(), script_.verifier_ops.end(), "close"), 2);
}

// A session whose broker runs under a tool (here compute-sanitizer's memcheck session) starts a
// verifier of its own (the tool's end is not its broker's, so that verifier is never given
// back) and leaves the run's warm one, with the library baselines and base sets it keeps, to the
// next session.
TEST_F(EvaluatorTest, ASessionWithARunnerUnderAToolLeavesTheWarmVerifierAlone) {
  opts_.verifier_host = std::make_shared<VerifierHost>();
  opts_.memcheck = true;
  ::setenv("PTXBENCH_COMPUTE_SANITIZER", "/bin/true", 1);  // never run: the launcher is fake
  EvalResult r = eval();
  ::unsetenv("PTXBENCH_COMPUTE_SANITIZER");
  ASSERT_TRUE(r.memcheck_ran);
  EXPECT_EQ(script_.verifier_processes, 2);  // the judging session's, then the memcheck one's
  EXPECT_EQ(std::count(script_.verifier_ops.begin(), script_.verifier_ops.end(), "close"), 1);
  EXPECT_EQ(opts_.verifier_host->warm(), 1u);  // the first, given back and not taken again
  const auto hosted_limit = std::chrono::seconds(VerifierHost::kHostedVerifierWall);
  EXPECT_EQ(std::count_if(specs_.begin(), specs_.end(),
                          [&](const ProcessSpec& s) { return s.limits.wall == hosted_limit; }),
            1);  // only the hosted one has the host's limit
  opts_.memcheck = false;
  ASSERT_EQ(eval().verifier_session, 2);  // the next session: the warm one
}

// The memcheck session is the candidate's too (Evaluator::adopt_memcheck_failure): a call
// that never finishes under compute-sanitizer ends the pass (red team of 2026-12-06,
// words/memcheck_hang_when_instrumented.cu); errors the sanitizer saw before it count first
// (its exit status); a trusted side that fails under the tool leaves the verdict with a note.
class MemcheckSessionTest : public EvaluatorTest {
 protected:
  void SetUp() override {
    EvaluatorTest::SetUp();
    opts_.memcheck = true;
    ::setenv("PTXBENCH_COMPUTE_SANITIZER", "/bin/true", 1);  // never run: the launcher is fake
  }
  void TearDown() override { ::unsetenv("PTXBENCH_COMPUTE_SANITIZER"); }
  // The memcheck session's broker is the second one (a passing session starts one).
  static constexpr int kMemcheckBroker = 1;
  // The memcheck session's broker (the sanitizer's process) ends with `code`, printing `text`.
  void memcheck_broker_ends(int code, std::string text = {}) {
    script_.broker_end_of = [this, code, text](int broker) {
      ProcessResult p = script_.broker_end;
      if (broker == kMemcheckBroker) {
        p.exit_code = code;
        p.stderr_text = text;
      }
      return p;
    };
  }
  void memcheck_call_replies(BrokerStatus status) {
    script_.broker_call = [status](int broker, int) -> std::optional<Reply> {
      if (broker != kMemcheckBroker) return ok_reply(2.0);
      return Reply{false, status, "under the tool", "", 0, {}, {}};
    };
  }
};

TEST_F(MemcheckSessionTest, ACleanMemcheckSessionKeepsThePass) {
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.memcheck_ran);
  EXPECT_EQ(script_.broker_calls.size(), 2u);  // kMemcheckBroker is the memcheck session's
  EXPECT_FALSE(r.has_flag(Flag::memcheck_timeout));
  // The sanitizer counts memory errors only, and writes its report to its own file.
  const auto sanitized = std::find_if(specs_.begin(), specs_.end(), [](const ProcessSpec& s) {
    return !s.argv.empty() && s.argv.front() == "/bin/true";
  });
  ASSERT_NE(sanitized, specs_.end());
  const std::string argv = join(sanitized->argv, " ");
  EXPECT_NE(argv.find("--report-api-errors no"), std::string::npos) << argv;
  EXPECT_NE(argv.find("--log-file memcheck.log"), std::string::npos) << argv;
}

TEST_F(MemcheckSessionTest, ACallThatHangsOnlyUnderTheToolIsATimeout) {
  memcheck_call_replies(BrokerStatus::call_timeout);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::timeout) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::memcheck_timeout));
  EXPECT_EQ(r.message.rfind("under compute-sanitizer memcheck: ", 0), 0u) << r.message;
}

TEST_F(MemcheckSessionTest, AFaultOnlyUnderTheToolIsARuntimeError) {
  memcheck_call_replies(BrokerStatus::cuda_error);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error) << r.message;
  EXPECT_FALSE(r.has_flag(Flag::memcheck_errors));  // the exit status did not say errors
}

TEST_F(MemcheckSessionTest, ErrorsTheToolSawBeforeAHangAreMemoryErrors) {
  memcheck_call_replies(BrokerStatus::call_timeout);
  memcheck_broker_ends(kMemcheckErrorExit);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::memcheck_errors));
  EXPECT_FALSE(r.has_flag(Flag::memcheck_timeout));
}

// The report and the faulting kernel come from compute-sanitizer's own file, never from the
// broker's output, where the kernel's printf can write a report naming the judge's kernel
// (words2/memcheck_forged_faulting_kernel.cu).
TEST_F(MemcheckSessionTest, TheReportIsTheToolsFileNotTheBrokersOutput) {
  memcheck_broker_ends(kMemcheckErrorExit,
                       "========= Invalid __global__ read of size 4 bytes\n"
                       "=========     at ptxbench::gpu::compare_kernel(const float *)+0x70\n");
  script_.tool_log =
      "========= Invalid __global__ read of size 16 bytes\n"
      "=========     at words_probe(const float *, int)+0x1f0\n"
      "========= ERROR SUMMARY: 1 error\n";
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error) << r.message;
  EXPECT_EQ(r.faulting_kernel, "words_probe(const float *, int)");
  EXPECT_NE(r.memcheck_report.find("size 16 bytes"), std::string::npos) << r.memcheck_report;
  EXPECT_EQ(r.memcheck_report.find("compare_kernel"), std::string::npos) << r.memcheck_report;
}

TEST_F(MemcheckSessionTest, AnExitStatusOtherThanTheErrorStatusIsNoMemoryError) {
  memcheck_broker_ends(kMemcheckErrorExit + 1);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_FALSE(r.has_flag(Flag::memcheck_errors));
}

// The memcheck session's broker is ptxbench's: a refusal of its sandbox there is the tool's
// injected library's (seen on an H100), and it gets the profiled broker's allowances.
TEST_F(MemcheckSessionTest, ABrokerRefusalUnderTheToolIsTheTools) {
  memcheck_call_replies(BrokerStatus::harness_error);
  memcheck_broker_ends(kSandboxRefusalExit);
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::memcheck_unavailable));
  ASSERT_GE(script_.broker_requests.size(), 2u);
  EXPECT_FALSE(script_.broker_requests[0].value("profiled", false));
  EXPECT_TRUE(script_.broker_requests[kMemcheckBroker].value("profiled", false));
}

// A failure the judge's side has under the tool is the tool's: not the candidate's verdict.
TEST_F(MemcheckSessionTest, TheJudgesOwnFailureUnderTheToolLeavesTheVerdictWithANote) {
  EvalResult m;
  m.outcome = Outcome::harness_error;
  m.message = "the judge's broker failed";
  EvalResult r;
  r.outcome = Outcome::passed;
  Evaluator::adopt_memcheck_failure(m, r);
  EXPECT_EQ(r.outcome, Outcome::passed);
  EXPECT_TRUE(r.has_flag(Flag::memcheck_unavailable));
  m.outcome = Outcome::incorrect;
  m.failed_on = FailedOn::hidden;
  m.withheld = "the hidden call's own words";
  Evaluator::adopt_memcheck_failure(m, r);
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_EQ(r.failed_on, FailedOn::hidden);
  EXPECT_EQ(r.withheld, m.withheld);  // withheld stays withheld
}

// 0.4x against the opening check is not known slow: timed as usual, then the slow stop.
TEST_F(EvaluatorTest, ACandidateNotFarBelowTheLibraryIsTimedAsUsual) {
  script_.call = [](int n) -> std::optional<Reply> { return ok_reply(7.5 * (1 + 0.01 * (n % 3))); };
  opts_.sample_budget_seconds = 30;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.timing && r.timing->speedup);
  EXPECT_EQ(r.timing->stop_reason.find("checked calls"), std::string::npos)
      << r.timing->stop_reason;
  EXPECT_NE(r.timing->stop_reason.find("speedup: slow"), std::string::npos)
      << r.timing->stop_reason;
  EXPECT_GE(r.timing->candidate.n, 3u);
}

// An honest kernel slow only in its first calls (it tunes itself over them, or builds its plans
// lazily), 0.15x in every checked call and 1.5x after: its checked calls look known slow, but its
// later calls are fast on new inputs and repeats alike. Neither cached_result (its repeats after
// the checks against its new-input calls during them) nor the checked calls' speedup.
TEST_F(EvaluatorTest, ACandidateSlowOnlyInItsFirstCallsIsTimedOnItsLaterCalls) {
  script_.call = [](int n) -> std::optional<Reply> {
    return ok_reply(n < 5 ? 20.0 : 2.0 * (1 + 0.001 * (n % 3)));  // 5 checked calls
  };
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_FALSE(r.has_flag(Flag::cached_result));
  ASSERT_TRUE(r.timing && r.timing->speedup);
  EXPECT_NEAR(*r.timing->speedup, 1.5, 0.01) << r.timing->stop_reason;
}

// A kernel that does most of its work outside its events (another stream, or forged event
// times), 60 ms a call by the parent's clock: 20 ms by its events (0.15x, known slow by them too)
// or 0.3 ms (10x the library). Either way its events are not its speedup: known slow by the wall
// clock from its checked calls, side_stream, about 0.05x, timed on those calls' wall times.
TEST_F(EvaluatorTest, ACandidateWorkingOutsideItsEventsIsKnownSlowByTheWallClock) {
  for (const double event_ms : {20.0, 0.3}) {
    script_ = Script{};
    script_.call = [event_ms](int n) -> std::optional<Reply> {
      return ok_reply(event_ms * (1 + 0.01 * (n % 3)));
    };
    script_.sleep_call_ms = 60;
    EvalResult r = eval();
    ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
    EXPECT_TRUE(r.has_flag(Flag::side_stream)) << event_ms;
    ASSERT_TRUE(r.timing && r.timing->speedup);
    EXPECT_EQ(r.timing->speedup_basis, SpeedupBasis::wall_clock);
    EXPECT_LT(*r.timing->speedup, 0.06) << event_ms;
    EXPECT_NE(r.timing->stop_reason.find("from 5 checked calls"), std::string::npos)
        << r.timing->stop_reason;
    EXPECT_EQ(r.phase_seconds.warmup_rounds, 0);
  }
}

// A kernel that recognises the previous call's inputs and answers them fast (from its own copy:
// every output written, every check passes) is caught by the repeat calls' speed at every
// draw, whether the sampling stopped early as slow or at the time budget: the timing phase ends
// with kMinRepeats repeats (1 in 4 drawn, fewer than 3 in 10 rounds about half the time).
TEST_F(EvaluatorTest, ACandidateFastOnlyOnRepeatedInputsIsCaughtAtEveryDraw) {
  for (const double fresh_ms : {20.0, 2.0}) {  // 0.15x: stops as slow; 1.5x: at the budget
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      script_ = Script{};
      script_.call = [this, fresh_ms](int) -> std::optional<Reply> {
        return ok_reply(script_.last_content == "repeat" ? fresh_ms / 10 : fresh_ms);
      };
      opts_.seed = seed;
      opts_.sample_budget_seconds = fresh_ms > 10 ? 30 : 0.05;
      opts_.audit = Instrument::cupti;
      script_.launches = Json::array({Json::array({"k_main", 1})});
      EvalResult r = eval();
      EXPECT_EQ(r.outcome, Outcome::incorrect) << "seed " << seed << ", " << fresh_ms << " ms";
      EXPECT_TRUE(r.has_flag(Flag::cached_result)) << "seed " << seed << ", " << fresh_ms << " ms";
      // Known incorrect after its timing phase: not audited.
      EXPECT_TRUE(script_.armed_for.empty()) << "seed " << seed << ", " << fresh_ms << " ms";
    }
  }
}

TEST_F(EvaluatorTest, WithoutAnAuditTheRunnerIsNotInstrumented) {
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed);
  EXPECT_EQ(requests_.at(1)["instrument"], "none");
  EXPECT_FALSE(r.audit_trace.has_value());
  EXPECT_TRUE(script_.armed_for.empty());
}

TEST_F(EvaluatorTest, FirstFailingCheckStopsTheSessionBeforeTiming) {
  script_.verify = [](int n, const Json&) {
    CallCheck c;
    c.outputs = {stats(n != 0)};
    return c;
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_FALSE(r.timing.has_value());
  ASSERT_FALSE(r.trials.empty());
  EXPECT_FALSE(r.trials.back().passed);
  EXPECT_EQ(r.failed_on, FailedOn::timed);
  EXPECT_NE(r.feedback().find("[255,0]"), std::string::npos);  // the timed workload's: public
}

// Feedback leaks nothing hidden (issue 34 item 5): the candidate's words on a hidden call (here
// its exception naming the hidden shape) and the call's label never reach r.message, r.phase or
// feedback(); r.withheld keeps them for people. The first hidden workload the fixture's seed
// draws is hidden_small (M below 64); the checks are: timed, its repeat, the five hidden ones
// (broker calls 2-6), timed again (call 7).
struct HiddenCall {
  std::string m;      // "M=37"
  std::string label;  // "hidden workload hidden_small (K=64 M=37 N=128)"
  std::string shape;  // the candidate's words: "no tuned configuration for M=37 N=128 K=64"
};
HiddenCall first_hidden(const task::TaskSpec& task, const EvalOptions& o) {
  auto plan = plan_session(task, o.trials, *o.seed, "", o.input_seed);
  PTXB_CHECK(plan.ok(), "the test task plans");
  const std::string m = "M=" + std::to_string(plan->verifier.workloads[1].problem.axes.at("M"));
  return {m, plan->labels[1], "no tuned configuration for " + m + " N=128 K=64"};
}

void expect_nothing_hidden(const EvalResult& r, const HiddenCall& h, const std::string& what) {
  for (const std::string& leak : {h.m + " ", h.m + ")", std::string("hidden_small"), h.label,
                                  std::string("no tuned configuration")}) {
    EXPECT_EQ(r.message.find(leak), std::string::npos) << what << ": " << r.message;
    EXPECT_EQ(r.phase.find(leak), std::string::npos) << what << ": " << r.phase;
    EXPECT_EQ(r.feedback().find(leak), std::string::npos) << what << ": " << r.feedback();
  }
}

TEST_F(EvaluatorTest, AHiddenCallsFailureNamesWhatFailedNotTheCandidatesWords) {
  struct Case {
    BrokerStatus status;
    Outcome outcome;
    const char* says;
  };
  const HiddenCall h = first_hidden(task_, opts_);
  for (const Case& c :
       {Case{BrokerStatus::candidate_error, Outcome::runtime_error, "threw an exception"},
        Case{BrokerStatus::cuda_error, Outcome::runtime_error, "a CUDA error"},
        Case{BrokerStatus::call_timeout, Outcome::timeout, "did not finish"},
        Case{BrokerStatus::host_protocol, Outcome::runtime_error, "host protocol"},
        Case{BrokerStatus::refused_request, Outcome::runtime_error, "refused a request"},
        Case{BrokerStatus::policy_refused, Outcome::policy_violation, "off the allow-list"},
        Case{BrokerStatus::host_ended, Outcome::runtime_error, "process ended"}}) {
    const BrokerStatus status = c.status;
    script_.call = [status, h](int n) -> std::optional<Reply> {
      if (n != 2) return ok_reply(2.0);
      return Reply{false, status, h.shape, "", 0, {}, {}};
    };
    script_.host_end.exit_code = 100;  // the candidate's own exit code is its words too
    EvalResult r = eval();
    EXPECT_EQ(r.outcome, c.outcome) << to_string(c.status) << ": " << r.message;
    EXPECT_EQ(r.failed_on, FailedOn::hidden) << to_string(c.status);
    EXPECT_NE(r.message.find(c.says), std::string::npos)
        << to_string(c.status) << ": " << r.message;
    EXPECT_NE(r.message.find("on a hidden workload"), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find("exit code 100"), std::string::npos) << r.message;
    EXPECT_EQ(r.phase.rfind(kHiddenPhase, 0), 0u) << r.phase;  // and the kind in words
    EXPECT_NE(r.message.find("on " + r.phase), std::string::npos) << r.message;
    ASSERT_TRUE(r.failed_kind.has_value()) << to_string(c.status);
    EXPECT_NE(r.phase.find(task::describe(*r.failed_kind, task::Family::gemm)), std::string::npos);
    expect_nothing_hidden(r, h, std::string(to_string(c.status)));
    EXPECT_NE(r.withheld.find(h.label), std::string::npos) << r.withheld;
    if (status != BrokerStatus::host_ended) {
      EXPECT_NE(r.withheld.find(h.shape), std::string::npos) << r.withheld;
    }
    EXPECT_EQ(r.to_json().at("failed_on"), "hidden");
  }
}

// A sandbox refusal during a hidden call: its system call's path is the candidate's choice.
TEST_F(EvaluatorTest, ASandboxRefusalOnAHiddenCallIsNamedWithoutItsPath) {
  const HiddenCall h = first_hidden(task_, opts_);
  script_.call = [](int n) -> std::optional<Reply> {
    if (n != 2) return ok_reply(2.0);
    return Reply{
        false, BrokerStatus::host_ended, "the candidate's process closed its end", "", 0, {}, {}};
  };
  script_.host_end.exit_code = kSandboxRefusalExit;
  script_.host_end.stderr_text =
      h.shape + "\nptxbench-sandbox: refused system call 257 openat /" + h.m + "\n";
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::policy_violation);
  EXPECT_NE(r.message.find("refused a system call"), std::string::npos) << r.message;
  expect_nothing_hidden(r, h, "refusal");
  EXPECT_NE(r.withheld.find("/" + h.m), std::string::npos) << r.withheld;
}

// The timed workload is public: its first calls' failure shows the candidate's words. After a
// hidden call, the same process's words are withheld (it may repeat what it saw there).
TEST_F(EvaluatorTest, TheTimedWorkloadsFailureShowsTheCandidatesWordsUntilItRanAHiddenOne) {
  const HiddenCall h = first_hidden(task_, opts_);
  script_.call = [](int n) -> std::optional<Reply> {
    if (n != 0) return ok_reply(2.0);
    return Reply{
        false, BrokerStatus::candidate_error, "no tuned configuration for M=256", "", 0, {}, {}};
  };
  EvalResult r = eval();
  EXPECT_EQ(r.failed_on, FailedOn::timed);
  EXPECT_NE(r.message.find("no tuned configuration for M=256"), std::string::npos) << r.message;
  EXPECT_TRUE(r.withheld.empty());
  script_.call = [h](int n) -> std::optional<Reply> {
    if (n != 7) return ok_reply(2.0);
    return Reply{false, BrokerStatus::candidate_error, h.shape, "", 0, {}, {}};
  };
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error);
  EXPECT_EQ(r.failed_on, FailedOn::timed);
  EXPECT_NE(r.message.find("after the kernel's process had run a hidden workload"),
            std::string::npos)
      << r.message;
  expect_nothing_hidden(r, h, "after a hidden call");
  EXPECT_NE(r.withheld.find(h.shape), std::string::npos);
}

// Wrong values on a hidden workload: neither the label nor counts or positions.
TEST_F(EvaluatorTest, WrongValuesOnAHiddenWorkloadNameNeitherItsLabelNorItsPositions) {
  const HiddenCall h = first_hidden(task_, opts_);
  script_.verify = [](int n, const Json&) {
    CallCheck c;
    c.outputs = {stats(n != 2)};
    return c;
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_EQ(r.failed_on, FailedOn::hidden);
  ASSERT_FALSE(r.trials.empty());
  EXPECT_TRUE(r.trials.back().hidden);
  expect_nothing_hidden(r, h, "incorrect");
  EXPECT_EQ(r.feedback().find("[255,0]"), std::string::npos) << r.feedback();
  EXPECT_NE(r.feedback().find("a hidden workload"), std::string::npos) << r.feedback();
}

// Another schedule (issue 34 item 4): every hidden workload is checked again under the SM load;
// wrong there after a right first call is schedule_dependent. A broker
// that cannot start the load says so, and the session says the schedule was not varied.
TEST_F(EvaluatorTest, OneCheckedCallRunsUnderAnotherSchedule) {
  const DrawnWorkloads d = drawn_workloads(task_, opts_);
  const auto passing = script_.verify;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  // A timed-workload check and every hidden one again, then the timing phase's loaded rounds (at
  // least one: TheTimingPhaseHasLoadedChecksToo), all on the timed workload.
  const std::size_t hidden = d.names.size() - 1;
  ASSERT_GE(script_.sm_load_workloads.size(), hidden + 2);
  EXPECT_EQ(script_.sm_load_workloads[0], 0);
  std::set<std::string> again;
  for (std::size_t i = 1; i <= hidden; ++i)
    again.insert(d.names[static_cast<std::size_t>(script_.sm_load_workloads[i])]);
  EXPECT_EQ(again.size(), hidden);
  EXPECT_EQ(again.count("hidden_ragged"), 1u);
  // The timing phase's loaded rounds on the timed workload, then (the fake's calls are fast) one
  // hidden workload's check with all but one SM busy, decided by the timed speed and FLOPs.
  ASSERT_GE(script_.sm_load_workloads.size(), hidden + 3);
  for (std::size_t i = hidden + 1; i + 1 < script_.sm_load_workloads.size(); ++i)
    EXPECT_EQ(script_.sm_load_workloads[i], 0);
  EXPECT_NE(script_.sm_load_workloads.back(), 0);
  EXPECT_EQ(script_.sm_load_shares.back(), "all_but_one");
  EXPECT_FALSE(r.has_flag(Flag::schedule_not_varied));
  // Each under a share the plan drew, and (the fake's calls are fast) all but one SM busy on the
  // timed workload's loaded check and on one hidden workload's, given by the session.
  ASSERT_EQ(script_.sm_load_shares.size(), script_.sm_load_workloads.size());
  EXPECT_EQ(script_.sm_load_shares[0], "all_but_one");
  EXPECT_EQ(std::count(script_.sm_load_shares.begin() + 1,
                       script_.sm_load_shares.begin() + 1 + hidden, "all_but_one"),
            1);
  // The timing phase's loaded rounds: at least one with all but one SM busy (the fake's calls
  // are fast; leak13/timing_slots_eighth_fit.cu met none).
  // One a buffer set at most, as many as the fake's speed allows (all_but_one_rounds).
  const auto one_sm = std::count(script_.sm_load_shares.begin() + 1 + hidden,
                                 script_.sm_load_shares.end() - 1, "all_but_one");
  EXPECT_GE(one_sm, 1);
  EXPECT_LE(one_sm, kTimedSlots);
  const int loaded = static_cast<int>(std::find(d.names.begin(), d.names.end(), "hidden_ragged") -
                                      d.names.begin());
  int calls_on_it = 0;  // the broker's call index of the loaded call: the last check
  script_.verify = [&](int, const Json& prepare) {
    CallCheck c;
    const bool second = prepare.value("workload", -1) == loaded && calls_on_it++ == 1;
    c.outputs = {stats(!second)};
    return c;
  };
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_TRUE(r.has_flag(Flag::schedule_dependent)) << r.message;
  EXPECT_NE(r.message.find("SMs were busy"), std::string::npos) << r.message;
  script_.verify = passing;
  EXPECT_FALSE(eval().has_flag(Flag::schedule_not_varied));
  // A launch that ran beside none of the load (in clusters of 4: red team leak13/
  // wide_cluster_barrier_unloaded.cu passed as loaded): its schedule was not varied, and the
  // verdict says so.
  script_.sm_load_bare = true;
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::schedule_not_varied));
  script_.sm_load_bare = false;
  script_.sm_load_fails = true;
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::schedule_not_varied));
}

// A kernel that waits the load out (red team leak4/sched_outwait_load.cu): right outputs, but its
// loaded call's work was still running when the load's time was up. The load's time is sized from
// the workload's unloaded calls. All-cooperative launches may wait for the load.
TEST_F(EvaluatorTest, AKernelThatWaitsTheLoadOutIsScheduleDependent) {
  script_.sm_load_outlasted = true;
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_TRUE(r.has_flag(Flag::schedule_dependent)) << r.message;
  EXPECT_NE(r.message.find("still running when the load"), std::string::npos) << r.message;
  // the broker's times, for people only
  EXPECT_EQ(r.message.find("140 ms"), std::string::npos) << r.message;
  EXPECT_NE(r.withheld.find("the load's time 140 ms"), std::string::npos) << r.withheld;
  ASSERT_FALSE(script_.sm_load_ms.empty());
  EXPECT_GE(script_.sm_load_ms.front(), kSmLoadFloorMs);
  script_.cooperative = true;
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::passed) << r.message;
}

// The timing phase has loaded rounds too (plan.h kLoadedTimingOdds, at least one), checked and
// not sampled: a kernel that tells the timing calls apart and runs an unsafe path only there
// (red team leak5/timing_slot_marker) meets another schedule after the checks' own loaded calls.
TEST_F(EvaluatorTest, TheTimingPhaseHasLoadedChecksToo) {
  // The check phase's loaded calls: the timed workload's and every hidden one's again.
  const std::size_t checks = drawn_workloads(task_, opts_).names.size();
  script_.verify = [&](int, const Json&) {
    CallCheck c;  // wrong only under the load after the check phase's loaded calls
    c.outputs = {stats(!(script_.last_burst_loaded && script_.sm_load_workloads.size() > checks))};
    return c;
  };
  EvalResult r = eval();
  EXPECT_GT(script_.sm_load_workloads.size(), checks);
  EXPECT_EQ(script_.sm_load_workloads.back(), 0);  // the timed workload
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_TRUE(r.has_flag(Flag::schedule_dependent)) << r.message;
}

// So does a candidate known to be slow from its checks, timed on them: after its closing
// repeats one round of new inputs under the load (fresh/unsafe_on_new_rows, 0.03x: its
// schedule-dependent path ran on unseen rows only, and no loaded round ever had them).
TEST_F(EvaluatorTest, AKnownSlowCandidateMeetsTheLoadOnNewInputsToo) {
  script_.call = [](int) -> std::optional<Reply> { return ok_reply(20.0); };
  const std::size_t checks = drawn_workloads(task_, opts_).names.size();
  script_.verify = [&](int, const Json&) {
    CallCheck c;
    c.outputs = {stats(!(script_.last_burst_loaded && script_.sm_load_workloads.size() > checks))};
    return c;
  };
  EvalResult r = eval();
  EXPECT_GT(script_.sm_load_workloads.size(), checks);
  EXPECT_EQ(script_.sm_load_workloads.back(), 0);  // the timed workload
  EXPECT_EQ(r.outcome, Outcome::incorrect) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::schedule_dependent)) << r.message;
}

TEST_F(EvaluatorTest, WhenTheLibraryFailsTheSameInputsItIsATaskSuiteError) {
  script_.verify = [](int n, const Json&) {
    CallCheck c;
    c.outputs = {stats(n < 2)};  // the candidate's third call, then the library's check, fail
    return c;
  };
  opts_.verifier_host = std::make_shared<VerifierHost>();
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::task_suite_error);
  EXPECT_TRUE(r.has_flag(Flag::baseline_incorrect));
  EXPECT_FALSE(r.has_flag(Flag::library_fails_task_rule));  // the outcome says it
  EXPECT_NE(r.message.find("task suite"), std::string::npos);
  // The verifier did its work: it is given back for the next session, not quit.
  EXPECT_EQ(opts_.verifier_host->warm(), 1u);
}

TEST_F(EvaluatorTest, SkippingARepeatedCallIsACachedResult) {
  script_.verify = [](int n, const Json& prepare) {
    CallCheck c;
    const bool repeat = prepare.value("content", "") == "repeat";
    c.outputs = {stats(!repeat, repeat ? 256 * 128 : 0)};
    c.all_unwritten = repeat;
    (void)n;
    return c;
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_TRUE(r.has_flag(Flag::cached_result));
}

TEST_F(EvaluatorTest, WritingAnInputIsInputsModified) {
  script_.verify = [](int, const Json&) {
    CallCheck c;
    c.outputs = {stats(true)};
    c.inputs_modified = {"A"};
    return c;
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_TRUE(r.has_flag(Flag::inputs_modified));
  EXPECT_NE(r.message.find("A"), std::string::npos);
  EXPECT_NE(r.feedback().find("read-only"), std::string::npos);  // the model is told why
}

// A write into an input faults (the inputs are mapped read-only) and the fault does not say
// where: the call runs once more in a broker that maps the inputs writable, and a changed input
// there is the verdict every write into an input gets.
TEST_F(EvaluatorTest, AFaultThatWasAWriteIntoAnInputIsInputsModified) {
  script_.broker_call = [](int broker, int n) -> std::optional<Reply> {
    if (broker == 0 && n == 2)
      return Reply{false,
                   BrokerStatus::illegal_address,
                   "cudaErrorIllegalAddress: an illegal "
                   "memory access",
                   "",
                   0,
                   {},
                   {}};
    return ok_reply(2.0);
  };
  script_.verify = [this](int, const Json&) {
    CallCheck c;
    c.outputs = {stats(true)};
    if (script_.broker_calls.size() == 2) c.inputs_modified = {"B"};  // the re-run's broker
    return c;
  };
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::incorrect) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::inputs_modified));
  ASSERT_EQ(script_.maps.size(), 2u);
  EXPECT_FALSE(script_.maps[0].contains("inputs_writable"));  // the session's broker: read-only
  EXPECT_EQ(script_.maps[1].value("inputs_writable", false), true);
  EXPECT_EQ(script_.broker_calls[1].size(), 1u);  // the faulted call alone, once
  EXPECT_NE(r.message.find("run again with inputs it could write"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("an illegal memory access"), std::string::npos) << r.message;
}

// A re-run that changes no input (a fault outside every buffer) leaves the fault's verdict; a
// re-run that fails in its own way is not the session's.
TEST_F(EvaluatorTest, AFaultWhoseRerunChangesNoInputStaysARuntimeError) {
  for (bool rerun_fails : {false, true}) {
    script_ = Script{};
    script_.broker_call = [rerun_fails](int broker, int n) -> std::optional<Reply> {
      if ((broker == 0 && n == 2) || (broker == 1 && rerun_fails))
        return Reply{
            false, BrokerStatus::illegal_address, "cudaErrorIllegalAddress: at 0x10", "", 0, {},
            {}};
      return ok_reply(2.0);
    };
    EvalResult r = eval();
    EXPECT_EQ(r.outcome, Outcome::runtime_error) << r.message;
    EXPECT_FALSE(r.has_flag(Flag::inputs_modified));
    EXPECT_NE(r.withheld.find("at 0x10"), std::string::npos) << r.withheld;  // a hidden call
    EXPECT_EQ(script_.broker_calls.size(), 2u);  // one re-run, never a re-run of the re-run
  }
}

// The result's output is the faulted pair's, not the re-run's (red team
// leak12/rerun_output_swap.cu: a clean log in the re-run replaced the fault's).
TEST_F(EvaluatorTest, AfterAReRunTheOutputShownIsTheFaultedBrokers) {
  script_.broker_call = [](int broker, int n) -> std::optional<Reply> {
    if (broker == 0 && n == 0)
      return Reply{false, BrokerStatus::illegal_address, "cudaErrorIllegalAddress", "", 0, {}, {}};
    return ok_reply(2.0);
  };
  script_.broker_end_of = [this](int broker) {
    ProcessResult p = script_.broker_end;
    p.stdout_text = broker == 0 ? "printf of the faulted call\n" : "all is well\n";
    return p;
  };
  EvalResult r = eval();
  ASSERT_EQ(script_.broker_calls.size(), 2u);
  EXPECT_NE(r.broker_output_tail.find("faulted call"), std::string::npos) << r.broker_output_tail;
  EXPECT_EQ(r.broker_output_tail.find("all is well"), std::string::npos) << r.broker_output_tail;
}

// Any other CUDA error is no write into an input: no re-run.
TEST_F(EvaluatorTest, OtherCudaErrorsAreNotRunAgain) {
  script_.broker_call = [](int, int n) -> std::optional<Reply> {
    if (n == 2)
      return Reply{false, BrokerStatus::cuda_error, "cudaErrorIllegalInstruction", "", 0, {}, {}};
    return ok_reply(2.0);
  };
  EXPECT_EQ(eval().outcome, Outcome::runtime_error);
  EXPECT_EQ(script_.broker_calls.size(), 1u);
}

// The host's own write into an input is refused by the broker, which knows the tensor.
TEST_F(EvaluatorTest, AHostWriteIntoAnInputIsInputsModified) {
  script_.call = [](int n) -> std::optional<Reply> {
    if (n < 2) return ok_reply(2.0);
    return Reply{false,
                 BrokerStatus::input_written,
                 "cudaMemsetAsync of 64 bytes at 0x7f00, which reach into input A: inputs are "
                 "read-only",
                 "",
                 0,
                 {},
                 {}};
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::incorrect);
  EXPECT_TRUE(r.has_flag(Flag::inputs_modified));
  EXPECT_NE(r.message.find("asked to write into an input tensor"), std::string::npos) << r.message;
  EXPECT_NE(r.withheld.find("input A"), std::string::npos) << r.withheld;  // a hidden call
  EXPECT_EQ(script_.broker_calls.size(), 1u);
}

TEST_F(EvaluatorTest, RunnerRepliesMapToTheCandidatesOutcome) {
  script_.call = [](int n) -> std::optional<Reply> {
    if (n < 2) return ok_reply(2.0);
    return Reply{false, BrokerStatus::call_timeout, "did not finish within 20 s", "", 0, {}, {}};
  };
  EXPECT_EQ(eval().outcome, Outcome::timeout);
  script_.call = [](int) -> std::optional<Reply> {
    return Reply{false,
                 BrokerStatus::cuda_error,
                 "cudaErrorIllegalAddress: an illegal memory access",
                 "",
                 0,
                 {},
                 {}};
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error);
  EXPECT_NE(r.message.find("cudaErrorIllegalAddress"), std::string::npos);
}

// A broker that vanishes during a call: a fresh broker without the candidate works, so the
// failure is the candidate's (its device code can crash the broker's context, never the harness).
TEST_F(EvaluatorTest, ABrokerThatDiesDuringACallIsTheCandidatesWhenItWorksWithoutIt) {
  script_.call = [](int) -> std::optional<Reply> { return std::nullopt; };
  script_.broker_end.exit_code = -1;
  script_.broker_end.signal = 11;
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error);
  EXPECT_NE(r.message.find("signal 11"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("without the candidate works"), std::string::npos) << r.message;
  EXPECT_EQ(requests_.back()["mode"], "broker");  // the reproduction: no host beside it
}

// The reproduction runs on the session's GPU, as every other worker of the session does
// (leak3/fresh_broker_unpinned.cu: unpinned, it ran on GPU 0 of a --gpus run and could not map
// another GPU's slots, so a candidate on GPU 1 could blame the harness).
TEST_F(EvaluatorTest, TheBrokerThatReproducesAFailureIsPinnedToTheSessionsGpu) {
  unsetenv("CUDA_VISIBLE_DEVICES");
  opts_.device = 1;
  script_.call = [](int) -> std::optional<Reply> { return std::nullopt; };
  script_.broker_end.exit_code = -1;
  script_.broker_end.signal = 11;
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error) << r.message;
  ASSERT_EQ(requests_.back()["mode"], "broker");  // the reproduction was launched last
  int gpu_workers = 0;
  for (const ProcessSpec& spec : specs_) {
    if (!spec.env.count("CUDA_VISIBLE_DEVICES")) continue;  // the host: no GPU
    EXPECT_EQ(spec.env.at("CUDA_VISIBLE_DEVICES"), "1");
    ++gpu_workers;
  }
  EXPECT_GE(gpu_workers, 3);  // the verifier, the broker and its reproduction
}

// The same failure when a broker without the candidate fails too: the harness's.
TEST_F(EvaluatorTest, ABrokerThatFailsWithoutTheCandidateTooIsOurs) {
  script_.call = [](int) -> std::optional<Reply> {
    return Reply{false, BrokerStatus::harness_error, "cudaErrorUnknown", "", 0, {}, {}};
  };
  script_.noop_ok = [](int broker) { return broker == 0; };  // only the first calibrates
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::harness_error) << r.message;
  EXPECT_NE(r.message.find("broker failed"), std::string::npos) << r.message;
}

// Forged blame: a broker "harness_error" reply caused by the candidate is tried again without it.
TEST_F(EvaluatorTest, ABrokerHarnessErrorDuringACallIsCheckedWithoutTheCandidate) {
  script_.call = [](int) -> std::optional<Reply> {
    return Reply{false, BrokerStatus::harness_error, "PTXBENCH-ESCAPE forged", "", 0, {}, {}};
  };
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error) << r.message;
}

// Whatever the host does is the candidate's: each broker status maps to its verdict.
TEST_F(EvaluatorTest, HostFailuresAreTheCandidates) {
  struct Case {
    BrokerStatus status;
    Outcome outcome;
    const char* says;
  };
  for (const Case& c :
       {Case{BrokerStatus::host_protocol, Outcome::runtime_error, "host protocol"},
        Case{BrokerStatus::refused_request, Outcome::runtime_error, "refused a request"},
        Case{BrokerStatus::policy_refused, Outcome::policy_violation, "cuCtxResetPersisting"},
        Case{BrokerStatus::candidate_error, Outcome::runtime_error, "boom"},
        Case{BrokerStatus::call_timeout, Outcome::timeout, "boom"},
        Case{BrokerStatus::host_ended, Outcome::runtime_error, "ended during the call"}}) {
    const BrokerStatus status = c.status;
    script_.call = [status](int n) -> std::optional<Reply> {
      if (n < 1) return ok_reply(2.0);
      return Reply{false,
                   status,
                   status == BrokerStatus::policy_refused ? "cuCtxResetPersistingL2Cache" : "boom",
                   "",
                   0,
                   {},
                   {}};
    };
    EvalResult r = eval();
    EXPECT_EQ(r.outcome, c.outcome) << to_string(c.status) << ": " << r.message;
    EXPECT_NE(r.message.find(c.says), std::string::npos)
        << to_string(c.status) << ": " << r.message;
  }
}

// Once the session made a hidden call, what the candidate printed (host and device printf) could
// name it: the JSON of eval/gate carries a note instead (red team of 2026-12-06,
// memcheck_broker/printf_hidden_workload_dump.cu).
TEST_F(EvaluatorTest, WhatTheCandidatePrintedIsWithheldOnceAHiddenCallWasMade) {
  script_.host_end.stdout_text = "M=1000 N=7168 K=5120\n";
  script_.host_end.stderr_text = "A[0]=0.25\n";
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.ran_hidden);
  EXPECT_EQ(r.worker_stdout_tail, kOutputWithheld);
  EXPECT_EQ(r.worker_stderr_tail, kOutputWithheld);
  EXPECT_EQ(r.broker_output_tail, kOutputWithheld);
  EXPECT_EQ(to_text(r.to_json()).find("M=1000"), std::string::npos);
}

// The faulting kernel and the sanitizer's report of a hidden call's failure are the candidate's
// choice of names and addresses: kept in JSON only for a public workload's failure.
TEST(EvalResultJson, AHiddenFailuresKernelNameAndSanitizerReportAreNotWritten) {
  EvalResult r;
  r.outcome = Outcome::runtime_error;
  r.faulting_kernel = "mb_leak<3>";
  r.memcheck_ran = true;
  r.memcheck_report = "Invalid __global__ read of size 4 bytes at mb_leak<3>";
  r.failed_on = FailedOn::hidden;
  EXPECT_EQ(to_text(r.to_json()).find("mb_leak"), std::string::npos);
  r.failed_on = FailedOn::timed;
  EXPECT_NE(to_text(r.to_json()).find("mb_leak"), std::string::npos);
}

TEST_F(EvaluatorTest, ASandboxRefusalIsAPolicyViolationNamingTheCall) {
  script_.call = [](int) -> std::optional<Reply> {
    return Reply{
        false, BrokerStatus::host_ended, "the candidate's process closed its end", "", 0, {}, {}};
  };
  script_.host_end.exit_code = kSandboxRefusalExit;
  script_.host_end.stderr_text = "hello\nptxbench-sandbox: refused system call 41 socket\n";
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::policy_violation);
  EXPECT_NE(r.message.find("socket"), std::string::npos);
  EXPECT_NE(r.worker_stderr_tail.find("hello"), std::string::npos);  // what the candidate printed
}

// The refusal lines are words of the candidate's process: read only when a reporter ended it
// (exit kSandboxRefusalExit), and then the last one of either kind names the call (red team of
// 2026-12-06, words2/driver_line_then_exit.cu and words2/driver_line_launders_socket.cu).
TEST_F(EvaluatorTest, ARefusalLineCountsOnlyWithTheReportersExitAndTheLastOneNamesTheCall) {
  script_.call = [](int) -> std::optional<Reply> {
    return Reply{
        false, BrokerStatus::host_ended, "the candidate's process closed its end", "", 0, {}, {}};
  };
  const std::string driver_line =
      "ptxbench-sandbox: refused driver function cuTensorMapEncodeTiled\n";
  script_.host_end.exit_code = 3;  // its own exit after a forged line: no reporter ended it
  script_.host_end.stderr_text = driver_line;
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error) << r.message;
  script_.host_end.exit_code = kSandboxRefusalExit;  // a forged driver line, then a real refusal
  script_.host_end.stderr_text = driver_line + "ptxbench-sandbox: refused system call 41 socket\n";
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::policy_violation);
  EXPECT_NE(r.message.find("socket"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("cuTensorMapEncodeTiled"), std::string::npos) << r.message;
  script_.host_end.stderr_text = "ptxbench-sandbox: refused system call 41 socket\n" + driver_line;
  r = eval();  // the shim's line last: its refusal
  EXPECT_EQ(r.outcome, Outcome::policy_violation);
  EXPECT_NE(r.message.find("cuTensorMapEncodeTiled"), std::string::npos) << r.message;
}

// A library slower than this verifier measured it in earlier sessions is timed again once the
// candidate's processes have ended, and the speedup keeps the faster library time.
TEST_F(EvaluatorTest, ALibrarySlowerThanBeforeIsTimedAgainWithoutTheCandidate) {
  script_.library_best_ms = 2.0;  // the library ran 3.0 ms here, 50% slower
  script_.alone_ms = 2.1;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::library_slowed));
  ASSERT_TRUE(r.timing && r.timing->speedup);
  EXPECT_NEAR(*r.timing->speedup, 2.1 / 2.0, 1e-9);  // not the 3.0 / 2.0 the slowed library gave
  EXPECT_NE(r.timing->stop_reason.find("timed again alone"), std::string::npos);
  script_ = Script{};
  script_.library_best_ms = 2.9;  // within 5%: nothing happens
  r = eval();
  EXPECT_FALSE(r.has_flag(Flag::library_slowed));
  EXPECT_NEAR(*r.timing->speedup, 1.5, 1e-12);
}

// Work on another stream than the one given: the broker ran it on its own stream, inside the
// events, and says so; the speedup stays on the events.
TEST_F(EvaluatorTest, ASideStreamTheBrokerSawIsFlagged) {
  script_.side_streams = Json::array({2});
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::side_stream));
  ASSERT_TRUE(r.timing);
  EXPECT_EQ(r.timing->speedup_basis, SpeedupBasis::events);
}

TEST_F(EvaluatorTest, ALoadErrorIsTheCandidatesAndAVerifierFailureIsOurs) {
  script_.broker_ready =
      Reply{false, BrokerStatus::load_error, "undefined symbol: foo", "", 0, {}, {}};
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::runtime_error);
  EXPECT_NE(r.message.find("undefined symbol"), std::string::npos);
  // The host ended while the candidate's constructors ran, refused a file: a policy violation.
  script_.broker_ready = Reply{false, BrokerStatus::host_ended, "closed its end", "", 0, {}, {}};
  script_.host_end.exit_code = kSandboxRefusalExit;
  script_.host_end.stderr_text = "ptxbench-sandbox: refused system call 257 openat /etc/passwd\n";
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::policy_violation);
  EXPECT_NE(r.message.find("/etc/passwd"), std::string::npos);
  script_.host_end = script_.broker_end;
  script_.broker_ready = ok_reply();
  script_.verifier_ready = false;
  script_.maps.clear();
  r = eval();
  EXPECT_EQ(r.outcome, Outcome::harness_error);
  EXPECT_TRUE(script_.maps.empty());  // the broker never got slots, nor loaded the candidate
}

// A broker whose own set-up failed before the parent sent its slots (the broker now starts
// beside the verifier): ptxbench's failure, not the candidate's, and its message is kept (review
// of 2026-12-01, eighth session: it was a runtime_error, "the candidate's process ended").
TEST_F(EvaluatorTest, ARunnerThatFailsBeforeTheCandidateIsLoadedIsOurs) {
  script_.broker_setup_died = true;
  script_.broker_end.exit_code = 3;
  EvalResult r = eval();
  EXPECT_EQ(r.outcome, Outcome::harness_error) << r.message;
  EXPECT_NE(r.message.find("broker set-up: cudaErrorMemoryAllocation"), std::string::npos)
      << r.message;
  EXPECT_TRUE(script_.maps.empty());
}

TEST_F(EvaluatorTest, WorkOutsideTheEventsIsSideStreamAndTimedByTheWallClock) {
  script_.call = [](int) -> std::optional<Reply> { return ok_reply(0.05); };
  script_.sleep_call_ms = 6;
  script_.sleep_noop_ms = 0;  // a no-op call costs ~nothing beyond its events
  script_.baseline_ms = 5.0;
  script_.sleep_baseline_ms = 5;
  opts_.sample_budget_seconds = 0.3;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_TRUE(r.has_flag(Flag::side_stream));
  ASSERT_TRUE(r.timing && r.timing->speedup);
  EXPECT_EQ(r.timing->speedup_basis, SpeedupBasis::wall_clock);
  EXPECT_LT(*r.timing->speedup, 2.0);  // not the 100x the events claim
  // Its TFLOP/s come from the same time as its speedup, not from the events (no above_peak).
  ASSERT_TRUE(r.timing->tflops && r.timing->baseline_tflops);
  EXPECT_NEAR(*r.timing->tflops / *r.timing->baseline_tflops, *r.timing->speedup, 1e-9);
}

TEST_F(EvaluatorTest, TheRunnersOwnCallOverheadIsNotSideStream) {
  // Every call, the calibration no-op too, spends 6 ms beyond its events (a slow machine).
  script_.call = [](int) -> std::optional<Reply> { return ok_reply(0.05); };
  script_.sleep_call_ms = 6;
  script_.sleep_noop_ms = 6;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_FALSE(r.has_flag(Flag::side_stream));
}

// The broker's counter range (count_timed_calls) costs wall time no event sees; the broker says how
// much (counter_ms) and the parent takes it out: no side_stream, the events stay the basis (the
// same 6 ms unaccounted for is side_stream:
// WorkOutsideTheEventsIsSideStreamAndTimedByTheWallClock).
TEST_F(EvaluatorTest, TheCountersRangeCostIsNotSideStream) {
  script_.call = [](int) -> std::optional<Reply> { return ok_reply(0.05); };
  script_.counter_ms = 6;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  EXPECT_FALSE(r.has_flag(Flag::side_stream));
  ASSERT_TRUE(r.timing);
  EXPECT_EQ(r.timing->speedup_basis, SpeedupBasis::events);
}

TEST_F(EvaluatorTest, AQueuesWorkersSeeItsGpuOnly) {
  unsetenv("CUDA_VISIBLE_DEVICES");
  opts_.device = 1;
  EXPECT_EQ(eval().outcome, Outcome::passed);
  ASSERT_EQ(specs_.size(), 3u);  // the host has no GPU to see
  for (int i : {0, 1}) EXPECT_EQ(specs_[i].env.at("CUDA_VISIBLE_DEVICES"), "1");
  EXPECT_EQ(specs_[2].env.count("CUDA_VISIBLE_DEVICES"), 0u);
  setenv("CUDA_VISIBLE_DEVICES", "4,6", 1);
  EXPECT_EQ(eval().outcome, Outcome::passed);
  for (int i : {0, 1}) EXPECT_EQ(specs_[i].env.at("CUDA_VISIBLE_DEVICES"), "6");
  unsetenv("CUDA_VISIBLE_DEVICES");
}

TEST_F(EvaluatorTest, ATvmFfiCandidatesHostLoadsTheRuntime) {
  const std::filesystem::path root = dir_->path() / "tvm_ffi";
  std::filesystem::create_directories(root / "include" / "tvm" / "ffi");
  std::filesystem::create_directories(root / "lib");
  std::ofstream(root / "include" / "tvm" / "ffi" / "c_api.h") << "// fake";
  std::ofstream(root / "lib" / "libtvm_ffi.so") << "fake";
  ::setenv("PTXBENCH_TVM_FFI_ROOT", root.c_str(), 1);
  opts_.contract = Contract::tvm_ffi;
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  const Json& hostr = requests_.at(2);
  EXPECT_EQ(hostr["contract"], "tvm-ffi");
  EXPECT_EQ(hostr["tvm_ffi_library"], (root / "lib" / "libtvm_ffi.so").string());
  EXPECT_EQ(requests_.at(0).value("contract", ""), "");  // the verifier never loads it
  EXPECT_EQ(requests_.at(1).value("contract", ""), "");  // nor does the broker

  ::setenv("PTXBENCH_TVM_FFI_ROOT", (dir_->path() / "missing").c_str(), 1);
  EvalResult missing = eval();
  ::unsetenv("PTXBENCH_TVM_FFI_ROOT");
  EXPECT_EQ(missing.outcome, Outcome::harness_error);
  EXPECT_NE(missing.message.find("PTXBENCH_TVM_FFI_ROOT"), std::string::npos) << missing.message;
  EXPECT_TRUE(requests_.empty());

  opts_.contract = Contract::native;
  EXPECT_EQ(eval().outcome, Outcome::passed);
  EXPECT_EQ(requests_.at(2)["contract"], "native");
}

TEST_F(EvaluatorTest, NoGpuIsNotRun) {
  ::setenv("PTXBENCH_NO_GPU", "1", 1);
  EvalResult r = eval();
  ::unsetenv("PTXBENCH_NO_GPU");
  EXPECT_EQ(r.outcome, Outcome::not_run);
  EXPECT_NE(r.message.find("no NVIDIA GPU"), std::string::npos);
  EXPECT_TRUE(requests_.empty());
}

// review-7: a hostile kernel that works outside its events on the timed workload only (its shape
// is public): 20 ms by its forged events (0.15x the library's 3 ms), 80 ms by the parent's clock
// (0.0375x); honest on the five hidden shapes. The five hidden calls outvote the three timed ones
// in checked_work_outside_events's median, so it is known slow by its forged events and its
// speedup is theirs, with no side_stream.
TEST_F(EvaluatorTest, HiddenWorkloadsDoNotHideWorkOutsideTheTimedCallsEvents) {
  script_.call_by_workload = [](int n, int workload) -> std::pair<double, int> {
    if (workload != 0) return {10.0, 10};
    return {20.0 * (1 + 0.01 * (n % 3)), 80};
  };
  FakeLauncher launcher(script_);
  Evaluator e(paths_, launcher);
  EvalResult r = e.evaluate(testing::gemm_task(), dir_->path() / "k.so", opts_);
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.timing && r.timing->speedup);
  EXPECT_TRUE(r.has_flag(Flag::side_stream));
  EXPECT_EQ(r.timing->speedup_basis, SpeedupBasis::wall_clock);
  EXPECT_LT(*r.timing->speedup, 0.06) << r.timing->stop_reason;
}

// review-7: the same hostile kernel on the usual test task, honest in the first call of every
// process (free: the session's first call is never a sample) and with five more kernel
// functions, so the audit makes three more brokers (kMaxAuditedFunctions), each with one ordinary
// call on the timed workload (its process's first). Known slow by the clock before the audit; after
// it judge_timing counts those five honest calls among the checked ones and drops side_stream: the
// speedup comes from the forged events.
TEST_F(EvaluatorTest, AuditRunnersCallsDoNotTurnSideStreamOff) {
  script_.call_by_workload = [](int n, int workload) -> std::pair<double, int> {
    if (n == 0) return {80.0, 80};
    if (workload != 0) return {10.0, 10};
    return {20.0 * (1 + 0.01 * (n % 3)), 80};
  };
  opts_.audit = Instrument::cupti;
  script_.launches = Json::array();
  for (const char* f : {"k0", "k1", "k2", "k3", "k4", "k5"})
    script_.launches.push_back(Json::array({f, 1}));
  EvalResult r = eval();
  ASSERT_EQ(r.outcome, Outcome::passed) << r.message;
  ASSERT_TRUE(r.timing && r.timing->speedup);
  ASSERT_TRUE(r.audit_trace.has_value());
  // No function times (this broker reports none): the first kMaxAuditedFunctions by launch.
  EXPECT_EQ(r.audit_trace->brokers, kMaxAuditedFunctions);
  EXPECT_TRUE(r.has_flag(Flag::side_stream));
  EXPECT_EQ(r.timing->speedup_basis, SpeedupBasis::wall_clock);
  EXPECT_LT(*r.timing->speedup, 0.06) << r.timing->stop_reason;
}

}  // namespace
}  // namespace ptxbench::eval
