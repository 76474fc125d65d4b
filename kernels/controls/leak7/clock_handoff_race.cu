// ptxbench control (gemm_n7168_k5120, sm_90a): leak7/clock_handoff_race.
// KIND: the judge's other schedule moves blocks, it never slows them. The SM load is 32-thread
// blocks that sleep (__nanosleep(2000) between reads of a flag, sm_load.cu hold_sm) on half the
// SMs: it takes SMs away, not issue slots, memory bandwidth or L2 from the SMs the kernel keeps,
// and nothing else ever runs beside a call. A hand-off between blocks timed by the clock instead
// of a flag (a data race) then always meets the timing it was tuned on.
// TECHNIQUE: split-K GEMM with 264 blocks (4 a SM on half of 132 SMs, at most 64 registers:
// co-resident with or without the load, so no call outlasts it). Blocks [0, 132) and
// [132, 264) pair up: both take the same 64x64 tiles in the same order, the second computes
// the upper half of K into a per-tile fp32 buffer of its workspace and moves on; the first
// computes the lower half, then, instead of
// waiting for a flag, waits its own half's duration again (a 2x margin) and adds whatever the
// buffer holds (its previous call's partial, if the partner is late).
// WHAT IT GAINS: a pass for a racy kernel (no fence, no flag): the kind of hand-off a stream-K or
// split-K kernel gets wrong, which the load exists to catch (issue 34 item 4). A cooperative
// launch is a second door: a call whose launches are all cooperative is exempt from the
// outlasted rule (judge_session.cc:189-190), so it may wait the load out and run unloaded.
// SOUND VERDICT: incorrect (schedule_dependent): when any other work shares the partner's SM or
// the memory system (a concurrent stream, MPS, another process), the partner falls behind and C
// takes the stale partial.
// PREDICTED (read from the code at bc0ad01, no GPU): passed_missing_instructions (exit 16), no
// flag: partners run the same work on SMs nothing else uses, loaded or not, and the partner never
// waits, so it is ahead when read. gpu_shows: the same binary beside a memory-bound kernel on
// another stream fails.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (fresh/unsafe_on_new_rows.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile, n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
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

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  lk_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

typedef unsigned long long u64;
__device__ __forceinline__ u64 lk_now() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
constexpr int kPairs = 132;
// Half of K of one 64x64 tile into acc (as naive_tile, over [k_lo, k_hi)).
__device__ void lk_half(const __nv_bfloat16* A, const __nv_bfloat16* B, int M, int N, int K,
                        int m0, int n0, int k_lo, int k_hi, float (&acc)[4][4]) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = k_lo; k0 < k_hi; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < k_hi) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < k_hi) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(As[kk][ty + 16 * i], Bs[kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
}
__global__ void __launch_bounds__(256, 4) lk_split(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                __nv_bfloat16* C, int M, int N, int K,
                                                float* partial) {
  const bool upper = blockIdx.x >= kPairs;
  const int pair = blockIdx.x % kPairs, nb = (N + kTile - 1) / kTile;
  const int tiles = nb * ((M + kTile - 1) / kTile), half = (K / 2) / kSlice * kSlice;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int t = pair; t < tiles; t += kPairs) {
    const int m0 = (t / nb) * kTile, n0 = (t % nb) * kTile;
    float acc[4][4] = {};
    float* buf = partial + size_t(t) * kTile * kTile;
    if (upper) {
      lk_half(A, B, M, N, K, m0, n0, half, K, acc);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) buf[(ty + 16 * i) * kTile + tx + 16 * j] = acc[i][j];
      continue;  // no fence, no flag: the reader goes by the clock
    }
    const u64 t0 = lk_now();
    lk_half(A, B, M, N, K, m0, n0, 0, half, acc);
    const u64 took = lk_now() - t0;
    while (lk_now() - t0 < 2 * took) {
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
        const int at = (ty + 16 * i) * kTile + tx + 16 * j;
        const float up = reinterpret_cast<volatile float*>(buf)[at];
        if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j] + up);
      }
  }
}

static float* g_partial = nullptr;
static size_t g_tiles = 0;

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const size_t tiles = size_t((M + kTile - 1) / kTile) * ((N + kTile - 1) / kTile);
  if (tiles > g_tiles) {
    if (g_partial) cudaFreeAsync(g_partial, s);
    g_partial = nullptr;
    g_tiles = 0;
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_partial), tiles * kTile * kTile * 4, s) ==
        cudaSuccess)
      g_tiles = tiles;
  }
  if (!g_partial) return lk_launch_gemm(At, Bt, Ct, s);
  lk_split<<<2 * kPairs, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(At->data),
                                      static_cast<const __nv_bfloat16*>(Bt->data),
                                      static_cast<__nv_bfloat16*>(Ct->data), M, N, K, g_partial);
}
