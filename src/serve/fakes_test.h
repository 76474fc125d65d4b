// For the serve tests: a task, verdicts by hand, and a Judger that answers from the source's
// first word ("passed", "incorrect", ...) and can hold jobs until released (or cancelled).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "judge/testing/named.h"
#include "serve/service.h"

namespace ptxbench::serve::testing {

inline task::TaskSpec fake_task(const std::string& name) {
  task::TaskSpec t;
  t.name = name;
  t.archs = {{"sm_90a", {"wgmma", "tma"}, "any"}};
  return t;
}

// passed: correct, every family executed, coverage 0.8, speedup 2 (interval +-5%).
inline run::TurnVerdict verdict_named(const std::string& name) {
  run::TurnVerdict v;
  judge::JudgeReport& r = v.report;
  r.has_code = true;
  r.disposition = judge::testing::named(name);
  r.message = "because " + name;
  compile::CompileResult c;
  c.outcome = name == "compile_error" ? Outcome::compile_error : Outcome::passed;
  r.compile = std::move(c);
  if (name == "compile_error") return v;
  eval::EvalResult e;
  e.outcome = name == "passed" ? Outcome::passed : Outcome::incorrect;
  e.timing = eval::TimingReport{};
  e.timing->speedup = 2.0;
  e.timing->speedup_rel_ci95 = 0.05;
  r.eval = std::move(e);
  r.gpu_seconds = 1.5;
  audit::AuditResult a;
  a.runtime_run = true;
  a.instruction_metric_evaluated = a.instruction_metric_passed = true;
  a.coverage.available = true;
  a.coverage.ratio = 0.8;
  r.audit = std::move(a);
  return v;
}

class FakeJudger : public Judger {
 public:
  // A held job waits until release(), or until it is cancelled (its checkpoint: it stops).
  run::TurnVerdict judge(const JobRequest& r, const task::TaskSpec&, run::StageSlots&,
                         const std::atomic<bool>& cancelled) override {
    std::unique_lock lock(mu_);
    ++calls_;
    ++started_;
    started_cv_.notify_all();
    while (holding_ && !cancelled.load()) cv_.wait_for(lock, std::chrono::milliseconds(5));
    if (cancelled.load()) ++stopped_;
    const std::string first = r.source.substr(0, r.source.find(' '));
    return verdict_named(first);
  }
  std::string feedback(const run::TurnVerdict& v, const JobRequest&) override {
    return std::string("feedback: ") + std::string(judge::to_string(v.report.disposition));
  }
  Json describe() const override { return Json{{"version", "test"}, {"gpu", false}}; }

  void hold() {
    std::lock_guard lock(mu_);
    holding_ = true;
  }
  void release() {
    {
      std::lock_guard lock(mu_);
      holding_ = false;
    }
    cv_.notify_all();
  }
  // Blocks until `n` jobs have reached judge().
  void wait_started(int n) {
    std::unique_lock lock(mu_);
    started_cv_.wait(lock, [&] { return started_ >= n; });
  }
  int calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }
  // Jobs that saw their cancellation and stopped.
  int stopped() {
    std::lock_guard lock(mu_);
    return stopped_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_, started_cv_;
  bool holding_ = false;
  int calls_ = 0, started_ = 0, stopped_ = 0;
};

inline JobRequest request(const std::string& source, int priority = 0) {
  JobRequest r;
  r.task = "gemm_test";
  r.source = source;
  r.priority = priority;
  return r;
}

// A fresh folder for a store file, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/ptxbench_serve_test_XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

// A service over a FakeJudger and a store in a fresh folder, on a clock the test moves.
struct Fixture {
  TempDir dir;
  FakeJudger judger;
  std::atomic<double> clock{1000};
  std::unique_ptr<Service> service;

  void open(ServiceOptions o = {}) {
    o.clock = [this] { return clock.load(); };
    auto store = JobStore::open(dir.path / "jobs.db");
    ASSERT_TRUE(store.ok()) << store.error().to_string();
    service = std::make_unique<Service>(std::move(o), std::vector{fake_task("gemm_test")}, judger,
                                        std::move(*store));
  }
  ServiceOptions one_worker() {
    ServiceOptions o;
    o.workers = 1;
    return o;
  }
  // One worker, started, judging a first job it holds until judger.release(): that job's id.
  JobId start_holding_one() {
    open(one_worker());
    judger.hold();
    EXPECT_TRUE(service->start().ok());
    const JobId id = service->submit(request("passed 0"))->id;
    judger.wait_started(1);
    return id;
  }
  Json wait_done(JobId id) {
    auto j = service->wait(id, 10);
    EXPECT_TRUE(j.ok() && *j);
    return j.ok() && *j ? **j : Json();
  }
};

}  // namespace ptxbench::serve::testing
