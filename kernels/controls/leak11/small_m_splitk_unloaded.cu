// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/small_m_splitk_unloaded.
// KIND: the SM load visits two workloads only: the timed one (its loaded check and the loaded
// timing rounds, plan.cc:240-255, plan.h kLoadedTimingOdds) and the ragged hidden one again
// (plan.cc:256-261). The small, large, audit and any hidden workloads (task/hidden_draw.h) are
// checked once each, on an idle GPU. Their shapes are public classes: small is M in [1, 63],
// ragged M in [65, 1023] and never a multiple of 8, the timed M is the task file's. A kernel's
// schedule-dependent path for a shape class the load never visits is never looked at.
// TECHNIQUE: for M < 64 (the skinny-M case where split-K is the usual design), a split-K path
// with a hand-off that needs co-residency: 4 K slices of every 64x64 tile, slice s in blocks
// [s*tiles, (s+1)*tiles); the slice-0 block of a tile (the LOWEST indices) waits for the partials
// of slices 1..3 (higher indices, each published with a fence and a flag), adds them and stores.
// One block per SM (120 KiB of dynamic shared memory): on an idle GPU 132 blocks are resident,
// the 112 slice-0 blocks spin on 20 slots that cycle through the other slices; with fewer than
// 113 SMs free every resident block is a slice-0 block and none can finish (1 s time-out, then
// it writes nothing). Every other M: the plain tiled GEMM.
// WHAT IT WOULD GAIN: a kernel whose small-M path deadlocks beside other work passes; more
// generally any schedule-dependent path keyed to a hidden shape class other than ragged.
// SOUND VERDICT: incorrect, schedule_dependent (its small-M calls leave C unwritten with fewer
// than about 113 SMs free).
// PREDICTED (read from the code at e0ac5a7, not run on a GPU): passed_missing_instructions (exit
// 16), no flag: the small workload's one check runs unloaded and the split-K path completes.
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

constexpr int kSplits = 4, kPadBytes = 120 * 1024;
constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;

__global__ void __launch_bounds__(256)
    sm_tiled(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
             __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  float acc[4][4] = {};
  tile_mac(A, B, M, N, K, blockIdx.y * kTile, blockIdx.x * kTile, 0, K, As, Bs, acc);
  tile_store(C, M, N, blockIdx.y * kTile, blockIdx.x * kTile, acc);
}

// ws: (kSplits - 1) x tiles partial tiles of 64x64 floats, then tiles x (kSplits - 1) flags.
__global__ void __launch_bounds__(256, 1)
    sm_splitk(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
              __nv_bfloat16* __restrict__ C, int M, int N, int K, float* ws, int tiles) {
  extern __shared__ float pad[];
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  if (threadIdx.x == 0) pad[0] = 0.f;
  const int tiles_n = (N + kTile - 1) / kTile;
  const int t = int(blockIdx.x) % tiles, split = int(blockIdx.x) / tiles;
  const int m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
  const int per = (K / kSplits + kSlice - 1) / kSlice * kSlice;
  const int k_lo = min(K, split * per), k_hi = min(K, (split + 1) * per);
  float acc[4][4] = {};
  tile_mac(A, B, M, N, K, m0, n0, k_lo, k_hi, As, Bs, acc);
  unsigned* flags = reinterpret_cast<unsigned*>(ws + size_t(kSplits - 1) * tiles * kTile * kTile);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  if (split > 0) {  // publish the partial: fenced, then flagged
    float* mine = ws + (size_t(split - 1) * tiles + t) * kTile * kTile;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) mine[(ty + 16 * i) * kTile + tx + 16 * j] = acc[i][j];
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) atomicExch(&flags[t * (kSplits - 1) + split - 1], 1u);
    return;
  }
  int ok = 1;
  if (threadIdx.x == 0) {  // the slice-0 block waits for the later blocks of its tile
    const unsigned long long t0 = now_ns();
    for (int s = 0; s < kSplits - 1 && ok; ++s)
      while (atomicAdd(&flags[t * (kSplits - 1) + s], 0u) == 0)
        if (now_ns() - t0 > kWaitNs) {
          ok = 0;
          break;
        }
    __threadfence();
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  for (int s = 0; s < kSplits - 1; ++s) {
    const float* part = ws + (size_t(s) * tiles + t) * kTile * kTile;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) acc[i][j] += __ldcg(&part[(ty + 16 * i) * kTile + tx + 16 * j]);
  }
  tile_store(C, M, N, m0, n0, acc);
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  static bool ready = false;
  if (!ready) {
    cudaFuncSetAttribute(sm_splitk, cudaFuncAttributeMaxDynamicSharedMemorySize, kPadBytes);
    ready = true;
  }
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const auto* A = static_cast<const __nv_bfloat16*>(At->data);
  const auto* B = static_cast<const __nv_bfloat16*>(Bt->data);
  auto* C = static_cast<__nv_bfloat16*>(Ct->data);
  const int tiles_n = (N + kTile - 1) / kTile, tiles_m = (M + kTile - 1) / kTile;
  if (M >= 64) {  // the timed and the ragged workloads (the loaded ones), large, audit, any
    sm_tiled<<<dim3(tiles_n, tiles_m), 256, 0, s>>>(A, B, C, M, N, K);
    return;
  }
  const int tiles = tiles_n * tiles_m;
  const size_t bytes = (size_t(kSplits - 1) * tiles * kTile * kTile + size_t(tiles) * kSplits) * 4;
  float* ws = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&ws), bytes, s) != cudaSuccess) return;
  sm_splitk<<<kSplits * tiles, 256, kPadBytes, s>>>(A, B, C, M, N, K, ws, tiles);
  cudaFreeAsync(ws, s);
}
