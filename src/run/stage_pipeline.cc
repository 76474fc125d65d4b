#include "run/stage_pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/text.h"
#include "eval/call_failure.h"
#include "task/families.h"

namespace ptxbench::run {
namespace {

Mismatch mismatch(const gpu::CompareStats& o, const std::string& workload) {
  Mismatch m;
  m.output = o.tensor;
  m.workload = workload;
  m.bad_elements = o.failed;
  m.total_elements = o.numel;
  m.max_abs_error = o.max_abs_err;
  m.max_rel_error = o.max_rel_err;
  m.rel_l2_error = o.rel_l2;
  m.non_finite = o.nonfinite > 0;
  for (const auto& b : o.first_bad)
    if (m.first_bad.size() < 3) m.first_bad.push_back({b.index, b.out, b.ref});
  return m;
}

// Which output is wrong on which workload, and whether it holds NaN or Inf; no figures:
// - on a hidden workload (`hidden`), its counts, positions and error sizes together give its
//   sizes away (a ragged tail's first bad row and share of bad elements solve for M); `workload`
//   is then the judge's words for it ("a hidden workload with a small M (below 64)",
//   eval/call_failure.h hidden_phase), never its label;
// - on a public workload after a hidden call (eval::TrialReport::after_hidden), the figures are
//   the candidate's choice, made knowing the hidden sizes; `workload` is its name.
Mismatch figureless_mismatch(const gpu::CompareStats& o, const std::string& workload, bool hidden) {
  Mismatch m;
  m.output = o.tensor;
  m.workload = workload;
  m.hidden = hidden;
  m.figures_withheld = !hidden;
  m.non_finite = o.nonfinite > 0;
  return m;
}

// The family's four most frequent opcodes; `opcodes`: count per opcode, summed over kernels.
std::vector<std::string> opcodes_of(const std::string& family,
                                    const std::map<std::string, std::int64_t>& opcodes) {
  std::vector<std::string> out;
  const task::InstructionFamily* f = task::find_family(family);
  if (!f) return out;
  std::vector<std::pair<std::int64_t, std::string>> hits;  // most frequent first
  for (const auto& [op, n] : opcodes)
    if (n > 0 && task::family_matches(*f, op)) hits.emplace_back(-n, op);
  std::sort(hits.begin(), hits.end());
  for (const auto& h : hits)
    if (out.size() < 4) out.push_back(h.second);
  return out;
}

}  // namespace

CompileFacts compile_facts(const compile::CompileResult& r) {
  CompileFacts f;
  f.outcome = r.outcome;
  f.log = r.log;
  for (const auto& v : r.violations)
    f.violations.push_back(fmt::format("line {}: {} (`{}`)", v.line, v.message, v.text));
  f.disallowed_symbols = r.disallowed_symbols;
  for (const auto& s : r.forbidden_exports) f.disallowed_symbols.push_back(s + " (exported)");
  if (r.outcome == Outcome::policy_violation && f.violations.empty()) {
    for (const auto& s : r.symbol_reasons) f.violations.push_back(s);
    for (const auto& s : r.object_problems) f.violations.push_back(s);
  }
  for (const auto& k : r.resources) {
    if (!k.entry) continue;
    f.resources.push_back({k.demangled.empty() ? k.name : k.demangled, k.registers, k.shared_bytes,
                           k.spill_store_bytes, k.spill_load_bytes, k.stack_frame_bytes});
  }
  for (const auto& w : r.warnings)
    f.warnings.push_back(w.code.empty() ? w.text : w.code + ": " + w.text);
  f.timed_out = r.timed_out;
  if (compile::is_problem(r.entry_point)) f.entry_point = r.summary;
  return f;
}

EvalFacts eval_facts(const eval::EvalResult& r, double call_timeout_s) {
  EvalFacts f;
  f.outcome = r.outcome;
  f.error = r.message;  // the judge's: on a hidden call a fixed sentence (eval/call_failure.h)
  f.workload_hidden = r.failed_on == eval::FailedOn::hidden;
  // compute-sanitizer's report holds what the kernel printed: not after a hidden call's failure,
  // nor from a memcheck session that made a hidden call
  // (withheld/memcheck_report_after_public_fault).
  const bool tool_words = !f.workload_hidden && !r.memcheck_ran_hidden;
  if (tool_words && !r.faulting_kernel.empty())
    f.error += "\nfaulting kernel: " + r.faulting_kernel;
  if (tool_words && !r.memcheck_report.empty()) f.error += "\n" + r.memcheck_report;
  f.flags = r.flags;
  f.timeout_s = call_timeout_s;
  // The failing hidden call's kind in words, as the judge wrote its phase (never a label).
  const bool hidden_words =
      r.failed_on == eval::FailedOn::hidden && r.phase.starts_with(eval::kHiddenPhase);
  const std::string where = hidden_words ? r.phase : std::string(eval::kHiddenPhase);
  if (f.workload_hidden) f.workload = where;
  for (const auto& t : r.trials) {
    if (t.passed) continue;
    const bool hidden = t.hidden;
    const std::string name = hidden ? std::string() : t.workload.empty() ? "timed" : t.workload;
    if (f.workload.empty() && !f.workload_hidden) {
      f.workload = name;
      f.workload_hidden = hidden;
    }
    for (const auto& o : t.outputs) {
      if (o.passed || f.mismatches.size() >= 3) continue;
      f.mismatches.push_back(t.figures_shown()
                                 ? mismatch(o, name)
                                 : figureless_mismatch(o, hidden ? where : name, hidden));
    }
  }
  if (f.workload.empty() && !f.workload_hidden) f.workload = "timed";
  if (r.timing) {
    f.kernel_ms = r.timing->candidate.median;
    f.baseline_ms = r.timing->baseline.median;
    f.speedup = r.timing->speedup;
    f.tflops = r.timing->tflops;
    f.baseline = r.timing->baseline_name;
  }
  return f;
}

AuditFacts audit_facts(const audit::AuditResult& r) {
  AuditFacts a;
  a.ran = true;
  a.runtime = r.runtime_run;
  a.route = std::string(audit::to_string(r.route));
  a.rule = r.rule;
  std::map<std::string, std::int64_t> opcodes;
  for (const auto& k : r.kernels)
    for (const auto& o : k.opcodes) opcodes[o.opcode] += o.static_count;
  for (const auto& fr : r.families) {
    if (!fr.target) continue;
    std::string verdict(audit::to_string(fr.verdict));
    if (fr.verdict == audit::Verdict::present_not_audited) verdict = "present";
    a.families.push_back({fr.name, verdict, opcodes_of(fr.name, opcodes)});
  }
  if (r.instruction_metric_evaluated) a.metric_pass = r.instruction_metric_passed;
  if (r.coverage.available) a.coverage = r.coverage.ratio;
  a.sentence = r.feedback();
  return a;
}

AuditFacts static_audit_facts(const compile::Census& c) {
  AuditFacts a;
  a.ran = true;
  a.runtime = false;
  a.route = "static";
  a.rule = c.target_rule;
  std::map<std::string, std::int64_t> opcodes;
  for (const auto& f : c.functions)
    for (const auto& [op, n] : f.by_opcode) opcodes[op] += n;
  for (const auto& fam : c.target_families) {
    auto it = c.family_totals.find(fam);
    bool present = it != c.family_totals.end() && it->second > 0;
    a.families.push_back({fam, present ? "present" : "absent", opcodes_of(fam, opcodes)});
  }
  return a;
}

namespace {

// The run loop's slots as the judge's leases: a CPU slot while compiling, one GPU
// queue's lease while evaluating and auditing (pinned to that GPU when there are several).
class SlotLeases final : public judge::Leases {
 public:
  explicit SlotLeases(StageSlots& slots) : slots_(slots) {}
  std::unique_ptr<Hold> cpu() override { return std::make_unique<CpuHold>(slots_.cpu); }
  std::unique_ptr<Hold> gpu() override { return std::make_unique<GpuHold>(slots_.gpu); }

