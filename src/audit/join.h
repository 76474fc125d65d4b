// Joining runtime counts to the disassembled SASS of one kernel function.
//
// CUPTI SASS Metrics records are keyed by (function name, function-relative PC offset);
// those offsets equal cuobjdump/nvdisasm offsets (field notes §3), so each record names
// one instruction of compile::parse_sass's listing. Nsight Compute's raw page gives
// counts per opcode (with modifiers) instead; both end as per-opcode KernelAudit rows.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "audit/audit_result.h"
#include "compile/sass_parser.h"
#include "core/json.h"
#include "core/result.h"

namespace ptxbench::audit {

struct PcCounts {
  std::uint64_t warp_executed = 0;
  std::uint64_t thread_pred_on = 0;
};
using PcTable = std::map<std::uint32_t, PcCounts>;

// The "records" of a recorded CUPTI result (the JSON kept under testdata/ from H200 runs, and
// what bench tools write), by function then PC. Records of the same PC are summed.
Result<std::map<std::string, PcTable>> records_by_function(const Json& worker_result);

// Per-opcode rows of `f` with the counts of `pcs`; a PC with no instruction in the
// listing is counted in unmatched_records (a sign that the wrong cubin was listed).
KernelAudit join_pcs(const compile::SassFunction& f, const PcTable& pcs);

// Per-opcode rows from per-opcode counts (Nsight Compute); static counts from `f`
// when the listing has the function (nullptr: none).
KernelAudit join_opcodes(const std::string& function, const compile::SassFunction* f,
                         const std::map<std::string, std::uint64_t>& warp_executed,
                         const std::map<std::string, std::uint64_t>& thread_pred_on);

// Static rows only (no runtime counts).
KernelAudit static_kernel(const compile::SassFunction& f);

}  // namespace ptxbench::audit
