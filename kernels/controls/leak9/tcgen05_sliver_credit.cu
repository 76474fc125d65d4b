// ptxbench control (gemm_n7168_k5120, sm_100a): leak9/tcgen05_sliver_credit.
// KIND: today's "a family whose share the route measures" (3a827b0, verdicts.cc:33
// share_measured) counts every tensor-math family as measured, but tcgen05's share is measured
// by no route: its SASS carries no MMA shape, so the coverage is unavailable
// (verdicts.cc:98, :112-116 unshaped_target -> c.available stays false), below_coverage() then
// returns false (verdicts.cc:27 `!r.coverage.available`), and timed_calls_back() returns true
// for any family but wgmma and tma (verdicts.cc:140). A tcgen05 sliver beside FFMA math earns
// the credit under rule "any" (tasks/gemm/gemm_n7168_k5120.toml [arch.sm_100a]) on every route:
// the hole TMA had on the default route until today, through the tensor-math door.
// TECHNIQUE: the tiled FFMA GEMM does all of C = A B^T; block (0, 0) of every call also allocates
// 32 columns of tensor memory, issues ONE tcgen05.mma (kind::f16, M=64 N=64 K=16, descriptors of
// its own shared memory, result never read), commits it to an mbarrier, waits, deallocates.
// Cheaper still, as read: the family matches any UTC* opcode, LDTM and STTM (task/families.cc:17)
// and any of them executed sets unshaped_target (verdicts.cc:98), so tcgen05.alloc and dealloc
// alone, no MMA, would do.
// WHAT IT GAINS: tensor-core credit (exit 0, passed) for a kernel with ~0 tensor-core math.
// SOUND VERDICT: passed_missing_instructions (exit 16): tcgen05 did 64*64*16*2 FLOPs of ~4.4e11.
// PREDICTED (READ from 332a197, not run; no sm_100a GPU is lent): passed with the credit
// (exit 0), tcgen05 executed, instruction_metric_passed true (verdicts.cc:200-212: executed and
// measured both 1). The audit's census sees a tcgen05 opcode (UTCHMMA/UTCMMA family) executed.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64, kSlice = 16;

__device__ void tc_sliver() {
  __shared__ __align__(1024) __nv_bfloat16 ops[2][64 * 16];
  __shared__ __align__(8) unsigned long long bar;
  __shared__ uint32_t tmem_base;
  for (int i = threadIdx.x; i < 2 * 64 * 16; i += blockDim.x) (&ops[0][0])[i] = __float2bfloat16(0.f);
  const uint32_t bar_s = uint32_t(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s));
  __syncthreads();
  if (threadIdx.x < 32) {
    const uint32_t dst = uint32_t(__cvta_generic_to_shared(&tmem_base));
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" ::"r"(dst));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const uint32_t taddr = tmem_base;
  if (threadIdx.x == 0) {
    // Shared memory descriptors (no swizzle): start >> 4, leading/stride byte offsets >> 4.
    const uint64_t a = (uint64_t(__cvta_generic_to_shared(ops[0])) >> 4) | (uint64_t(8) << 16) |
                       (uint64_t(64) << 32) | (uint64_t(1) << 46);
    const uint64_t b = (uint64_t(__cvta_generic_to_shared(ops[1])) >> 4) | (uint64_t(8) << 16) |
                       (uint64_t(64) << 32) | (uint64_t(1) << 46);
    // Instruction descriptor: fp32 D, bf16 A and B, K-major both, N = 64 (>> 3), M = 64 (>> 4).
    const uint32_t idesc = (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((64u >> 4) << 24);
    asm volatile(
        "{ .reg .pred p; setp.ne.b32 p, 0, 0;\n"
        "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }" ::"r"(taddr),
        "l"(a), "l"(b), "r"(idesc));
    asm volatile(
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar_s));
    asm volatile(
        "{ .reg .pred d; W: mbarrier.try_wait.parity.shared::cta.b64 d, [%0], 0; @!d bra W; }" ::"r"(
            bar_s));
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  if (threadIdx.x < 32)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" ::"r"(taddr));
}

__global__ void __launch_bounds__(256) ts_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  if (blockIdx.x == 0 && blockIdx.y == 0) tc_sliver();
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][r] = (m0 + r < M && gk < K) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
      Bs[kk][r] = (n0 + r < N && gk < K) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(As[kk][ty + 16 * i], Bs[kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  ts_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}
