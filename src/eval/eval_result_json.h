// Reading an evaluation back from its JSON (EvalResult::to_json): what a run file's eval_json
// and `ptxbench eval --json` hold, typed again, so that readers above the judge (the store, the
// reports, the traces) read fields, not JSON by key.
//
// What to_json writes reads back whole, and writes again byte for byte. What it does not write
// stays empty: the per-PC audit counts (an audit trace is stored as a summary: its functions' PC
// counts only, TracedFunction::stored_pcs), the broker's exit status and tool log (kept in
// memory only), the faulting kernel and the memcheck report of a session that made a hidden call
// (withheld when written). A member older run files lack reads as the field's default.
#pragma once

#include "core/json.h"
#include "core/result.h"
#include "eval/eval_result.h"

namespace ptxbench::eval {

// An Error when `j` is no evaluation: not an object, no known "outcome", a member of the wrong
// type or an enum of no known name (the error names the member).
Result<EvalResult> eval_result_from_json(const Json& j);

// The parts, for readers of one of them (an audit's stored summary of its trace).
Result<TimingReport> timing_report_from_json(const Json& j);
Result<AuditTrace> audit_trace_from_json(const Json& j);
Result<TimedCounts> timed_counts_from_json(const Json& j);

}  // namespace ptxbench::eval
