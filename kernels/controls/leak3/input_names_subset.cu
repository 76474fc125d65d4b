// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/input_names_subset.
// KIND: which inputs the candidate changed, chosen from a hidden size, named in the feedback.
// WHAT: a correct GEMM; on the first timed-workload call after the first hidden call, flips the
// lowest bit of element 0 of A (M_small % 3 == 0), of B (== 1) or of both (== 2), after the GEMM
// read them. The message lists the changed inputs by name (session_decision.cc:148-151
// join_names(c.check->inputs_modified)) and the feedback prints it (no wrong output, so no
// mismatch line: run/feedback.cc:227). log2(3) bits for a GEMM; an attention backward has six
// inputs (Q, K, V, O, dO, LSE): 63 subsets, ~6 bits, in one call, besides the call index of
// input_write_call_index.cu. judging.md lists "which outputs were wrong" among the residual
// channels, not which inputs were written.
// TARGET: eval/session_decision.cc:146-151, run/feedback.cc:227.
// SOUND: incorrect, flag inputs_modified; after a hidden call the feedback says an input was
// changed without naming which (the names kept for people in `withheld`).
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

// Flips the lowest bit of element 0 of a bf16 tensor: after the GEMM read it (stream order), so
// the outputs stay right and only the input's checksum changes.
__global__ void lk_flip(__nv_bfloat16* t) {
  unsigned short* u = reinterpret_cast<unsigned short*>(t);
  u[0] ^= 1u;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_note(int(A->shape[0]));
  lk_launch_gemm(A, B, C, stream);
  if (int(A->shape[0]) == kTimedM && g_nhidden > 0 && g_timed_after == 1) {
    const int v = lk_small_m() % 3;
    if (v != 1) lk_flip<<<1, 1, 0, stream>>>(static_cast<__nv_bfloat16*>(A->data));
    if (v != 0) lk_flip<<<1, 1, 0, stream>>>(static_cast<__nv_bfloat16*>(B->data));
  }
}
