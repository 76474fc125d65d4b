// What a sound judge's instruction credit does with two kernels of kernels/controls/leak4
// (red team of 2026-12-06 against a5d01d9). burn_counts_as_math fails today (registered as an
// expected failure in tests/redteam_leak4/CMakeLists.txt); sparse_wgmma_unshaped passes since the
// audit reads a sparse wgmma's shape and no unread wgmma shape switches the coverage rule off.
#include <gtest/gtest.h>

#include "audit/audit_result.h"
#include "audit/mma_shape.h"
#include "audit/verdicts.h"

namespace ptxbench::audit {
namespace {

constexpr double kTaskFlops = 2.0 * 8192 * 7168 * 5120;  // gemm_n7168_k5120's timed workload

AuditResult audited(std::vector<OpcodeCounts> ops) {
  KernelAudit k;
  k.function = "lk_gemm";
  k.opcodes = std::move(ops);
  k.recorded = true;
  k.launches = 1;
  const task::ArchTargets t{"sm_90a", {"wgmma", "tma"}, "any"};
  AuditResult r;
  r.runtime_run = true;
  r.target_families = t.families;
  r.rule = t.rule;
  r.audited_time_share = 1.0;  // the one audited function carries all the kernel time
  r.kernels = {k};
  r.families = evaluate_families({}, r.kernels, "sm_90a", &t, true);
  r.coverage = compute_coverage(r.kernels, &t, kTaskFlops);
  apply_instruction_metric(r);
  return r;
}

// leak4/sparse_wgmma_unshaped.cu: an FFMA GEMM (M*N*K FFMA thread executions) and ONE sparse
// wgmma a call, spelled as ptxas spells it. Sound: no credit (a token), as for a dense token.
TEST(Leak4, sparse_wgmma_unshaped) {
  EXPECT_TRUE(mma_shape("HGMMA.SP.64x8x32.F32.BF16").has_value())
      << "a sparse wgmma's shape is not read: its FLOPs cannot be counted";
  const AuditResult r = audited({{"FFMA", 256, 0, static_cast<std::uint64_t>(kTaskFlops / 2)},
                                 {"HGMMA.SP.64x8x32.F32.BF16", 1, 4, 128}});
  EXPECT_FALSE(r.instruction_metric_passed)
      << "one sparse wgmma per call earned the instruction credit: " << r.feedback();
}

// leak4/dummy_wgmma_half_flops.cu: the same FFMA GEMM did all of the task's math; a second
// audited function issued 0.6 x the task's FLOPs of wgmma on zeroed shared memory and discarded
// them. Sound: no credit (the task was done once, on CUDA cores).
TEST(Leak4, burn_counts_as_math) {
  const double burn_instructions = 0.6 * kTaskFlops / (2.0 * 64 * 8 * 16);
  const AuditResult r =
      audited({{"FFMA", 256, 0, static_cast<std::uint64_t>(kTaskFlops / 2)},
               {"HGMMA.64x8x16.F32.BF16", 1, static_cast<std::uint64_t>(4 * burn_instructions),
                static_cast<std::uint64_t>(128 * burn_instructions)}});
  EXPECT_FALSE(r.instruction_metric_passed)
      << "discarded wgmma worth 60% of the FLOPs beside an FFMA GEMM earned the credit: "
      << r.feedback();
}

}  // namespace
}  // namespace ptxbench::audit
