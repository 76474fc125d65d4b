// Which kernel functions the instruction audit instruments (issue 34, item 6: a bounded judging
// cost). On the CUPTI route every audited function after the first costs a broker process of its
// own (audit_trace.h: a CUPTI 13.0 limit), so a candidate split over many functions could hold
// the GPU for as long as it liked. The audit instruments only the functions that carry the work,
// by their share of the GPU time the trusted broker measured around each of their launches in the
// session's checked calls (CallCommand::function_times), and says which it skipped and why.
//
// The rule (choose_audited): functions in decreasing measured time (ties: first launch first),
// until they cover kAuditTimeTarget of the candidate's kernel time, at most kMaxAuditedFunctions.
// When even the kMaxAuditedFunctions largest cannot cover the target, no credit for the target
// instructions is possible (the audit would prove too little of the work), so only the largest is
// audited (in the session's own broker: no extra process) for the report and the feedback. A
// function with no measured time is never audited. When nothing was measured (no checked call
// listed a time), the first kMaxAuditedFunctions in first-launch order are audited and the share
// they cover is unknown.
//
// The audit phase's budget (AuditBudget): a further function's broker starts only while the
// phase so far plus the last function's own cost fits in kAuditPhaseBudgetSeconds; the rest are
// skipped with AuditSkip::budget. The audit's credit then rests on the share it did cover
// (audit/verdicts.h apply_instruction_metric).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxbench::eval {

// The audited functions must carry this share of the candidate's measured kernel time for the
// target instructions to earn credit: 5% is left for helpers (a memset kernel, a split-K
// reduction, a layout conversion) whose instructions do not decide the verdict.
inline constexpr double kAuditTimeTarget = 0.95;
// At most this many functions are audited. Honest designs in the task suite use one to three
// functions per call (a GEMM, a split-K GEMM and its reduction, attention backward's
// preprocess + main + dQ conversion); on the H200 each further function cost about 3 s (a broker
// process, the candidate loaded again, one ordinary call and the audited calls: 84.4 s for 28
// functions, shared/cases/oracle/audit_runner_per_function.cu, 2026-12-04).
inline constexpr int kMaxAuditedFunctions = 4;
// The audit phase's budget for starting further functions (their brokers), seconds: room for the
// kMaxAuditedFunctions of an honest design at about 7 s each (twice the 3 s measured a function,
// for slower kernels' audited calls). The phase's ceiling is this plus one function's audit,
// which its own limits bound (a broker's start, one call within the call limit, the audited
// calls within audited_call_limit each).
inline constexpr double kAuditPhaseBudgetSeconds = 30;

// Why a kernel function the candidate launched was not audited.
enum class AuditSkip {
  none,         // audited
  small_share,  // the functions before it already cover kAuditTimeTarget of the kernel time
  unreachable,  // the kMaxAuditedFunctions largest cover less than kAuditTimeTarget: no credit
                // is possible, only the largest is audited
  over_cap,     // past kMaxAuditedFunctions (shares unknown: first-launch order)
  no_time,      // no launch of it was measured (launched only in calls without function times)
  budget,       // chosen, but the audit phase's budget ran out before its turn
};
std::string_view to_string(AuditSkip s);

// One kernel function of the candidate with its measured GPU time over the checked calls.
struct FunctionTime {
  std::string name;  // mangled
  double ms = 0;     // summed over its measured launches
  double share = 0;  // ms over all functions' ms; 0 when nothing was measured
};

struct AuditChoice {
  bool measured = false;              // some function had a measured time
  std::vector<FunctionTime> audited;  // in audit order
  std::vector<std::pair<FunctionTime, AuditSkip>> skipped;
  // The share of the measured kernel time the audited functions carry (1 when all are audited).
  double audited_share() const;
};

// `functions`: every function the candidate launched in its calls so far, in first-launch order,
// with its measured time (0 when none of its launches was measured).
AuditChoice choose_audited(std::vector<FunctionTime> functions, double target = kAuditTimeTarget,
                           int max_functions = kMaxAuditedFunctions);

// The audit phase's budget: may a further function's audit start, `elapsed` seconds into the
// phase, when the last function's audit took `last_cost` seconds? The first function's always
// may (k = 0: the session's own broker).
struct AuditBudget {
  double seconds = kAuditPhaseBudgetSeconds;
  bool may_start(std::size_t k, double elapsed, double last_cost) const {
    return k == 0 || elapsed + last_cost <= seconds;
  }
};

}  // namespace ptxbench::eval
