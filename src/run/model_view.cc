#include "run/model_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/text.h"
#include "eval/call_failure.h"
#include "run/verdict.h"
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
    a.families.push_back({fr.name, fr.verdict, opcodes_of(fr.name, opcodes)});
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
    a.families.push_back({fam,
                          present ? audit::Verdict::present_not_audited : audit::Verdict::absent,
                          opcodes_of(fam, opcodes)});
  }
  return a;
}

ModelView model_view(const TurnVerdict& v) {
  const judge::JudgeReport& r = v.report;
  ModelView m;
  m.disposition = r.disposition;
  m.message = r.message;
  const compile::CompileResult* c = r.compile.done();
  if (c) {
    m.compile = compile_facts(*c);
    m.compile.timeout_s = v.compile_timeout_s;
  } else if (const judge::Failed* f = r.compile.failed()) {
    m.compile.outcome = Outcome::harness_error;
    m.compile.log = f->error;
  }
  m.gpu_skipped = r.gpu_stages_skipped();
  if (m.gpu_skipped && c) {
    m.eval = EvalFacts{};
    m.eval->error = r.eval.skipped()->why;
    m.audit = static_audit_facts(c->census);
  }
  if (const auto* e = r.eval.done()) m.eval = eval_facts(*e, v.call_timeout_s);
  if (const auto* a = r.audit.done()) {
    m.audit = audit_facts(*a);
  } else if (const judge::Failed* f = r.audit.failed()) {
    m.audit = AuditFacts{};
    m.audit->error = f->error;
  }
  return m;
}

bool is_correct(const ModelView& v) {
  return judge::is_correct(v.disposition);
}

std::optional<bool> arch_executed(const ModelView& v) {
  if (!v.audit || !v.audit->ran || !v.audit->runtime) return std::nullopt;
  return v.audit->metric_pass;
}

bool target_reached(const ModelView& v, double speedup_target) {
  if (v.disposition != judge::Disposition::passed || !v.eval) return false;
  // A guard flag (work outside the stream, memory errors) makes the time untrustworthy.
  const auto& flags = v.eval->flags;
  if (std::any_of(flags.begin(), flags.end(), [](eval::Flag f) { return eval::is_guard(f); }))
    return false;
  return v.eval->speedup && *v.eval->speedup >= speedup_target;
}

}  // namespace ptxbench::run
