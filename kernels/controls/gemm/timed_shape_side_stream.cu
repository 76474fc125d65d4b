// ptxbench control (gemm_n7168_k5120, sm_90a): timed_shape_side_stream.
// A slow kernel that works outside its events on the timed shape only (the timed workload's
// shape is public: M = 8192) and is honest on every hidden shape and in the first call of every
// process: the plain FFMA GEMM on the given stream (about 0.03x the library), plus, on the timed
// shape after a process's first call, a spin of about 50 ms on the per-thread default stream
// that the events never see. Three more kernel functions (no-ops) run in every call, so the
// instruction audit starts three more runner processes, each of whose first call is honest.
// Every output is correct. Expected: passed, flagged side_stream, its speedup from the wall
// clock. Before 3ee8fde its honest hidden-shape calls (5 of the 8 later checked calls) and the
// audit runners' first calls outvoted its timed-shape calls: it was timed by its events, about
// 2x its true speed, with no flag (the review of 2026-12-01, seventh session).

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// Plain tiled GEMM C = A * B^T: 64x64 output tile per 256-thread block, 16-deep k slices staged
// in shared memory as fp32, each thread accumulates a 4x4 block in fp32 registers (FFMA).
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int k_end, int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < k_end; k0 += kSlice) {
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

__global__ void __launch_bounds__(256) naive_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                  __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, K, blockIdx.y, blockIdx.x);
}

// One thread keeps a stream busy for `cycles` SM clock cycles.
__global__ void spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// A kernel function of its own that does nothing (the audit audits each function in a runner
// of its own).
template <int kWhich>
__global__ void aux(int* sink) {
  if (sink != nullptr && threadIdx.x == 1024) *sink = kWhich;  // never true: 1 thread a block
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static int calls = 0;  // calls made in this process
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  if (++calls > 1 && M == 8192)
    spin<<<1, 1, 0, cudaStreamPerThread>>>(100000000LL);  // ~50 ms the events never see
  aux<0><<<1, 1, 0, stream>>>(nullptr);
  aux<1><<<1, 1, 0, stream>>>(nullptr);
  aux<2><<<1, 1, 0, stream>>>(nullptr);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  naive_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
