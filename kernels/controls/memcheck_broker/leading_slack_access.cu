// ptxbench red-team control (gemm_n7168_k5120, sm_90a): memcheck_broker/leading_slack_access.
// KIND: the sanitizer checks ALLOCATION bounds; the judge's tensors are not allocations.
// WHAT: a correct GEMM that also reads 64 B BEFORE A and writes 128 B before C (one thread).
// Each tensor is the verifier's exported buffer, placed at the END of its own 2 MiB block
// (gpu/device_buffer.h:33-41, exported_offset): what lies before it is the same allocation's
// slack, mapped by cudaIpcOpenMemHandle as one region (worker/broker.cc:56-84 map_slot). The
// stray accesses never fault, memcheck sees them inside a live allocation (no error), and the
// verifier only zeroes the slack (verifier_session.cc:117-122), never checks it. Guarded to run
// only when the slack is at least 256 B (all but M with 2 MiB-multiple tensors).
// SOUND: runtime_error (memcheck_errors): an access outside the tensor it was given.
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

__global__ void mb_underflow(const __nv_bfloat16* A, __nv_bfloat16* C) {
  const volatile unsigned short* before_a = reinterpret_cast<const volatile unsigned short*>(A) - 32;
  const unsigned short v = *before_a;             // 64 B before A: the allocation's zeroed slack
  reinterpret_cast<volatile unsigned short*>(C)[-64] = v;  // 128 B before C: a stray write
}
static bool has_slack(size_t bytes) {
  const size_t g = size_t(2) << 20, cap = (bytes + g - 1) / g * g;
  return (cap - bytes) / 256 * 256 >= 256;
}
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const size_t M = size_t(A->shape[0]), K = size_t(A->shape[1]), N = size_t(B->shape[0]);
  if (has_slack(M * K * 2) && has_slack(M * N * 2))
    mb_underflow<<<1, 1, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                      static_cast<__nv_bfloat16*>(C->data));
  mb_launch_gemm(A, B, C, stream);
}
