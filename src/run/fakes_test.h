// Test doubles for the loop: a chat client that writes numbered attempts, a pipeline
// whose verdict follows the attempt number, and a dump of a run file for comparisons.
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "run/loop.h"
#include "run/scripted_agent.h"
#include "store/store.h"

namespace ptxbench::run::testing {

// Turn k's reply holds "// attempt k of TASK" in a cuda block; turn 2 of task "nocode"
// has no code block.
class FakeClient final : public llm::ChatClient {
 public:
  FakeClient(store::TrajectoryKey k, int script_turns)
      : key_(std::move(k)), script_turns_(script_turns) {}
  Result<llm::ChatReply> complete(const llm::ChatRequest& req) override {
    int k = 1;
    for (const auto& m : req.messages) k += m.role == "assistant";
    llm::ChatReply r;
    r.model = "fake";
    if (script_turns_ > 0 && k > script_turns_) {
      r.finish_reason = std::string(kEndOfScript);
      return r;
    }
    r.finish_reason = "stop";
    if (key_.task == "nocode" && k == 2)
      r.content = "I think the kernel is fine.";
    else
      r.content = fmt::format("Attempt {}.\n```cuda\n// attempt {} of {} sample {}\n```\n", k, k,
                              key_.task, key_.sample);
    return r;
  }
  std::string model_id() const override { return "fake"; }

 private:
  store::TrajectoryKey key_;
  int script_turns_;
};

class FakeClients final : public ClientFactory {
 public:
  explicit FakeClients(int script_turns = 0) : script_turns_(script_turns) {}
  Result<std::shared_ptr<llm::ChatClient>> client_for(const store::TrajectoryKey& k) override {
    return std::shared_ptr<llm::ChatClient>(std::make_shared<FakeClient>(k, script_turns_));
  }

 private:
  int script_turns_;
};

// attempt 1: compile error; 2: incorrect; 3: correct without target instructions;
// 4+: correct, executed, speedup 0.5 + 0.2 k (reaches 1.2 at k = 4), except for task
// "slow" whose speedup stays 0.8 (runs to the budget).
class FakePipeline final : public CandidatePipeline {
 public:
  explicit FakePipeline(bool gpu = true, std::chrono::milliseconds delay = {})
      : gpu_(gpu), delay_(delay) {}
  TurnVerdict evaluate(const std::string& source, const task::TaskSpec& task, const std::string&,
                       StageSlots& slots) override {
    std::smatch m;
    std::regex_search(source, m, std::regex("attempt (\\d+)"));
    int k = m.empty() ? 0 : std::stoi(m[1]);
    TurnVerdict v;
    v.source = source;
    judge::JudgeReport& r = v.report;
    r.has_code = true;
    {
      CpuLease cpu(slots.cpu);
      compile::CompileResult c;
      c.outcome = k == 1 ? Outcome::compile_error : Outcome::passed;
      c.log = "k.cu(3): error: expected a \";\"";
      r.compile = std::move(c);
      r.disposition =
          k == 1 ? judge::Disposition::compile_error : judge::Disposition::not_evaluated;
    }
    if (k == 1) return v;
    if (!gpu_) {
      r.eval = judge::Skipped{judge::SkipCause::no_gpu, "no GPU"};
      r.audit = judge::Skipped{judge::SkipCause::no_gpu, "no GPU"};
      return v;
    }
    GpuLease gpu = slots.gpu.acquire();
    int now = ++in_gpu_;
    int seen = max_in_gpu_.load();
    while (now > seen && !max_in_gpu_.compare_exchange_weak(seen, now)) {
    }
    if (delay_.count()) std::this_thread::sleep_for(delay_);
    --in_gpu_;
    ++evaluations;
    eval::EvalResult e;
    e.outcome = k == 2 ? Outcome::incorrect : Outcome::passed;
    r.disposition = k == 2   ? judge::Disposition::incorrect
                    : k >= 4 ? judge::Disposition::passed
                             : judge::Disposition::passed_missing_instructions;
    if (k >= 3) {
      e.timing = eval::TimingReport{};
      e.timing->speedup = task.name == "slow" ? 0.8 : 0.5 + 0.2 * k;
    }
    r.eval = std::move(e);
    if (k == 2) return v;
    audit::AuditResult a;
    a.runtime_run = true;
    a.instruction_metric_evaluated = true;
    a.instruction_metric_passed = k >= 4;
    r.audit = std::move(a);
    return v;
  }
  bool gpu_available() const override { return gpu_; }
  int max_concurrent_gpu() const { return max_in_gpu_.load(); }
  std::atomic<int> evaluations{0};

 private:
  bool gpu_;
  std::chrono::milliseconds delay_;
  std::atomic<int> in_gpu_{0}, max_in_gpu_{0};
};

inline Result<PromptMessages> fake_prompt(const task::TaskSpec& t, const std::string& arch,
                                          const std::string& ctx) {
  return PromptMessages{"system " + ctx, "task " + t.name + " on " + arch};
}

inline std::optional<std::string> fake_extract(const std::string& reply) {
  auto a = reply.find("```cuda\n");
  if (a == std::string::npos) return std::nullopt;
  auto b = reply.find("```", a + 8);
  return reply.substr(a + 8, b - a - 8);
}

inline task::TaskSpec fake_task(const std::string& name) {
  task::TaskSpec t;
  t.name = name;
  t.archs = {{"sm_90a", {"wgmma", "tma"}, "any"}};
  return t;
}

// Everything a run stores except timestamps and latencies, in a stable order.
inline std::string dump_run(const store::RunStore& s) {
  std::string out;
  auto trajs = s.trajectories();
  PTXB_CHECK(trajs.ok(), "dump_run: trajectories");
  std::vector<store::TrajectoryRow> rows = *trajs;
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  for (const auto& t : rows) {
    out += fmt::format("== {} status={} stop={}\n", t.key.to_string(), store::to_string(t.status),
                       t.stop_reason.value_or("-"));
    auto msgs = s.messages(t.id).value();
    auto turns = s.turns(t.id).value();
    for (const auto& m : msgs)
      out += fmt::format("msg {} turn {} {}: {}\n", m.seq, m.turn, m.role, m.content);
    for (const auto& u : turns)
      out += fmt::format(
          "turn {} {} hash={} correct={} arch={} speedup={} reached={} compile={} eval={}\n",
          u.turn, judge::to_string(u.category), u.source_hash.value_or("-"), u.correct,
          u.arch_executed ? (*u.arch_executed ? "1" : "0") : "null",
          u.speedup ? fmt::format("{:.3f}", *u.speedup) : "null", u.target_reached,
          u.compile.dump(), u.eval.dump());
  }
  return out;
}

}  // namespace ptxbench::run::testing
