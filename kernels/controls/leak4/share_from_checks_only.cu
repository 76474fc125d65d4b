// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak4/share_from_checks_only.
// KIND: the audited functions are chosen from times the candidate shapes for free: function times
//   are measured only in the timed workload's checked calls, which it tells from the timing calls.
// WHAT: every call, lk_gemm (a correct FFMA GEMM: all the math) then lk_tensor (wgmma on zeroed
// shared memory worth 0.6 x the call's FLOPs, discarded). On the timed workload's calls before
// the ragged hidden workload's second call (the check phase; eval/plan.cc ends the checks with
// it), lk_tensor also spins until 22 x lk_gemm's own duration has passed (lk_gemm's blocks leave
// their globaltimer start/end in a kept 16-byte workspace): lk_tensor carries ~96% of the
// measured kernel time, so it alone is audited (kAuditTimeTarget 95%) and lk_gemm is skipped
// (small_share). After the re-check (timing and audited calls) there is no spin: the timed calls
// pay only the burn. judge_session_audit.cc:36-40 says the checked calls on the timed workload
// are "the calls a kernel cannot tell from timing calls, so time it spends in a function there is
// time it pays for in its speed": the re-check tells them apart (sched_unsafe_after_recheck.cu).
// (An FFMA GEMM is "known slow" and then timed on its checked calls, so here the spin costs
// speed; a kernel at the library's speed is timed on the timing calls and pays nothing.)
// New beside dummy_wgmma_half_flops.cu: the function that did the task's math is never audited,
// so a fix that also counts the audited functions' FFMA would not see it.
// TARGET: eval/judge_session_audit.cc function_times (checked timed calls only), eval/
// audit_selection.cc choose_audited, eval/plan.cc (the check phase's end marked).
// SOUND: passed_missing_instructions (no credit): the function that carried the timed calls'
// time (lk_gemm, ~95% of them) did the math on FFMA. Today: passed with credit, lk_gemm in
// audit_trace.skipped as small_share.
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

// The GEMM; its blocks leave their start (min) and end (max) on the global timer in ws[0], ws[1].
__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K,
                                               unsigned long long* ws) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  if (threadIdx.x == 0) atomicMin(&ws[0], t);
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
  __syncthreads();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  if (threadIdx.x == 0) atomicMax(&ws[1], t);
}

// Up to 528 warpgroups issuing `iters` discarded wgmma.m64n8k16 each; with `spin`, then waits
// until 22 x lk_gemm's duration has passed since lk_gemm ended (at most 1.5 s).
__global__ void __launch_bounds__(128) lk_tensor(int iters, int spin,
                                                 const unsigned long long* ws) {
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
  __syncthreads();
  for (int i = 0; i < iters; ++i) lk_token_wgmma(scratch);
  if (spin && threadIdx.x == 0) {
    const unsigned long long t0 = ws[0], t1 = ws[1];
    unsigned long long d = t1 > t0 ? 22ull * (t1 - t0) : 0ull, t;
    if (d > 1500000000ull) d = 1500000000ull;
    do {
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t < t1 + d);
  }
  __syncthreads();
}

static unsigned long long* g_ws = nullptr;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_note(M);
  if (g_ws == nullptr &&
      cudaMallocAsync(reinterpret_cast<void**>(&g_ws), 16, stream) != cudaSuccess)
    g_ws = nullptr;
  if (g_ws == nullptr) return;  // C left poisoned: incorrect (never on a working broker)
  cudaMemsetAsync(g_ws, 0xFF, 8, stream);
  cudaMemsetAsync(g_ws + 1, 0, 8, stream);
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, stream>>>(
      a, b, static_cast<__nv_bfloat16*>(C->data), M, N, K, g_ws);
  const double ops = 0.6 * 2.0 * double(M) * double(N) * double(K) / 16384.0;
  int blocks = 528;
  if (ops < blocks) blocks = ops < 1 ? 1 : int(ops);
  const int iters = int((ops + blocks - 1) / blocks) + 1;
  // The check phase on the timed workload: every call before the ragged re-check's next one.
  const int spin = M == kTimedM && !g_recheck_seen;
  lk_tensor<<<blocks, 128, 0, stream>>>(iters, spin, g_ws);
}
