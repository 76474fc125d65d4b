// Parsers for Nsight Compute's CSV output (ncu 2025.3, recorded on the H200 under
// src/audit/testdata/):
//
// raw page: `ncu --csv --page raw --print-metric-instances details --metrics ...`
//   a header row, a units row, then one row per profiled launch. Per-opcode metrics
//   hold "TOTAL (OPCODE: n; OPCODE: n; ...)" with thousands separators; opcodes whose
//   count is zero are not listed.
// source page: `ncu --csv --section SourceCounters --page source --print-source sass`
//   per kernel: a "Kernel Name" line, a header, then one row per instruction with its
//   absolute address; PC offsets are taken relative to the kernel's first row.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::audit {

inline constexpr std::string_view kNcuWarpPerOpcode =
    "sass__inst_executed_per_opcode_with_modifier_all";
inline constexpr std::string_view kNcuThreadPerOpcode =
    "sass__thread_inst_executed_true_per_opcode_with_modifier_all";
// Unpatched hardware counters that corroborate the patched counts (.sum is read).
inline constexpr std::string_view kNcuCorroborating[] = {
    "sm__inst_executed_pipe_tensor_op_gmma",          "smsp__inst_executed_op_tma_ld_pred_on_any",
    "smsp__inst_executed_op_tma_st_pred_on_any",      "smsp__inst_executed_op_ldsm_pred_on_any",
    "smsp__inst_executed_op_shared_stsm_pred_on_any",
};

struct NcuLaunch {
  int id = -1;
  std::string kernel;  // as ncu prints it (mangled with --print-kernel-base mangled)
  std::map<std::string, std::uint64_t> warp_by_opcode;
  std::map<std::string, std::uint64_t> thread_pred_on_by_opcode;
  std::map<std::string, double> counters;  // corroborating counter (no .sum) -> value
};

struct NcuSourceRow {
  std::uint32_t pc = 0;
  std::string text;  // "@P0   STSM.16.M88 [R9], R0"
  std::uint64_t warp_executed = 0;
  std::uint64_t thread_executed = 0;
  std::uint64_t thread_pred_on = 0;
};

struct NcuSourceKernel {
  std::string kernel;
  std::vector<NcuSourceRow> rows;
};

// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
std::vector<std::string> split_csv_line(std::string_view line);
// "13,309,107" -> 13309107; "4,344.24" -> 4344.24; false when not a number.
bool parse_ncu_number(std::string_view text, double& out);
// "TOTAL (A: 1; B.X: 2)" -> {A: 1, B.X: 2}
Result<std::map<std::string, std::uint64_t>> parse_opcode_instances(std::string_view cell);

Result<std::vector<NcuLaunch>> parse_ncu_raw(std::string_view csv);
Result<std::vector<NcuSourceKernel>> parse_ncu_source(std::string_view csv);

}  // namespace ptxbench::audit
