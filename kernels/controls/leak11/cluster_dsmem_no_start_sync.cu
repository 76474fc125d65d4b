// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/cluster_dsmem_no_start_sync.
// KIND: a race INSIDE a cluster, which no placement of blocks on SMs can change. The SM load moves
// whole blocks (clusters meet the half share, sm_load.cu:156-158); the blocks of one cluster are
// always launched together onto one GPC, loaded or not, so a hand-off between them that lacks
// the barrier.cluster the programming model requires before distributed shared memory is used
// (every block of the cluster must have started: the guide's cluster.sync() at the top) and the
// release/acquire at cluster scope after it, meets the same intra-cluster timing under every
// schedule the judge makes.
// TECHNIQUE: split-K in clusters of 2 (__cluster_dims__(2,1,1)): both ranks take the same 64x64
// tile, rank 1 the upper half of K, rank 0 the lower. Rank 0 zeroes a flag in its own shared
// memory (no cluster barrier after it), computes, and spins on the flag. Rank 1 computes, writes
// its partial into rank 0's shared memory through cluster.map_shared_rank with plain stores,
// then sets rank 0's flag with a plain store (no fence.acq_rel.cluster, no barrier) and exits.
// If rank 1 ever wrote before rank 0 started or zeroed its flag, or the flag overtook the data,
// C would be wrong or the block would time out (1 s, then it writes nothing). Rank 1 spends half
// a tile's K loop before its first remote store, so on hardware that starts a cluster's blocks
// together it is always late enough.
// WHAT IT WOULD GAIN: a pass for a cluster kernel with the classic missing start barrier and
// missing release (the DSMEM bugs of hand-written Hopper kernels), under every loaded check.
// SOUND VERDICT: incorrect (schedule_dependent): a data race by the PTX memory model, a start
// order the programming model does not promise.
// PREDICTED (read from the code at e0ac5a7, not run on a GPU): passed_missing_instructions (exit
// 16), no flag. The loaded checks narrow the larger share for it (broker.cc:172) and the clusters
// of 2 fit beside the half; nothing in the judge looks at barrier.cluster or fences (the memcheck
// session runs memcheck, not racecheck or synccheck).
#include <cooperative_groups.h>
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

namespace cg = cooperative_groups;
constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256, 1)
    cs_gemm(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
            __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  __shared__ float partial[kTile * kTile];
  __shared__ int ready;
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());
  const int tiles_n = (N + kTile - 1) / kTile, t = int(blockIdx.x) / 2;
  const int m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
  const int half = (K / 2) / kSlice * kSlice;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  if (rank == 0 && threadIdx.x == 0) ready = 0;  // no barrier.cluster after it
  __syncthreads();
  float acc[4][4] = {};
  tile_mac(A, B, M, N, K, m0, n0, rank ? half : 0, rank ? K : half, As, Bs, acc);
  if (rank == 1) {
    float* dst = cluster.map_shared_rank(partial, 0);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) dst[(ty + 16 * i) * kTile + tx + 16 * j] = acc[i][j];
    __syncthreads();  // this block's stores issued; nothing orders them for rank 0
    if (threadIdx.x == 0) *reinterpret_cast<volatile int*>(cluster.map_shared_rank(&ready, 0)) = 1;
    return;
  }
  int ok = 1;
  if (threadIdx.x == 0) {
    const unsigned long long t0 = now_ns();
    while (*reinterpret_cast<volatile int*>(&ready) == 0)
      if (now_ns() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] += reinterpret_cast<volatile float*>(partial)[(ty + 16 * i) * kTile + tx + 16 * j];
  tile_store(C, M, N, m0, n0, acc);
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const int tiles = ((N + kTile - 1) / kTile) * ((M + kTile - 1) / kTile);
  cs_gemm<<<2 * tiles, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(At->data),
                                    static_cast<const __nv_bfloat16*>(Bt->data),
                                    static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}
