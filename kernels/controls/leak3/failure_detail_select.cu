// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/failure_detail_select.
// KIND: how a public call after the hidden ones fails, chosen from a hidden size; each way has
//   its own words in the feedback.
// WHAT: a correct GEMM; on the first timed-workload call after the first hidden call, by
// M_small & 3: 0: C[0] made wrong but finite; 1: C[0] = NaN; 2: no output written at all (the
// poison stays: cached_result "no output element was written although call 1 ... wrote", a
// Guard line); 3: the GEMM, then one bit of A flipped (inputs_modified, a Guard line, the
// message). The feedback tells the four apart: "wrong values" / "wrong values, and the output
// contains NaN or Inf" (run/feedback.cc:89-97, m.non_finite) / the cached_result and
// inputs_modified Guard lines (feedback.cc:70-76) and message (:227). 2 bits a session, not in
// judging.md's list of residual channels (it lists the kind of failure for hidden calls only).
// TARGET: run/stage_pipeline.cc:37-45 (non_finite kept), eval/session_decision.cc:146-173,
// run/feedback.cc:70-76,89-97,227.
// SOUND: incorrect; after a hidden call one fixed account of a public call's failure ("wrong or
// missing values, or changed inputs, on the timed workload"), its kind for people.
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

__global__ void lk_spoil(__nv_bfloat16* c, int nan) {
  c[0] = nan ? __float2bfloat16(__int_as_float(0x7fc00000)) : __float2bfloat16(__bfloat162float(c[0]) + 1024.f);
}
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_note(int(A->shape[0]));
  const bool target = int(A->shape[0]) == kTimedM && g_nhidden > 0 && g_timed_after == 1;
  const int v = lk_small_m() & 3;
  if (target && v == 2) return;  // nothing written
  lk_launch_gemm(A, B, C, stream);
  if (!target) return;
  if (v == 3)
    lk_flip<<<1, 1, 0, stream>>>(static_cast<__nv_bfloat16*>(A->data));
  else
    lk_spoil<<<1, 1, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data), v);
}
