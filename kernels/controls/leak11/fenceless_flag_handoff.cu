// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/fenceless_flag_handoff.
// KIND: a hand-off between blocks "without the memory ordering it needs" (the very words of
// schedule_dependent's message, session_decision.cc:210-217, and of sm_load.h's purpose) that the
// SM load cannot expose, because the load changes WHERE and WHEN blocks run, never the order in
// which another SM's stores become visible. Its blocks sleep in __nanosleep (sm_load.cu hold_sm):
// no stores, no L2 traffic, so nothing stresses the memory system (the litmus-test literature's
// "stress" that makes weak outcomes of message passing show). The hand-off below needs no
// co-residency (the waiting block has the HIGHER index, so its producer was dispatched first
// under any load), so the load's one real test (waiting past its time, sm_load.cu:174) never
// fires either.
// TECHNIQUE: split-K over block pairs: block t (< tiles) computes the upper K half of tile t and
// writes the fp32 partial to the workspace with plain stores, then, after a __syncthreads but NO
// __threadfence / st.release, thread 0 sets the tile's flag with a volatile store. Block
// tiles + t computes the lower half, spins on the flag with volatile loads (no ld.acquire, no fence
// after), then reads the partial with plain loads and adds it. Workspace and flags are a fresh
// zeroed allocation each call; a flag that never comes within 1 s leaves the tile unwritten.
// WHAT IT WOULD GAIN: a pass for a data race of the message-passing kind on every schedule the
// judge makes; it would read a stale partial (the zeros of the fresh allocation) only when the
// flag's store overtakes the data's, which nothing in a session provokes.
// SOUND VERDICT: incorrect (schedule_dependent): by the PTX memory model the consumer may see the
// flag before the data.
// PREDICTED (read from the code at e0ac5a7, not run on a GPU): passed_missing_instructions (exit
// 16), no flag, the loaded checks included.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64, kSlice = 16;

// One 64x64 tile of C = A * B^T over k in [k_lo, k_hi), 256 threads (4x4 outputs a thread), the
// operands staged through the caller's shared arrays.
__device__ __forceinline__ void tile_mac(const __nv_bfloat16* __restrict__ A,
                                         const __nv_bfloat16* __restrict__ B, int M, int N, int K,
                                         int m0, int n0, int k_lo, int k_hi, float (*As)[kTile + 1],
                                         float (*Bs)[kTile + 1], float acc[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = k_lo; k0 < k_hi; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += 256) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][r] = (m0 + r < M && gk < k_hi) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
      Bs[kk][r] = (n0 + r < N && gk < k_hi) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
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

__device__ __forceinline__ void tile_store(__nv_bfloat16* __restrict__ C, int M, int N, int m0,
                                           int n0, const float acc[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;

__global__ void __launch_bounds__(256)
    ff_gemm(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
            __nv_bfloat16* __restrict__ C, int M, int N, int K, float* partials, int* flags,
            int tiles) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const int tiles_n = (N + kTile - 1) / kTile;
  const bool producer = int(blockIdx.x) < tiles;
  const int t = producer ? int(blockIdx.x) : int(blockIdx.x) - tiles;
  const int m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
  const int half = (K / 2) / kSlice * kSlice;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float* part = partials + size_t(t) * kTile * kTile;
  float acc[4][4] = {};
  tile_mac(A, B, M, N, K, m0, n0, producer ? half : 0, producer ? K : half, As, Bs, acc);
  if (producer) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) part[(ty + 16 * i) * kTile + tx + 16 * j] = acc[i][j];
    __syncthreads();  // orders this block's threads, not their stores for another SM
    if (threadIdx.x == 0) *reinterpret_cast<volatile int*>(&flags[t]) = 1;  // no fence before
    return;
  }
  int ok = 1;
  if (threadIdx.x == 0) {
    const unsigned long long t0 = now_ns();
    while (*reinterpret_cast<volatile int*>(&flags[t]) == 0)
      if (now_ns() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] += part[(ty + 16 * i) * kTile + tx + 16 * j];
  tile_store(C, M, N, m0, n0, acc);
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const int tiles = ((N + kTile - 1) / kTile) * ((M + kTile - 1) / kTile);
  float* ws = nullptr;
  const size_t floats = size_t(tiles) * kTile * kTile;
  if (cudaMallocAsync(reinterpret_cast<void**>(&ws), (floats + tiles) * 4, s) != cudaSuccess)
    return;
  ff_gemm<<<2 * tiles, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(At->data),
                                    static_cast<const __nv_bfloat16*>(Bt->data),
                                    static_cast<__nv_bfloat16*>(Ct->data), M, N, K, ws,
                                    reinterpret_cast<int*>(ws + floats), tiles);
  cudaFreeAsync(ws, s);
}
