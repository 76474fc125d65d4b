// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/cluster16_honest_blamed. FALSE BLAME.
// KIND: an honest kernel in clusters as large as a GPC cannot start beside the HALF load and is
// failed as schedule_dependent. A cluster's blocks must run together in one GPC. narrow()
// (broker.cc:172, sm_load.cu:156-158) ends only the larger share's second kernel; the half
// (hold_sm, one block per SM on sms/2 SMs, sm_load.cu:121) stays, and nothing places it by GPC,
// so every GPC keeps about half of its SMs busy. A cluster of 16 (the non-portable maximum on
// sm_90) then has no GPC to start in until the load's time is up; the call's work outlasts it
// (sm_load.cu:174), load_outlasted (judge_session.cc:189-190), and judge_calls says "its blocks
// waited for SMs the load held ... must be launched cooperatively" (session_decision.cc:200-207),
// advice a cluster kernel cannot follow. judging.md names the risk (clusters of 8 or 16, "the
// first thing to measure") but no control measures it on an honest kernel.
// TECHNIQUE (honest): 64x64 FFMA tiles, the blocks of a cluster sharing one row of tiles: for each
// K slice, rank r loads 64/cs of the A slab's rows into its shared memory, barrier.cluster, every
// block gathers the whole slab from its peers through distributed shared memory
// (cluster.map_shared_rank), barrier.cluster again before the slab is overwritten. The cluster
// size cs is 16 where cudaOccupancyMaxActiveClusters says a 16-block cluster fits the GPU
// (cudaFuncAttributeNonPortableClusterSizeAllowed), else 8; launched with
// cudaLaunchAttributeClusterDimension (cs, 1, 1).
// SOUND VERDICT: passed (passed_missing_instructions, exit 16): no dependence between clusters;
// the GPU admits the shape.
// PREDICTED (read from the code at e0ac5a7, not run on a GPU; the load's placement over GPCs is a
// GPU fact): incorrect, schedule_dependent, at the first loaded check of either share, with the
// withheld note "the load's time ... had ended when the call's work ended". If the hardware
// happens to leave a GPC free under the half load: passed, slower in the loaded calls.
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

__global__ void __launch_bounds__(256, 1)
    c16_gemm(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
             __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float part[kSlice][kTile + 1];  // this rank's rows of the A slab
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  cg::cluster_group cluster = cg::this_cluster();
  const int cs = int(cluster.num_blocks()), rank = int(cluster.block_rank());
  const int rows = kTile / cs;  // A rows each rank loads
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < rows * kSlice; i += 256) {
      const int r = rank * rows + i / kSlice, kk = i % kSlice, gk = k0 + kk;
      part[kk][r] = (m0 + r < M && gk < K) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
    }
    for (int i = threadIdx.x; i < kTile * kSlice; i += 256) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      Bs[kk][r] = (n0 + r < N && gk < K) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
    }
    cluster.sync();  // every rank's rows are in place
    for (int i = threadIdx.x; i < kTile * kSlice; i += 256) {
      const int r = i % kTile, kk = i / kTile;
      const float* peer = cluster.map_shared_rank(&part[0][0], r / rows);
      As[kk][r] = peer[kk * (kTile + 1) + r];
    }
    cluster.sync();  // nobody reads a peer's rows any more: they may be overwritten
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(As[kk][ty + 16 * i], Bs[kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
  tile_store(C, M, N, m0, n0, acc);
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  static int cs = 0;
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const int tiles_n = (N + kTile - 1) / kTile;
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  if (cs == 0) {
    cudaFuncSetAttribute(c16_gemm, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cs = 16;
    cfg.gridDim = dim3(16, 1);
    attr[0].val.clusterDim.x = 16;
    attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, c16_gemm, &cfg) != cudaSuccess || clusters < 1)
      cs = 8;
  }
  cfg.gridDim = dim3((tiles_n + cs - 1) / cs * cs, (M + kTile - 1) / kTile);
  attr[0].val.clusterDim.x = unsigned(cs);
  attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
  cudaLaunchKernelEx(&cfg, c16_gemm, static_cast<const __nv_bfloat16*>(At->data),
                     static_cast<const __nv_bfloat16*>(Bt->data),
                     static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}
