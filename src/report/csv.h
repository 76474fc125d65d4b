// CSV of run files (`ptxbench report RUN.db... --csv OUT.csv`), one row per turn, for pandas
// (`pd.read_csv`): RFC 4180 (fields with a comma, quote or line break are quoted), a header
// row naming the columns (kCsvColumns), booleans as 0/1, a value the run file lacks as an
// empty field (NaN in pandas), numbers in their shortest exact decimal form; times in
// milliseconds (_ms) or seconds (_s), clocks in MHz, coverage as a fraction 0..1.
#pragma once

#include <string>
#include <vector>

#include "report/run_detail.h"

namespace ptxbench::report {

inline constexpr const char* kCsvColumns =
    "run,model,task,arch,sample,trajectory_status,stop_reason,turn,category,correct,"
    "arch_executed,speedup,gpu_skipped,flags,families_executed,coverage,candidate_ms,"
    "library_ms,library,tflops,library_tflops,sm_mhz_before,sm_mhz_after,sm_mhz_max,throttle,"
    "compile_s,eval_s,audit_s,prompt_tokens,completion_tokens";

std::string to_csv(const std::vector<RunDetail>& runs);

// One field as written: quoted (quotes doubled) when it holds a comma, quote, CR or LF.
std::string csv_field(const std::string& s);

}  // namespace ptxbench::report
