// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak4/diag_flag_bits.
// KIND: a hidden size carried to the model by the issue-36 diagnoses (a80d599): three more flags
//   the candidate raises at will after a hidden call, each printed in a PASSED kernel's feedback.
// WHAT: a correct FFMA GEMM on every call; on every timed-workload call after the first hidden
// call, by the bits of M_small (the first hidden M this process saw, the `small` kind's):
//   bit 0: cudaMallocAsync(256) and keep it -> the next call begins with kept workspace:
//          Flag::workspace_kept (a note);
//   bit 1: a no-op kernel launched on stream 0 -> default_stream (+ side_stream, a guard);
//   bit 2: the same no-op kernel with one parameter pointing into the first hidden call's C
//          (another call's tensor; never dereferenced) -> stale_buffers (a guard).
// eval/judge_session.cc:178-179 adds diagnosis_flags() of EVERY call to the result, hidden and
// after-hidden calls included; eval/call_diagnoses.cc withholds only the sentences
// (diagnosis_clause), not the flags; run/feedback.cc flags_text prints every flag ("- Guard: ..." /
// "- Note: ...") in the passed verdict's feedback, the SFT rows with it. docs/judging.md counts
// two flag bits (side_stream, timing_unstable: withheld/flag_bits.cu) among what reaches the
// model after hidden calls; with these three it is five. Seed 1234: M_small = 53 = 0b110101:
// workspace_kept and stale_buffers raised, default_stream not.
// TARGET: eval/judge_session.cc:178-179, eval/call_diagnoses.cc diagnosis_flags, run/feedback.cc
// flags_text, docs/judging.md "What the model is told".
// SOUND: passed (passed_missing_instructions, exit 16) with no flag the model reads that a call
// on or after a hidden call alone raised beyond the documented ones (for people in the JSON/
// withheld; or one merged guard line "a rule was broken after the hidden calls"); at the least
// judging.md's count says five. Today: passed with the flags in eval.flags and the feedback.
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

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
// Does nothing with its argument: the broker only reads the parameter bytes.
__global__ void lk_noop(const void* p) {
  if (p == nullptr && threadIdx.x == 1024) asm volatile("trap;");
}

static const void* g_hidden_c = nullptr;  // the first hidden call's output buffer

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_note(M);
  if (M != kTimedM && g_hidden_c == nullptr) g_hidden_c = C->data;
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, stream>>>(
      a, b, static_cast<__nv_bfloat16*>(C->data), M, N, K);
  if (M != kTimedM || g_nhidden == 0) return;  // the timed workload after a hidden call only
  const int bits = lk_small_m();
  if (bits & 1) {
    void* keep = nullptr;
    if (cudaMallocAsync(&keep, 256, stream) != cudaSuccess) (void)cudaGetLastError();
  }
  if (bits & 2) lk_noop<<<1, 32>>>(C->data);                       // the legacy default stream
  if ((bits & 4) && g_hidden_c) lk_noop<<<1, 32, 0, stream>>>(g_hidden_c);  // another call's C
}
