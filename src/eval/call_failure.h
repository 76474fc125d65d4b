// What the model is told about a failed call whose own text may name a hidden workload
// (docs/judging.md, "What the model is told"): a fixed sentence built by the judge from what
// failed and on which kind of workload; the text it replaces is kept for people only
// (EvalResult::withheld).
#pragma once

#include <string>

#include "eval/eval_result.h"

namespace ptxbench::eval {

// What failed in a call (or in the judge around it), as the judge knows it.
enum class CallFault {
  exception,        // the candidate's entry point threw (or its tvm-ffi run failed)
  cuda_error,       // a CUDA error while its work ran (a fault, a bad launch)
  timeout,          // the call outlived its limit
  host_protocol,    // its process broke the host protocol
  refused_request,  // the judge refused a request of its host code
  input_written,    // its host code asked to write into an input (inputs are read-only)
  driver_refused,   // it asked for a driver function off the allow-list
  syscall_refused,  // the sandbox refused a system call of its host code
  process_ended,    // its process ended during the call
  broker_crashed,   // the broker failed while it ran the candidate's work, and works without it
  judge_failed,     // the judge's own processes failed (harness_error)
};

// Why a call's text is withheld: none, the call was on a hidden workload, or it was on the timed
// workload but the candidate's process had been given a hidden call before (what the candidate
// says then may carry what it saw there).
enum class Withhold { none, hidden_call, after_hidden_call };

// Where a hidden call failed, for a model: "a hidden workload", with its kind in words when known
// ("a hidden workload with a small M (below 64)") and " while another kernel held some of the SMs"
// when it ran under the broker's load. Never a size.
std::string hidden_phase(const EvalResult& r, task::Family family);

// The sentence a model gets instead of the call's text; `where` is hidden_phase's text.
std::string withheld_message(CallFault fault, Withhold why, const std::string& where);

// With `why` other than none: r.message (and the call's label) moves to r.withheld and r.message
// becomes withheld_message; on a hidden call r.phase becomes `where` (hidden_phase).
void withhold(EvalResult& r, CallFault fault, Withhold why, const std::string& label,
              const std::string& where);

inline constexpr const char* kHiddenPhase = "a hidden workload";

}  // namespace ptxbench::eval
