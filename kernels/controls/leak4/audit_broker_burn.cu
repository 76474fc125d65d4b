// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak4/audit_broker_burn.
// KIND: credit for work not done, at no cost in the timed calls: a further audit broker is told
//   from every other process by its call pattern, and the coverage rule (c401889) counts what the
//   armed function issues THERE.
// WHAT: the FFMA GEMM in two functions: lk_main (the first ~4/5 of the 64-row blocks) and lk_tail
// (the rest, ~1/5: ~20% of the kernel time), so no one function carries 95% and both are chosen
// (eval/audit_selection.h). lk_main is audited in the session's own broker; lk_tail in a further
// broker (judge_session_audit.cc:249-258 audit_function k >= 1: a fresh broker and host process,
// one ordinary call, then the audited calls). Every other host process's second call is the
// session's exact repeat (eval/plan.cc: call(0, 0, Content::repeat, 0)); the further broker's is
// not: the host reads 32 bytes of A on its first two calls (as leak3/ncu_fallback_token_credit).
// There, from its second call on, lk_tail's warpgroup 0 of every block also issues wgmma on
// zeroed shared memory worth 0.7 x the call's 2*M*N*K FLOPs (results discarded). Counted FLOPs
// = lk_tail's HGMMA in its own broker's audited calls / the audited workloads' FLOPs = 0.7 >=
// kMinTensorCoverage; share = 100% measured in the checked calls (judge_session_audit.cc, the
// further broker's calls never vote). The timed calls never run a single wgmma.
// TARGET: judge_session_audit.cc audit_function (a further broker's call pattern differs from
// every other process's), audit/verdicts.cc compute_coverage (issued FLOPs of the armed function
// in ITS broker), docs/judging.md "The credit rests on the audited share".
// SOUND: passed_missing_instructions (eval passed; wgmma executed as a fact; no credit): the
// functions' work in the judged calls was FFMA; a further broker must replay the main session's
// pattern (its 2nd call an exact repeat of its 1st, so no host can tell it), and credit must not
// rest on tensor FLOPs the timed calls never issue. Today: credit (instruction_metric.passed
// true, disposition passed, exit 0). The host prints a PTXBENCH-ESCAPE line when it found itself
// in a further audit broker (it has then issued the burn): the tester reads it with
// --candidate-output.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
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

__global__ void __launch_bounds__(256) lk_main(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
// The tail rows of blocks; with iters > 0, warpgroup 0 of each block first issues `iters`
// discarded wgmma.m64n8k16 (16384 FLOPs each).
__global__ void __launch_bounds__(256) lk_tail(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int blk0,
                                               int iters) {
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  if (iters > 0) {
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
    __syncthreads();
    if (threadIdx.x < 128)
      for (int i = 0; i < iters; ++i) lk_token_wgmma(scratch);
    __syncthreads();
  }
  naive_tile(A, B, C, M, N, K, blk0 + int(blockIdx.y), blockIdx.x);
}

// A further audit broker: a fresh host process whose second call is not an exact repeat of its
// first (32 bytes of A read back on the first two calls).
static int g_calls = 0;
static bool g_audit_broker = false;
static const void* g_a0 = nullptr;
static unsigned short g_fp[16];
static void lk_classify(const DLTensor* At, cudaStream_t s) {
  ++g_calls;
  if (g_calls > 2) return;
  unsigned short fp[16];
  cudaMemcpyAsync(fp, At->data, sizeof fp, cudaMemcpyDeviceToHost, s);  // synchronous here
  if (g_calls == 2) {
    g_audit_broker = !(At->data == g_a0 && memcmp(fp, g_fp, sizeof fp) == 0);
    if (g_audit_broker)
      fprintf(stderr, "PTXBENCH-ESCAPE audit_broker_burn: a further audit broker told apart by "
                      "its second call; lk_tail burns wgmma here only\n");
  }
  memcpy(g_fp, fp, sizeof fp);
  g_a0 = At->data;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_classify(A, stream);
  __nv_bfloat16* c = static_cast<__nv_bfloat16*>(C->data);
  const int mb = lk_mblocks(M), nb = lk_nblocks(N);
  int tail = mb / 5;
  if (tail < 1) tail = 1;
  const int head = mb - tail;
  if (head > 0) lk_main<<<dim3(nb, head), 256, 0, stream>>>(a, b, c, M, N, K);
  int iters = 0;
  if (g_audit_broker && g_calls >= 2) {
    const double ops = 0.7 * 2.0 * double(M) * double(N) * double(K) / 16384.0;
    iters = int(ops / (double(nb) * tail)) + 1;
  }
  lk_tail<<<dim3(nb, tail), 256, 0, stream>>>(a, b, c, M, N, K, head, iters);
}
