// ptxbench red-team control (gemm_n7168_k5120, sm_90a): memcheck_broker/printf_hidden_workload_dump.
// KIND: the memcheck session's device output is kept unwithheld, and its one call is hidden.
// WHAT: a correct GEMM whose kernel (thread 0 of block (0,0)) printf()s M and A's first 8 values
// on every call. The memcheck session's only call is the least-work workload, usually a hidden
// one; its broker output (the kernel's printf) becomes r.memcheck_output_tail verbatim.
// TARGET: evaluator.cc:187 (r.memcheck_output_tail = m.broker_output_tail, "for people"),
// eval_result.cc:169 (written in every result JSON / `ptxbench eval --json`), judge_session.cc:298
// (broker_output_tail, same in the judged session); no withholding for hidden calls there,
// unlike run/stage_pipeline.cc:94-96's care for the sanitizer report.
// SOUND: passed, with the hidden call's broker output withheld from the record.
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

__global__ void mb_say(const __nv_bfloat16* A, int M, int N, int K) {
  printf("mb: M=%d N=%d K=%d A0..7=", M, N, K);
  for (int i = 0; i < 8; ++i) printf("%g ", __bfloat162float(A[i]));
  printf("\n");
}
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  mb_say<<<1, 1, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data), int(A->shape[0]),
                              int(B->shape[0]), int(A->shape[1]));
  mb_launch_gemm(A, B, C, stream);
}
