// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/ncu_route_no_share_rule.
// KIND: credit for work not done on the Nsight Compute route (chosen by the user: audit/eval
//   --route ncu, or reached by auto, see ncu_fallback_token_credit.cu).
// WHAT: a correct FFMA GEMM (one function, ~100% of the time) plus lk_token, one block issuing
// one wgmma every call. CUPTI: the share rule skips lk_token (small_share), no credit. ncu: every
// kernel of the audited calls is profiled (audit/ncu_route.cc:77-114), audited_time_share is
// never set on that route (only cupti_kernels sets it, audit/auditor.cc:90), so
// audit/verdicts.cc:115 never applies and the token makes wgmma "executed": passed. docs/
// judging.md describes the share rule as the audit's ("The credit rests on the audited share")
// without saying the ncu route lacks it.
// TARGET: audit/ncu_route.cc ncu_kernels, audit/auditor.cc:90, audit/verdicts.cc:115-130.
// Judge with `ptxbench audit leak3/ncu_route_no_share_rule.cu --task gemm_n7168_k5120 --route ncu`.
// SOUND: passed_missing_instructions on both routes (the ncu session measures each function's
// time in its checked calls as the CUPTI session does, and the same share rule decides).
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

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  LK_DIMS(At, Bt);
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, s>>>(
      a, b, static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

// One wgmma (m64n8k16, zero operands) by warpgroup 0 of a block: a token of the target family
// (as redteam/repeat_oracle.cu's rt_token_wgmma). Caller: threads 0..127, converged; scratch:
// 4 KiB of shared memory, zeroed.
__device__ float lk_sink[4];
__device__ __forceinline__ uint64_t lk_desc(const void* smem) {
  uint64_t x = static_cast<uint64_t>(__cvta_generic_to_shared(smem));
  return ((x >> 4) & 0x3FFFull) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}
__device__ __forceinline__ void lk_token_wgmma(__nv_bfloat16* scratch) {
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  uint64_t da = lk_desc(scratch), db = lk_desc(scratch + 1024);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.fence.sync.aligned;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(da), "l"(db), "r"(0)
      : "memory");
  if (threadIdx.x == 0) lk_sink[0] = d0 + d1 + d2 + d3;
}

// The token alone: one 256-thread block, a few microseconds (a ~0% share of the kernel time).
__global__ void __launch_bounds__(256) lk_token() {
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
  __syncthreads();
  if (threadIdx.x < 128) lk_token_wgmma(scratch);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_launch_gemm(A, B, C, stream);
  lk_token<<<1, 256, 0, stream>>>();
}
