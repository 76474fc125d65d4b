// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/ncu_fallback_token_credit.
// KIND: credit for work not done: the candidate sends its own audit to the route without the
//   95% time-share rule.
// WHAT: an FFMA GEMM split in two functions of ~50% each (lk_top, lk_bottom) plus lk_token, one
// 256-thread block issuing one wgmma each call (~0% of the time). With CUPTI (the default) the
// share rule audits lk_top and lk_bottom and skips lk_token (small_share): no credit, as it
// should be. But in a further audit broker (a fresh host process whose 2nd call is not a repeat
// of its 1st: an exact, free oracle) the host computes the GEMM with a third function lk_whole,
// so the function that broker was armed for is never launched there: CUPTI has no record of a
// function the first audited broker launched -> audit::needs_ncu (auditor.cc:132-142) -> the auto
// route runs a second, Nsight Compute session (judge/judge.cc:107-109, audit_with_ncu :122-151).
// There every function of the audited calls is profiled and audit/ncu_route.cc ncu_kernels sets
// no audited_time_share (only cupti_kernels does, auditor.cc:90), so verdicts.cc:115's share rule
// never applies: lk_token's one HGMMA makes wgmma "executed" and the rule "any" passes.
// TARGET: judge/judge.cc:107-109 (needs_ncu -> audit_with_ncu), :142-144 (by_ncu replaces the
// CUPTI result), audit/ncu_route.cc:77-114 (no share), audit/verdicts.cc:115, eval/
// judge_session_audit.cc:241-250 (a further broker = a fresh process, its 2nd call new inputs).
// SOUND: passed with the target instructions NOT credited (disposition passed_missing_instructions,
// exit 16): >99.9% of the FLOPs are FFMA; a fallback route must not grant what the primary
// route's share rule denied, and a function missing from its own broker's audited calls is no
// reason to change route.
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

// The GEMM as two functions of ~equal time (rows split in halves of 64-row blocks), and the
// whole GEMM as a third function used only in a further audit broker's audited calls.
__global__ void __launch_bounds__(256) lk_top(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                              __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
__global__ void __launch_bounds__(256) lk_bottom(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                 __nv_bfloat16* C, int M, int N, int K, int blk0) {
  naive_tile(A, B, C, M, N, K, blk0 + int(blockIdx.y), blockIdx.x);
}
__global__ void __launch_bounds__(256) lk_whole(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}

// A further audit broker (audit_function k >= 1) is a fresh host process whose first call is an
// ordinary "checked call" and whose second call has new inputs; in every other host process the
// second call is the session's exact repeat (eval/plan.cc: call(0, 0, Content::repeat, 0)). The
// host tells them apart by 32 bytes of A read back on its first two calls.
static int g_calls = 0;
static bool g_audit_broker = false;
static const void* g_a0 = nullptr;
static unsigned short g_fp[16];
static void lk_classify(const DLTensor* At, cudaStream_t s) {
  ++g_calls;
  if (g_calls > 2) return;
  unsigned short fp[16];
  cudaMemcpyAsync(fp, At->data, sizeof fp, cudaMemcpyDeviceToHost, s);  // synchronous here
  if (g_calls == 2) g_audit_broker = !(At->data == g_a0 && memcmp(fp, g_fp, sizeof fp) == 0);
  memcpy(g_fp, fp, sizeof fp);
  g_a0 = At->data;
}

// In a further audit broker: the whole GEMM in lk_whole, so the function this broker was armed
// for (lk_top or lk_bottom) is never launched in its audited calls: CUPTI records nothing for it,
// although the first audited broker launched it (AuditResult::kernels: launches > 0) ->
// audit::needs_ncu -> the `auto` route's Nsight Compute session (judge/judge.cc audit_with_ncu).
static void lk_launch_split(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  LK_DIMS(At, Bt);
  __nv_bfloat16* c = static_cast<__nv_bfloat16*>(Ct->data);
  const int mb = lk_mblocks(M), nb = lk_nblocks(N), half = (mb + 1) / 2;
  if (g_audit_broker && g_calls >= 2) {
    lk_whole<<<dim3(nb, mb), 256, 0, s>>>(a, b, c, M, N, K);
    return;
  }
  lk_top<<<dim3(nb, half), 256, 0, s>>>(a, b, c, M, N, K);
  if (mb > half) lk_bottom<<<dim3(nb, mb - half), 256, 0, s>>>(a, b, c, M, N, K, half);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_classify(A, stream);
  lk_launch_split(A, B, C, stream);
  lk_token<<<1, 256, 0, stream>>>();
}
