// Tensor-core work per SASS MMA instruction, read from the opcode's shape suffix, and
// the tensor-FLOP coverage that follows from executed counts (issue 4, item 3).
//
//   HGMMA.64x256x16.F32.BF16  (wgmma, sm_90a): one warpgroup instruction = 2*64*256*16 FLOPs.
//     It is issued by the 4 warps of the warpgroup: the warp-level count is 4 per
//     instruction and the predicated-on thread count is 128 per instruction.
//   QGMMA / IGMMA: the same layout (fp8 / int8; k is 32).
//   HGMMA.SP.64x8x32.F32.BF16 (sparse wgmma, 2:4 structured A): half of A is zeros by
//     construction, so it does at most half the dense work of its shape: 2*m*n*k/2 FLOPs count
//     (red team leak4/sparse_wgmma_unshaped.cu: its shape was not read, and an unread shape
//     switched the coverage rule off).
//   HMMA.16816.F32.BF16 (mma.sync): one warp instruction = 2*16*8*16 FLOPs; 32 threads.
// tcgen05 (UTCHMMA ...) keeps its shape in the instruction descriptor, not the opcode:
// its FLOPs cannot be read from SASS (mma_shape returns nullopt).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxbench::audit {

struct MmaShape {
  int m = 0, n = 0, k = 0;
  int threads_per_instruction = 0;  // 128 for a warpgroup MMA, 32 for a warp MMA
  int warps_per_instruction = 0;    // 4 or 1
  bool sparse = false;              // .SP: 2:4 structured sparsity, half the dense work

  double flops_per_instruction() const { return (sparse ? 1.0 : 2.0) * m * n * k; }
};

std::optional<MmaShape> mma_shape(std::string_view opcode);

// FLOPs executed by an MMA opcode from its predicated-on thread count (the proof of
// execution): thread_pred_on / threads_per_instruction instructions.
double mma_flops_from_threads(const MmaShape& s, std::uint64_t thread_pred_on);
// The same from the warp-level count (corroboration; counts predicated-off issue too).
double mma_flops_from_warps(const MmaShape& s, std::uint64_t warp_executed);

}  // namespace ptxbench::audit
