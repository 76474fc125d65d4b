// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/runtime_cluster_width_unseen. FALSE BLAME.
// KIND: the broker tells a launch in clusters by the cluster shape the function was COMPILED with
// (candidate_module.cc:84-90, read once when the module is loaded) or by a cluster-dimension launch
// attribute (broker_calls.cc:52-67). A shape set at run time with cudaFuncSetAttribute
// (cudaFuncAttributeRequiredClusterWidth/Height/Depth, which CUDA allows for a function compiled
// without one) passes through the broker (broker_answers.cc:104-110, broker_device.cc:212-219:
// attributes 8..MAX, the cluster ones included) to the driver, which then launches in clusters,
// while launch_kind still says ordinary. So narrow() (broker.cc:172) is never called: under the
// larger share (16 of 132 SMs free, scattered over the GPCs) a cluster of 4 has nowhere to start
// until the load's time is up, the work outlasts it (sm_load.cu:174) and the honest kernel is
// schedule_dependent, where the same kernel with __cluster_dims__(4,1,1) would have met the half.
// TECHNIQUE (honest): the distributed-shared-memory GEMM of leak11/cluster16_honest_blamed.cu
// (each rank loads 64/cs rows of the A slab, the cluster shares them), its cluster shape set once
// at run time to (4, 1, 1), launched with <<<grid, 256, 0, stream>>> and no launch attribute.
// SOUND VERDICT: passed (passed_missing_instructions, exit 16).
// PREDICTED (read from the code at e0ac5a7, not run on a GPU; where the 16 free SMs lie is a GPU
// fact): incorrect, schedule_dependent, at the session's larger-share check (plan.cc:262-275: every
// session has one) when no GPC keeps 4 SMs free; passed where the free SMs happen to cluster.
// Under the half share it runs slower and passes.
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

constexpr int kCluster = 4;

__global__ void __launch_bounds__(256, 1)
    rc_gemm(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
            __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float part[kSlice][kTile + 1];
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  cg::cluster_group cluster = cg::this_cluster();
  const int cs = int(cluster.num_blocks()), rank = int(cluster.block_rank());
  const int rows = kTile / cs;
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
    cluster.sync();
    for (int i = threadIdx.x; i < kTile * kSlice; i += 256) {
      const int r = i % kTile, kk = i / kTile;
      const float* peer = cluster.map_shared_rank(&part[0][0], r / rows);
      As[kk][r] = peer[kk * (kTile + 1) + r];
    }
    cluster.sync();
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
  static bool shaped = false;
  if (!shaped) {  // the cluster shape, at run time: the function was compiled without one
    cudaFuncSetAttribute(rc_gemm, cudaFuncAttributeRequiredClusterWidth, kCluster);
    cudaFuncSetAttribute(rc_gemm, cudaFuncAttributeRequiredClusterHeight, 1);
    cudaFuncSetAttribute(rc_gemm, cudaFuncAttributeRequiredClusterDepth, 1);
    shaped = true;
  }
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const int tiles_n = (N + kTile - 1) / kTile;
  const dim3 grid((tiles_n + kCluster - 1) / kCluster * kCluster, (M + kTile - 1) / kTile);
  rc_gemm<<<grid, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(At->data),
                               static_cast<const __nv_bfloat16*>(Bt->data),
                               static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}
