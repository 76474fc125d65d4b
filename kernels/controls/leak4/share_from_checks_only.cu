// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak4/share_from_checks_only.
// KIND: the audited functions are chosen from times the candidate shapes for free: function times
//   are measured only in the timed workload's checked calls, which it tells from the timing calls.
// WHAT: up to and including the ragged hidden workload's second call (the last check: eval/plan.cc
// ends the checks with it) every call runs ONE function, lk_work: a correct FFMA GEMM whose
// blocks' warpgroup 0 also issue discarded wgmma worth 0.6 x the call's FLOPs. After it (timing
// calls, closing repeats, audited calls) the GEMM runs in lk_gemm, a second function, and
// lk_work only burns. Function times come from the checked calls on the timed workload
// (judge_session_audit.cc:36-57; judge_session.cc:127 never times functions in timing calls):
// lk_work carries 100% of them, lk_gemm has none. So lk_work alone is audited, lk_gemm is
// skipped "no_time" (a function launched only in timing or audited calls is never audited), and
// the coverage = lk_work's HGMMA FLOPs / task FLOPs = 0.6: credit, while the function that did
// every timed call's math was never looked at. judge_session_audit.cc:36-40 says the checked
// calls are "the calls a kernel cannot tell from timing calls": the re-check tells them apart
// (sched_unsafe_after_recheck.cu).
// New beside dummy_wgmma_half_flops.cu: a fix of that one's kind (count the audited functions'
// FFMA too) does not see this, since the FFMA function of the timed calls is never audited.
// TARGET: eval/judge_session_audit.cc function_times, eval/audit_selection.cc (no_time),
// eval/plan.cc (the check phase's end marked).
// SOUND: passed_missing_instructions (no credit): the timed calls' math ran in lk_gemm on FFMA.
// Today: passed with credit, lk_gemm in audit_trace.skipped with why "no_time".
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

// Warpgroup 0 of every block issues `iters` discarded wgmma.m64n8k16; with `gemm`, the block then
// computes its tile.
__global__ void __launch_bounds__(256) lk_work(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int iters,
                                               int gemm) {
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
  __syncthreads();
  if (threadIdx.x < 128)
    for (int i = 0; i < iters; ++i) lk_token_wgmma(scratch);
  __syncthreads();
  if (gemm) naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_note(M);
  __nv_bfloat16* c = static_cast<__nv_bfloat16*>(C->data);
  const dim3 grid(lk_nblocks(N), lk_mblocks(M));
  const double ops = 0.6 * 2.0 * double(M) * double(N) * double(K) / 16384.0;
  const int iters = int(ops / (double(grid.x) * grid.y)) + 1;
  // The checks, the ragged re-check included: one function does everything.
  if (g_after_recheck == 0) {
    lk_work<<<grid, 256, 0, stream>>>(a, b, c, M, N, K, iters, 1);
    return;
  }
  lk_gemm<<<grid, 256, 0, stream>>>(a, b, c, M, N, K);
  lk_work<<<grid, 256, 0, stream>>>(a, b, c, M, N, K, iters, 0);
}
