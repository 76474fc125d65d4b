#include "judge/judge.h"

#include <chrono>

#include "eval/tool_session.h"
#include "judge/decide.h"

namespace ptxbench::judge {
namespace {

class Unrationed final : public Leases {
 public:
  std::unique_ptr<Hold> cpu() override { return std::make_unique<Hold>(); }
  std::unique_ptr<Hold> gpu() override { return std::make_unique<Hold>(); }
};

// Writes the wall seconds of its own lifetime to `out` when destroyed.
class WallTimer {
 public:
  explicit WallTimer(double& out) : out_(out), start_(std::chrono::steady_clock::now()) {}
  WallTimer(const WallTimer&) = delete;
  WallTimer& operator=(const WallTimer&) = delete;
  ~WallTimer() {
    out_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  double& out_;
  std::chrono::steady_clock::time_point start_;
};

// Why the GPU stages cannot run `arch` here; "" when they can.
std::string gpu_unavailable(const JudgeOptions& o, const std::string& arch) {
  if (!o.gpu) return "no GPU";
  if (!o.gpu_arch) return o.gpu_none_why;
  if (task::parse_arch(arch) != o.gpu_arch)
    return "the GPU here runs " + std::string(task::to_string(*o.gpu_arch)) + ", not " + arch;
  return {};
}

}  // namespace

Leases& unrationed() {
  static Unrationed leases;
  return leases;
}

JudgeReport Judge::judge(const task::TaskSpec& task, const std::optional<std::string>& source,
                         const JudgeOptions& options, Leases& leases) const {
  JudgeReport r;
  r.task = task.name;
  r.arch = options.compile.arch;
  r.has_code = source.has_value();
  if (source) run_stages(task, *source, options, leases, r);
  Decision d = decide(r);
  r.disposition = d.disposition;
  r.message = std::move(d.message);
  return r;
}

void Judge::run_stages(const task::TaskSpec& task, const std::string& source, const JudgeOptions& o,
                       Leases& leases, JudgeReport& r) const {
  std::string nvcc_release;
  {
    auto hold = leases.cpu();
    auto built = stages_.compile(task, source, o.compile);
    if (!built.ok()) {
      r.compile = Failed{built.error().to_string()};
      return;
    }
    r.compile = std::move(built->result);
    nvcc_release = std::move(built->nvcc_release);
  }
  if (r.compile.done()->outcome != Outcome::passed) return;
  if (!o.evaluate && !o.run_audit) {
    r.eval = Skipped{SkipCause::turned_off, kEvalTurnedOff};
    r.audit = Skipped{SkipCause::turned_off, kAuditTurnedOff};
    return;
  }
  if (std::string why = gpu_unavailable(o, r.arch); !why.empty()) {
    r.eval = Skipped{SkipCause::no_gpu, why};
    r.audit = Skipped{SkipCause::no_gpu, why};
    return;
  }
  run_gpu_stages(task, o, nvcc_release, leases, r);
}

void Judge::run_gpu_stages(const task::TaskSpec& task, const JudgeOptions& o,
                           const std::string& nvcc_release, Leases& leases, JudgeReport& r) const {
  auto hold = leases.gpu();
  WallTimer held(r.gpu_seconds);  // the GPU's time, from the lease on
  // One judging session: checks, timing (unless only auditing), then the audited calls.
  eval::EvalOptions eo = o.eval;
  eo.arch = r.arch;
  if (hold->device >= 0) eo.device = hold->device;
  if (eo.nvcc_version.empty()) eo.nvcc_version = nvcc_release;
  eo.timing = eo.timing && o.evaluate;
  const compile::CompileResult& compiled = *r.compile.done();
  eo.contract = compiled.contract;  // the runner calls it as it was built
  eo.audit = o.run_audit ? audit::instrument_for(o.audit.route) : eval::Instrument::none;
  eo.audit_workload = o.audit.workload;
  eo.ncu_arguments = audit::ncu_session_arguments();
  r.eval = stages_.evaluate(task, compiled.shared_object, eo);
  const eval::EvalResult& evaluated = *r.eval.done();
  if (evaluated.outcome != Outcome::passed) return;
  if (!o.run_audit) {
    r.audit = Skipped{SkipCause::turned_off, kAuditTurnedOff};
    return;
  }
  audit::AuditOptions ao = o.audit;
  ao.sass_listing = compiled.sass;
  const eval::AuditTrace* trace = evaluated.audit_trace ? &*evaluated.audit_trace : nullptr;
  auto audited = stages_.audit(compiled.shared_object, task, r.arch, trace, ao,
                               "the evaluation collected no audit trace");
  std::string why_ncu = audited.ok() ? audit::needs_ncu(*audited) : audited.error().to_string();
  if (o.audit.route == audit::RouteChoice::automatic && !why_ncu.empty())
    audit_with_ncu(task, eo, ao, why_ncu, r, audited);
  if (audited.ok()) {
    audited->seed = r.eval.done()->seed;
    r.audit = std::move(*audited);
  } else {
    r.audit = Failed{audited.error().to_string()};
  }
}

// `auto` after a CUPTI audit that missed a kernel function: a second session, untimed, with
// the runner under Nsight Compute. It is one of the candidate's judged sessions, as the memcheck
// session is, by the same rule (eval/tool_session.h): the candidate's failure there (wrong
// outputs, a throw, a fault, a hang, a refusal) becomes the verdict; only a failure of the
// judge's side under the tool (its injected library under the broker's sandbox) leaves the CUPTI
// result standing, with a message.
void Judge::audit_with_ncu(const task::TaskSpec& task, eval::EvalOptions eo,
                           const audit::AuditOptions& ao, const std::string& why, JudgeReport& r,
                           Result<audit::AuditResult>& audited) const {
  eo.timing = false;
  eo.audit = eval::Instrument::nvtx;
  eval::EvalResult second = stages_.evaluate(task, r.compile.done()->shared_object, eo);
  switch (eval::adopt_tool_session_failure(second, "under Nsight Compute: ", *r.eval.done())) {
    case eval::ToolSessionEnd::passed:
      break;
    case eval::ToolSessionEnd::candidate_failed:
      return;
    case eval::ToolSessionEnd::judge_failed:
    case eval::ToolSessionEnd::no_verdict:
      if (audited.ok())
        audited->messages.push_back("the Nsight Compute session ended " +
                                    std::string(to_string(second.outcome)) + ": " + second.message);
      return;
  }
  // The second session is untimed: the timed calls' own counters are the first session's.
  if (const eval::EvalResult& first = *r.eval.done(); second.audit_trace && first.audit_trace)
    second.audit_trace->timed = first.audit_trace->timed;
  auto by_ncu = stages_.audit(r.compile.done()->shared_object, task, r.arch,
                              second.audit_trace ? &*second.audit_trace : nullptr, ao);
  if (by_ncu.ok() && by_ncu->runtime_run) {
    by_ncu->messages.insert(by_ncu->messages.begin(), why + "; audited with Nsight Compute");
    audited = std::move(by_ncu);
  } else if (audited.ok()) {
    audited->messages.push_back("Nsight Compute could not audit either: " +
                                (by_ncu.ok() ? (by_ncu->messages.empty() ? std::string("no counts")
                                                                         : by_ncu->messages.back())
                                             : by_ncu.error().to_string()));
  }
}

}  // namespace ptxbench::judge