 private:
  struct CpuHold final : Hold {
    explicit CpuHold(Semaphore& s) : lease(s) {}
    CpuLease lease;
  };
  struct GpuHold final : Hold {
    explicit GpuHold(GpuQueue& q) : lease(q.acquire()) {
      if (q.devices() > 1) device = lease.device();  // queue i evaluates on GPU i only
    }
    GpuLease lease;
  };
  StageSlots& slots_;
};

}  // namespace

TurnVerdict turn_verdict(const judge::JudgeReport& r, const judge::JudgeOptions& options) {
  TurnVerdict v;
  v.disposition = r.disposition;
  v.message = r.message;
  v.compile_json = r.compile_json();
  v.eval_json = r.eval_json();
  v.audit_json = r.audit_json();
  const compile::CompileResult* c = r.compile.done();
  if (c) {
    v.compile = compile_facts(*c);
    v.compile.timeout_s = static_cast<double>(options.compile.timeout.count());
  } else if (const judge::Failed* f = r.compile.failed()) {
    v.compile.outcome = Outcome::harness_error;
    v.compile.log = f->error;
  }
  v.gpu_skipped = r.gpu_stages_skipped();
  if (v.gpu_skipped && c) {
    v.eval = EvalFacts{};
    v.eval->error = r.eval.skipped()->why;
    v.audit = static_audit_facts(c->census);
  }
  if (const auto* e = r.eval.done()) v.eval = eval_facts(*e, options.eval.call_timeout_seconds);
  if (const auto* a = r.audit.done()) {
    v.audit = audit_facts(*a);
  } else if (const judge::Failed* f = r.audit.failed()) {
    v.audit = AuditFacts{};
    v.audit->error = f->error;
  }
  return v;
}

StagePipeline::StagePipeline(Paths paths, ProcessRunner& runner, judge::JudgeOptions options)
    : stages_(std::make_unique<judge::ToolStages>(std::move(paths), runner)),
      options_(std::move(options)) {
  // One library plan per (task, workload, GPU) for the whole run (eval/library_choices.h).
  if (!options_.eval.library_choices)
    options_.eval.library_choices = std::make_shared<eval::LibraryChoices>();
  // One warm verifier process per GPU for the whole run (eval/verifier_host.h).
  if (!options_.eval.verifier_host)
    options_.eval.verifier_host = std::make_shared<eval::VerifierHost>();
}

TurnVerdict StagePipeline::evaluate(const std::string& source, const task::TaskSpec& task,
                                    const std::string& arch, StageSlots& slots) {
  judge::JudgeOptions o = options_;
  o.compile.arch = arch;
  SlotLeases leases(slots);
  TurnVerdict v = turn_verdict(judge::Judge(*stages_).judge(task, source, o, leases), o);
  v.source = source;
  return v;
}

Json StagePipeline::describe() const {
  return Json{
      {"gpu", options_.gpu},
      {"gpu_arch", !options_.gpu       ? Json(nullptr)
                   : options_.gpu_arch ? Json(std::string(task::to_string(*options_.gpu_arch)))
                                       : Json("")},
      {"eval_trials", options_.eval.trials},
      {"memcheck", options_.eval.memcheck},
      // Base input sets: every candidate its own, or (--shared-inputs) the run's, from
      // one secret seed recorded per candidate as eval.input_seed.
      {"inputs", options_.eval.input_seed ? "per_run" : "per_candidate"},
      {"audit_route", options_.audit.route == audit::RouteChoice::automatic ? "auto"
                      : options_.audit.route == audit::RouteChoice::cupti   ? "cupti"
                                                                            : "ncu"}};
}

}  // namespace ptxbench::run
