// ptxbench red-team control (gemm_n7168_k5120, sm_90a): memcheck_broker/full_register_file_launch.
// KIND: a launch that only fails under the tool is charged to the candidate.
// WHAT: a CORRECT GEMM (no memory error) whose kernel takes the whole register file: 1024 threads
// per block, __launch_bounds__(1024, 1) (64 registers a thread, 65,536 a block = one SM's file),
// 128x128 tile, 4x4 outputs a thread. The sanitizer's instrumentation adds code (and live
// registers) to every memory access; if it cannot keep the limit the launch fails under the tool
// only (too many resources requested), an error the broker answers as cuda_error.
// TARGET: judge_session_peers.cc call_verdict cuda_error -> runtime_error (the candidate's, no
// check that the failure needs the tool), adopted by evaluator.cc:216-243.
// SOUND: passed with memcheck_unavailable (the tool could not run the kernel).
// Needs a GPU to see whether this compute-sanitizer spills instead of failing.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
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

__global__ void __launch_bounds__(256) mb_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, K, blockIdx.y, blockIdx.x);
}

static void mb_launch_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  mb_gemm<<<grid, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(A->data),
                               static_cast<const __nv_bfloat16*>(B->data),
                               static_cast<__nv_bfloat16*>(C->data), M, N, K);
}

// A 1 MiB workspace (cudaMallocAsync, made once, kept): its pool chunk is larger, so a read just
// past its end cannot fault, but compute-sanitizer tracks the allocation and calls it an error.
constexpr size_t kWs = size_t(1) << 20;
static void* g_ws = nullptr;
static void* workspace(cudaStream_t s) {
  if (g_ws == nullptr && cudaMallocAsync(&g_ws, kWs, s) != cudaSuccess) g_ws = nullptr;
  return g_ws;
}
// The memory error: one volatile read `past` bytes beyond the workspace's end, value unused.
__global__ void mb_stray(const unsigned char* ws, size_t past, int* sink) {
  const volatile unsigned char* p = ws + kWs + past;
  if (*p == 0xA5 && past == 12345) *sink = 1;  // never true: keeps the load
}

__global__ void __launch_bounds__(1024, 1) mb_big(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                 __nv_bfloat16* C, int M, int N, int K) {
  // Four 64x64 naive tiles per 128x128 block: thread group q (256 threads) takes quadrant q.
  __shared__ float As[4][kSlice][kTile + 1];
  __shared__ float Bs[4][kSlice][kTile + 1];
  const int q = threadIdx.x / 256, t = threadIdx.x % 256, tx = t % 16, ty = t / 16;
  const int m0 = blockIdx.y * 128 + (q / 2) * 64, n0 = blockIdx.x * 128 + (q % 2) * 64;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = t; i < kTile * kSlice; i += 256) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
      As[q][kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[q][kk][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(As[q][kk][ty + 16 * i], Bs[q][kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + 127) / 128, (M + 127) / 128);
  mb_big<<<grid, 1024, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                    static_cast<const __nv_bfloat16*>(B->data),
                                    static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
