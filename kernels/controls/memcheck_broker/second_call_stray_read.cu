// ptxbench red-team control (gemm_n7168_k5120, sm_90a): memcheck_broker/second_call_stray_read.
// KIND: the memcheck session sees one call; the candidate chooses which of its calls err.
// WHAT: a correct GEMM; from the SECOND call of its process on, one read 64 B past a kept 1 MiB
// cudaMallocAsync workspace (no fault in any session; compute-sanitizer would report it).
// TARGET: judge_session_start.cc:80 (one_least_work_check: plan_.checks = one call) and
// evaluator.cc:154-216: the memcheck session runs only that first call; every later call of the
// judged session (checks, timing, audit) runs without the tool.
// SOUND: runtime_error (memcheck_errors): the kernel reads outside its allocation on most calls.
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

static int g_calls = 0;
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  void* ws = workspace(stream);
  if (++g_calls >= 2 && ws)
    mb_stray<<<1, 1, 0, stream>>>(static_cast<const unsigned char*>(ws), 64,
                                  static_cast<int*>(C->data));
  mb_launch_gemm(A, B, C, stream);
}
