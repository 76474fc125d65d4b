// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak5/output_escape_in_middle.
// TECHNIQUE: the tester's copy of what the candidate printed (--candidate-output, eval/
// candidate_output.h: "whole, never abridged") is written from the parent's capture of the host
// process's pipes, and that capture keeps only the first and the last half of its cap
// (core/output_capture.h: cap/2 + cap/2; eval/worker_spec.cc: output_cap_bytes = 256 KiB a
// stream). A candidate that prints 160 KiB of harmless lines on its first call, then its line
// (here a canary on the first timed call after a hidden call, where an attack's ESCAPE line
// would be), then 160 KiB more on the next call, leaves that line in the dropped middle: the
// JSON withholds the output after a hidden call, and the file no longer has it. Every control
// that reports its escape on stderr can be made silent this way, by the candidate itself.
// WHAT IT GAINS: a hostile candidate hides from the operator's file exactly the lines that would
// show what it did (the --candidate-output path exists so that "a withheld line is [not] an
// escape nobody sees"); the verdict itself is untouched.
// SOUND VERDICT: passed (passed_missing_instructions, exit 16) AND the --candidate-output file
// holds the canary line: the operator's copy must be whole (stream it to the file as it comes,
// bounded by a large byte limit that ends the run, or keep the lines matching the escape and
// canary patterns), never head + tail of a small capture.
// PREDICTED TODAY: exit 16, and the file lacks the canary (run.py: "candidate output lacks").
#include <cstdio>
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
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  LK_DIMS(At, Bt);
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, s>>>(
      a, b, static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

static int g_calls = 0;
static bool g_hidden_seen = false, g_canary_done = false, g_tail_done = false;

static void lk_filler(int call) {
  // 160 KiB of lines that read as nothing: 2560 lines of 64 bytes.
  for (int i = 0; i < 2560; ++i)
    fprintf(stderr, "lk filler call %4d line %5d ..................................\n", call, i);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]);
  ++g_calls;
  if (g_calls == 1) lk_filler(g_calls);  // fills the head half of the capture
  if (M != kTimedM) g_hidden_seen = true;
  if (M == kTimedM && g_hidden_seen && !g_canary_done) {
    g_canary_done = true;
    fprintf(stderr,
            "PTXBENCH-CANARY output_escape_in_middle: call %d, the first timed call after a "
            "hidden one (an attack's ESCAPE line would be here)\n",
            g_calls);
  } else if (g_canary_done && !g_tail_done) {
    g_tail_done = true;
    lk_filler(g_calls);  // pushes the canary out of the tail half
  }
  lk_launch_gemm(A, B, C, stream);
}
