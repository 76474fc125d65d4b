// Stages whose results a test sets, for tests of judge::Judge and of its callers. Safe
// to call from several threads: each call is logged under a lock, with `note()`'s text
// (e.g. which leases are held) appended.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "judge/stages.h"

namespace ptxbench::judge::testing {

class FakeStages final : public Stages {
 public:
  // What the stages return.
  Outcome compile_outcome = Outcome::passed;
  bool compile_timed_out = false;
  bool compiler_missing = false;  // compile() is an Error
  Outcome eval_outcome = Outcome::passed;
  std::string eval_message;
  std::optional<double> speedup;       // of a passed evaluation
  bool audit_fails = false;            // audit() is an Error
  bool executed = true;                // the run-time audit's instruction metric
  bool cupti_misses_a_kernel = false;  // the cupti audit leaves a kernel unrecorded (auto: ncu)
  Outcome ncu_session_outcome = Outcome::passed;  // of the second (ncu) session
  int ncu_broker_exit = -1;                       // its broker's exit status
  std::function<std::string()> note;

  // What they were given.
  std::vector<std::string> calls;  // "compile", "evaluate SO", "audit SO ARCH" (+ note)
  std::vector<int> eval_devices;
  eval::EvalOptions eval_options;
  audit::AuditOptions audit_options;

  Result<Compiled> compile(const task::TaskSpec&, std::string_view,
                           const compile::CompileOptions& o) override {
    log("compile");
    if (compiler_missing) return make_error("nvcc not found");
    Compiled c;
    c.result.outcome = compile_outcome;
    c.result.timed_out = compile_timed_out;
    c.result.arch = o.arch;
    c.result.shared_object = "/cache/k.so";
    c.result.sass = "/cache/k.sass";
    c.result.census.target_families = {"wgmma"};
    c.result.census.target_rule = "any";
    c.result.census.family_totals = {{"wgmma", 4}};
    c.nvcc_release = "Cuda compilation tools, release 13.0, V13.0.88";
    return c;
  }

  eval::EvalResult evaluate(const task::TaskSpec&, const std::filesystem::path& so,
                            const eval::EvalOptions& o) override {
    log("evaluate " + so.string(), [&] {
      eval_options = o;
      eval_devices.push_back(o.device);
    });
    eval::EvalResult r;
    r.outcome = eval_outcome;
    r.message = eval_message;
    if (o.audit != eval::Instrument::none) {
      r.audit_trace = eval::AuditTrace{};
      r.audit_trace->route = o.audit;
    }
    if (o.audit == eval::Instrument::nvtx && !o.timing) {
      r.outcome = ncu_session_outcome;
      r.message = "the ncu session's words";
      r.broker_exit_code = ncu_broker_exit;
    }
    if (eval_outcome == Outcome::passed && speedup) {
      r.timing = eval::TimingReport{};
      r.timing->speedup = speedup;
    }
    return r;
  }

  Result<audit::AuditResult> audit(const std::filesystem::path& so, const task::TaskSpec&,
                                   std::string_view arch, const eval::AuditTrace* trace,
                                   const audit::AuditOptions& o, const std::string&) override {
    const bool ncu = trace && trace->route == eval::Instrument::nvtx;
    log("audit " + so.string() + " " + std::string(arch) + (ncu ? " ncu" : ""),
        [&] { audit_options = o; });
    if (audit_fails) return make_error("no disassembler");
    audit::AuditResult a;
    a.route = ncu ? audit::Route::ncu : audit::Route::cupti;
    a.runtime_run = trace != nullptr;
    if (!ncu && cupti_misses_a_kernel) a.kernels.push_back(audit::KernelAudit{});
    a.instruction_metric_evaluated = true;
    a.instruction_metric_passed = executed;
    return a;
  }

 private:
  void log(const std::string& call, const std::function<void()>& record = {}) {
    std::lock_guard lock(mu_);
    calls.push_back(note ? call + note() : call);
    if (record) record();
  }
  std::mutex mu_;
};

}  // namespace ptxbench::judge::testing
