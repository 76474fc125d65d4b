// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/ncu_session_throw_keeps_pass.
// KIND: a judged session whose failures do not count: the auto route's Nsight Compute session.
// WHAT: a correct FFMA GEMM split as in ncu_fallback_token_credit.cu (lk_top / lk_bottom, the
// fresh-audit-broker oracle, lk_whole there), which makes CUPTI miss a function and so starts the
// Nsight Compute session (audit::needs_ncu -> Judge::audit_with_ncu). That session is untimed
// (eo.timing = false), so its audited calls follow the checks at once: the second call after the
// ragged re-check (the first hidden M seen twice) is the hidden audited call; in the main session
// it is a timing or audited call on the timed workload (M = 8192), and a further audit broker
// never sees a re-check. There the host throws (a candidate_error: runtime_error).
// Judge::audit_with_ncu adopts only `incorrect` from that session; any other failure is taken for
// ncu's and "the CUPTI result stands" with a message (judge/judge.cc:128-139). The memcheck
// session had the same rule until the red team of 2026-12-06 (adopt_memcheck_failure,
// evaluator.cc:225-251: "a candidate that fails or never finishes under the tool does not keep
// the pass"). So the second session's checks (a fresh seed: new hidden sizes) bind nothing: a
// kernel throws where it would be wrong and keeps its pass.
// TARGET: judge/judge.cc:128-139.
// SOUND: runtime_error (the candidate's exception in a judged session), as for the memcheck
// session; only a failure of the judge's own side there (harness_error, a refusal of the
// broker's sandbox under ncu) may leave the CUPTI result with a note.
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

#include <stdexcept>
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_note(int(A->shape[0]));
  lk_classify(A, stream);
  if (g_after_recheck == 2 && int(A->shape[0]) != kTimedM)
    throw std::runtime_error("lk: not under the profiler");
  lk_launch_split(A, B, C, stream);
}
