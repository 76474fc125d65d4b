#include "judge/judge.h"

#include "judge/decide.h"

namespace ptxbench::judge {
namespace {

class Unrationed final : public Leases {
 public:
  std::unique_ptr<Hold> cpu() override { return std::make_unique<Hold>(); }
  std::unique_ptr<Hold> gpu() override { return std::make_unique<Hold>(); }
};

// Why the GPU stages cannot run `arch` here; "" when they can.
std::string gpu_unavailable(const JudgeOptions& o, const std::string& arch) {
  if (!o.gpu) return "no GPU";
  if (arch != o.gpu_arch) return "the GPU here runs " + o.gpu_arch + ", not " + arch;
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
      r.compile_error = built.error().to_string();
      return;
    }
    r.compile = std::move(built->result);
    nvcc_release = std::move(built->nvcc_release);
  }
  if (r.compile->outcome != Outcome::passed) return;
  if (!o.evaluate) r.eval_skipped = "evaluation turned off";
  r.audit_off = !o.run_audit;
  if (!o.evaluate && !o.run_audit) return;
  if (std::string why = gpu_unavailable(o, r.arch); !why.empty()) {
    r.gpu_stages_skipped = true;
    r.eval_skipped = why;
    return;
  }
  run_gpu_stages(task, o, nvcc_release, leases, r);
}

void Judge::run_gpu_stages(const task::TaskSpec& task, const JudgeOptions& o,
                           const std::string& nvcc_release, Leases& leases, JudgeReport& r) const {
  auto hold = leases.gpu();
  if (o.evaluate) {
    eval::EvalOptions eo = o.eval;
    eo.arch = r.arch;
    if (hold->device >= 0) eo.device = hold->device;
    if (eo.nvcc_version.empty()) eo.nvcc_version = nvcc_release;
    r.eval = stages_.evaluate(task, r.compile->shared_object, eo);
  }
  if (r.audit_off || (r.eval && r.eval->outcome != Outcome::passed)) return;
  audit::AuditOptions ao = o.audit;
  ao.sass_listing = r.compile->sass;
  if (hold->device >= 0) ao.device = hold->device;
  auto audited = stages_.audit(r.compile->shared_object, task, r.arch, ao);
  if (audited.ok())
    r.audit = std::move(*audited);
  else
    r.audit_error = audited.error().to_string();
}

}  // namespace ptxbench::judge
