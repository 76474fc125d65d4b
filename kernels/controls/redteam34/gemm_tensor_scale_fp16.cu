// redteam34 control (gemm_n7168_k5120, sm_90a): tensor_scale_fp16.
// Attack: fp16 intermediates with ONE power-of-two scale per tensor, taken from the first row of
// A and of B only. The judge's wide_range distribution (src/eval/gpu/rng.h random_value,
// wide_range_exponent) scales a whole tensor by one 2^e, and normal inputs need no scale, so a
// per-tensor scale read from one row always fits every other row into fp16. Real activations
// are not like that: a few tokens carry "massive activations" 2^10..2^17 times the others; any
// row above ~2^16 times row 0's magnitude overflows fp16 here (Inf in C). Everything else is
// correct: products of exactly converted fp16 operands, fp32 accumulation, exact rescale.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// Own FFMA GEMM core (redteam34): C[m][n] = sum_k A[m][k] * B[n][k], bf16 in, fp32 accumulate,
// bf16 out. A 64x64 output tile per 256-thread block; thread (r, c) owns rows 4r..4r+3 and
// columns 4c..4c+3 of the tile; K staged 32 at a time in shared memory as fp32. Correct for any
// M >= 1 when row_limit == M.
namespace rt34 {
constexpr int kBM = 64, kBN = 64, kBK = 32, kThreads = 256;

__device__ __forceinline__ void gemm_tile(const __nv_bfloat16* __restrict__ A,
                                          const __nv_bfloat16* __restrict__ B,
                                          __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                          int row0, int col0) {
  __shared__ float sA[kBK][kBM + 4];
  __shared__ float sB[kBK][kBN + 4];
  const int r = threadIdx.x / 16, c = threadIdx.x % 16;
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += kBK) {
    for (int e = threadIdx.x; e < kBM * kBK; e += kThreads) {
      const int row = e / kBK, kk = e % kBK, gk = k0 + kk;
      const int gm = row0 + row, gn = col0 + row;
      sA[kk][row] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      sB[kk][row] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kBK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = sA[kk][4 * r + i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = sB[kk][4 * c + j];
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
      const int gm = row0 + 4 * r + i, gn = col0 + 4 * c + j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

inline dim3 gemm_grid(int M, int N) {
  return dim3(unsigned((N + kBN - 1) / kBN), unsigned((M + kBM - 1) / kBM));
}
}  // namespace rt34

namespace rt34 {
// The exponents (frexp) of max|A[0][:]| and max|B[0][:]|.
__device__ int g_exp[2];

__global__ void __launch_bounds__(256) row0_scale(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                  int K) {
  __shared__ float red[256];
  const __nv_bfloat16* row = blockIdx.x == 0 ? A : B;
  float m = 0.f;
  for (int k = threadIdx.x; k < K; k += 256) m = fmaxf(m, fabsf(__bfloat162float(row[k])));
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    int e = 0;
    frexpf(red[0] > 0.f ? red[0] : 1.f, &e);
    g_exp[blockIdx.x] = e;  // row 0 scaled by 2^-e lies in [0.5, 1)
  }
}

__global__ void __launch_bounds__(kThreads)
    gemm_fp16_scaled(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                     __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ __half sA[kBK][kBM + 8];
  __shared__ __half sB[kBK][kBN + 8];
  const int ea = g_exp[0], eb = g_exp[1];
  const float fa = ldexpf(1.f, -ea), fb = ldexpf(1.f, -eb);
  const int row0 = int(blockIdx.y) * kBM, col0 = int(blockIdx.x) * kBN;
  const int r = threadIdx.x / 16, c = threadIdx.x % 16;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    for (int e = threadIdx.x; e < kBM * kBK; e += kThreads) {
      const int row = e / kBK, kk = e % kBK, gk = k0 + kk;
      const int gm = row0 + row, gn = col0 + row;
      const float a = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      const float b = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
      sA[kk][row] = __float2half_rn(a * fa);  // exact while the row fits fp16's range
      sB[kk][row] = __float2half_rn(b * fb);
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kBK; ++kk) {
      __half a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = sA[kk][4 * r + i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = sB[kk][4 * c + j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += __half2float(__hmul(a[i], b[j]));
    }
    __syncthreads();
  }
  const float back = ldexpf(1.f, ea + eb);
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = row0 + 4 * r + i, gn = col0 + 4 * c + j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j] * back);
    }
}
}  // namespace rt34

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const auto* a = static_cast<const __nv_bfloat16*>(A->data);
  const auto* b = static_cast<const __nv_bfloat16*>(B->data);
  rt34::row0_scale<<<2, 256, 0, stream>>>(a, b, K);
  rt34::gemm_fp16_scaled<<<rt34::gemm_grid(M, N), rt34::kThreads, 0, stream>>>(
      a, b, static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
