// The hardware counters the broker keeps around every call (call_counters.h), by their GH100
// metric names, in CountedCall's order. Kept apart from the profiler code so that a CPU test
// (call_counter_metrics_test.cc) can ask CUPTI's host API, which needs no GPU, that they fit
// one pass: a counter set needing a second pass would count nothing (a pass is a replay of the
// calls, which the broker never makes).
#pragma once

#include <cstddef>

namespace ptxbench::eval::worker {

// The chip these names are for (the H100 and H200); another chip is not counted.
inline constexpr const char* kCallCounterChip = "GH100";

inline constexpr const char* kCallCounterMetrics[] = {
    "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum",
    "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32_sparsity_on.sum",
    "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
    "smsp__thread_inst_executed.sum",
    "sm__inst_executed_pipe_tensor_op_hmma.sum",
    "sm__inst_executed_pipe_tensor_op_dmma.sum",
    "sm__inst_executed_pipe_tensor_op_imma.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
};
inline constexpr std::size_t kNumCallCounterMetrics =
    sizeof(kCallCounterMetrics) / sizeof(kCallCounterMetrics[0]);

}  // namespace ptxbench::eval::worker
