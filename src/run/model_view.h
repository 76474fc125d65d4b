// ModelView: what the model may be told of one judged candidate, made from the judge's report
// (judge::JudgeReport) when its feedback is written (feedback.h): the disposition, and each
// stage's facts as the feedback needs them, with what could carry a hidden workload's sizes left
// out (eval_facts). The loop's verdict helpers (verdict.h: the instruction metric, the target)
// read it too. Tests of the feedback fill one by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/audit_result.h"
#include "compile/compile_result.h"
#include "core/outcome.h"
#include "eval/eval_result.h"
#include "eval/flags.h"
#include "judge/disposition.h"

namespace ptxbench::run {

struct TurnVerdict;

struct KernelResources {
  std::string kernel;  // mangled or demangled name as ptxas printed it
  int registers = 0;
  std::int64_t shared_bytes = 0;
  std::int64_t spill_store_bytes = 0;  // -1: not known (compile/resource_usage.h)
  std::int64_t spill_load_bytes = 0;
  std::int64_t stack_bytes = 0;
};

struct CompileFacts {
  Outcome outcome = Outcome::not_run;           // passed | policy_violation | compile_error |
                                                // compile_timeout | harness_error
  std::string log;                              // nvcc + ptxas output
  std::vector<std::string> violations;          // policy findings, one sentence each
  std::vector<std::string> disallowed_symbols;  // imports outside the allow-list
  std::vector<KernelResources> resources;
  std::vector<std::string>
      warnings;  // ptxas warnings that matter (serialised wgmma, setmaxnreg ignored, ...)
  // Built, but without the contract's entry point as the task calls it: what is wrong and the
  // declaration expected (compile/entry_point.h); empty otherwise.
  std::string entry_point;
  bool timed_out = false;  // the compiler ran past its limit
  double timeout_s = 0;    // that limit
};

// One output that failed the correctness rule on one workload.
struct Mismatch {
  std::string output;    // "C", "O", "LSE", "dQ", ...
  std::string workload;  // name; hidden workloads are never described to the model
  bool hidden = false;
  // A public workload's call made after the candidate's process had run a hidden one: the
  // figures below are left empty (they are the candidate's and may carry the hidden sizes).
  bool figures_withheld = false;
  std::int64_t bad_elements = 0;
  std::int64_t total_elements = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  double rel_l2_error = 0;
  bool non_finite = false;  // NaN or Inf in the output
  struct BadIndex {
    std::vector<std::int64_t> index;
    double got = 0;
    double expected = 0;
  };
  std::vector<BadIndex> first_bad;  // a few, in memory order
};

struct EvalFacts {
  // passed | incorrect | runtime_error | timeout | policy_violation | not_run | harness_error |
  // task_suite_error
  Outcome outcome = Outcome::not_run;
  std::string error;     // runtime error / timeout / harness text
  std::string workload;  // where a runtime error or timeout happened
  bool workload_hidden = false;
  std::vector<Mismatch> mismatches;
  std::vector<eval::Flag> flags;  // eval/flags.h: side_stream, cached_result, ...
  std::optional<double> kernel_ms;
  std::optional<double> baseline_ms;
  std::optional<double> speedup;  // baseline time / kernel time
  std::optional<double> tflops;
  std::string baseline;  // "cuBLASLt", "cuDNN SDPA"
  double timeout_s = 0;
};

struct FamilyVerdict {
  std::string family;  // "wgmma"
  // executed | present_not_executed | absent | present_not_audited (the static census only)
  audit::Verdict verdict = audit::Verdict::absent;
  std::vector<std::string> opcodes;  // SASS opcodes seen, e.g. "HGMMA.64x128x16.F32.BF16"
  // No executed counts: the audited calls come after hidden ones, and an exact count the kernel
  // controls would carry their sizes to the model (the audit's JSON keeps them for people).
};

struct AuditFacts {
  bool ran = false;
  bool runtime = false;  // true: run-time audit (executed counts); false: static census only
  std::string route;     // "cupti", "ncu", "static"
  std::string rule;      // "any" | "all"
  std::vector<FamilyVerdict> families;  // the arch's target families
  std::optional<bool> metric_pass;      // the instruction metric; empty when not decidable
  std::optional<double> coverage;       // share of the task's FLOPs done by target tensor ops
  std::string sentence;                 // the auditor's one-line summary
  std::string error;                    // why it did not run, when !ran
};

struct ModelView {
  // The verdict (stored as the turn's category); a reply without code is no_code.
  judge::Disposition disposition = judge::Disposition::no_code;
  std::string message;  // the judge's reason (quoted for a harness error)
  CompileFacts compile;
  std::optional<EvalFacts> eval;    // empty: not reached (compile failed)
  std::optional<AuditFacts> audit;  // empty: not reached
  bool gpu_skipped = false;         // no GPU here: eval and run-time audit skipped
};

// The view of a judged turn (its report, and the limits the feedback quotes).
ModelView model_view(const TurnVerdict& v);

bool is_correct(const ModelView& v);
// The instruction metric: empty when it could not be decided (no run-time audit).
std::optional<bool> arch_executed(const ModelView& v);
// Passed (correct, target families executed), no guard flag, and speedup >= target:
// the trajectory stops.
bool target_reached(const ModelView& v, double speedup_target);

// The facts the feedback needs, from each stage's result (unit-tested without a GPU).
CompileFacts compile_facts(const compile::CompileResult& r);
EvalFacts eval_facts(const eval::EvalResult& r, double call_timeout_s);
AuditFacts audit_facts(const audit::AuditResult& r);
AuditFacts static_audit_facts(const compile::Census& c);

}  // namespace ptxbench::run
