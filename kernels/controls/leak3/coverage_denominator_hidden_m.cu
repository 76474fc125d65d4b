// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/coverage_denominator_hidden_m.
// KIND: a figure the JUDGE computes from a hidden size, in the model's feedback: the tensor-FLOP
//   coverage's denominator is the FLOPs of the audited calls, the hidden audit workload's included.
// WHAT: a correct FFMA GEMM on every call; on the timed workload only (M = 8192), lk_tensor also
// issues F_t / 16384 = 36,700,160 wgmma.m64n8k16 (16384 FLOPs each: as many tensor FLOPs as the
// timed call's GEMM) on zeroed shared memory, results discarded (~11% of the time: both functions
// audited, share 100%). The audit's coverage = target tensor FLOPs / (F_t + F_audit)
// (audit/verdicts.cc:66-100 compute_coverage(.., trace->flops), judge_session_audit.cc:292-295
// t.flops = the audited workloads' FLOPs) = 8192 / (8192 + M_audit), M_audit in [1025, 2048]
// (task/hidden_draw.cc:110-111): 80..89%, printed as "Target tensor ops did 81% of the task's
// FLOPs." (run/feedback.cc:146-147; seed 1234, M_audit = 1980) -> M_audit to ~100 rows, ~3 bits.
// No encoding is needed: any kernel whose target instructions do a different share of the work on
// the two audited workloads (the usual small-M fallback on mma.sync or FFMA) shows the model this
// figure; judging.md lists the coverage as "the candidate's to shape", not as the judge's own
// function of a hidden size. For an attention task the denominator is B*H*S^2 of the hidden
// audit workload. (The wgmma here is issue 35's token credit: passed.)
// Judge with `ptxbench audit FILE --task gemm_n7168_k5120 --workload hidden_audit` (an FFMA GEMM's
// hidden audit call is estimated past 0.5 s instrumented, so without --workload the audit moves to
// hidden_small, judge_session_audit.cc:183-214; a fast kernel keeps hidden_audit).
// SOUND: passed; the coverage the model reads carries no hidden size: computed over the timed
// workload's audited call only (the hidden audit call's figure for people), or rounded to the
// sides of the 50% line.
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

// 528 warpgroups (4 per SM of an H100), each issuing `iters` wgmma.m64n8k16.
__global__ void __launch_bounds__(128) lk_tensor(int iters) {
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
  __syncthreads();
  for (int i = 0; i < iters; ++i) lk_token_wgmma(scratch);
}
constexpr int kTensorBlocks = 528;
constexpr long long kTimedTensorOps = 2ll * kTimedM * 7168 * 5120 / 16384;  // 36,700,160

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_launch_gemm(A, B, C, stream);
  if (int(A->shape[0]) == kTimedM)
    lk_tensor<<<kTensorBlocks, 128, 0, stream>>>(int(kTimedTensorOps / kTensorBlocks));
}
