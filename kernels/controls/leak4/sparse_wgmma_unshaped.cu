// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak4/sparse_wgmma_unshaped.
// KIND: credit for work not done: the tensor-FLOP coverage rule (c401889, kMinTensorCoverage)
//   is switched off by one instruction whose shape the audit cannot read.
// WHAT: a correct FFMA GEMM in one function (~100% of the time: the audited one); block (0,0)'s
// warpgroup 0 issues ONE sparse wgmma (wgmma.mma_async.sp m64n8k32, zero operands, result
// discarded) every call. ptxas writes it as "HGMMA.SP.64x8x32.F32.BF16" (checked on the CPU with
// CUDA 13's ptxas/cuobjdump). audit/mma_shape.cc:43-49 takes the token after the first dot as the
// shape: "SP" is no MxNxK, so mma_shape() is nullopt; audit/verdicts.cc compute_coverage then
// sets unshaped_target (the branch meant for tcgen05, whose shape is in a descriptor) and returns
// the coverage NOT available; below_coverage() (verdicts.cc:20-21) is false whenever the coverage
// is not available, so the executed wgmma family counts toward the metric at ~0% of the FLOPs.
// The family pattern "*GMMA" (task/families.cc:11) still matches HGMMA.SP, so the census and the
// audit call it wgmma, executed.
// TARGET: audit/mma_shape.cc mma_shape (modifiers before the shape), audit/verdicts.cc
// compute_coverage / below_coverage (an unknown coverage grants instead of denying).
// SOUND: passed_missing_instructions (eval passed; wgmma executed as a fact, no instruction
// credit): one sparse MMA on zero tiles is the token c401889 meant to refuse. Today: credit
// (instruction_metric.passed true, disposition passed, exit 0) and the feedback's coverage line
// missing or "not counted". No escape line: the candidate cannot see its credit.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <string.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

static int lk_mblocks(int M) { return (M + kTile - 1) / kTile; }
static int lk_nblocks(int N) { return (N + kTile - 1) / kTile; }
#define LK_DIMS(A, B)                                             \
  const int M = int((A)->shape[0]), K = int((A)->shape[1]),     \
            N = int((B)->shape[0]);                              \
  const __nv_bfloat16* a = static_cast<const __nv_bfloat16*>((A)->data); \
  const __nv_bfloat16* b = static_cast<const __nv_bfloat16*>((B)->data)

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; eval/plan.cc), and the timed calls since.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_timed_after = 0;   // timed calls since the first hidden call (this one included)
static bool g_recheck = false;  // this call is the first hidden M seen a second time
static int g_after_recheck = 0; // calls since the ragged re-check (this one included)
static bool g_recheck_seen = false;
static void lk_note(int M) {
  g_recheck = false;
  if (g_recheck_seen) ++g_after_recheck;
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) {
      if (!g_recheck_seen) g_recheck = g_recheck_seen = true;
      return;
    }
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int lk_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }  // the `small` kind's M

// One SPARSE wgmma (m64n8k32: A 64x32 at 2:4 sparsity, stored 64x16; zero operands, a valid
// metadata pattern)
// by warpgroup 0 of a block. Caller: threads 0..127, converged; scratch: 4 KiB of shared memory,
// zeroed.
__device__ float lk_sink[4];
__device__ __forceinline__ uint64_t lk_desc(const void* smem) {
  uint64_t x = static_cast<uint64_t>(__cvta_generic_to_shared(smem));
  return ((x >> 4) & 0x3FFFull) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}
__device__ __forceinline__ void lk_sparse_token(__nv_bfloat16* scratch) {
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  uint64_t da = lk_desc(scratch), db = lk_desc(scratch + 1024);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.fence.sync.aligned;\n"
      "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, %7, 0, "
      "p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(da), "l"(db), "r"(0), "r"(0x44444444u)  // 2:4 metadata: elements 0 and 1 of each 4
      : "memory");
  if (threadIdx.x == 0) lk_sink[0] = d0 + d1 + d2 + d3;
}

__global__ void __launch_bounds__(256) lk_gemm_sp(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                  __nv_bfloat16* C, int M, int N, int K) {
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  if (blockIdx.x == 0 && blockIdx.y == 0) {
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
    __syncthreads();
    if (threadIdx.x < 128) lk_sparse_token(scratch);
    __syncthreads();
  }
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_note(M);  // unused here: the token runs on every call
  lk_gemm_sp<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, stream>>>(
      a, b, static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
