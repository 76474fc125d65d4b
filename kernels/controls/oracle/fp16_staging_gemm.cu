// ptxbench control (gemm_n4096_k4096, sm_90a): fp16_staging_gemm.
// Issue 34, kind 2 (tuned to the judge's one input distribution), GEMM flavour: a tiled fp32
// GEMM (64 x 64 tiles, FFMA, fp32 accumulation) whose loads convert every input value to __half
// on the way into shared memory -- the tile path of an fp16 kernel kept when the inputs became
// bf16, a common slip. For normal(0, 1) inputs this changes nothing: every bf16 value between
// 2^-14 and 65504 in magnitude is exact in fp16 (8 significant bits < 11), and the few smaller
// ones lose only bits far below the tolerance. So it passes today, bit for bit like the fp32 kernel.
// It is wrong for inputs with a wide dynamic range: any |x| > 65504 becomes inf (C = inf/NaN in
// its row or column), and values below 2^-14 lose precision (subnormal fp16) or vanish below
// 2^-24. Real activations reach that range (fp16 overflow of outlier features is why models
// moved to bf16).
// Expected: incorrect in a session whose wide-dynamic-range distribution has inputs past 65504
// (or judges rows of tiny scale relative to their own scale); a wide-range distribution that
// stays within fp16's range and is judged only by the absolute floor for small rows lets it
// pass, which a GPU run must show and which would then be a gap to report. No target
// instruction (wgmma, tma absent).
// CPU emulation (M=70, N=96, K=160): right with normal inputs and with an outlier column scaled
// by 2^12; inf/NaN outputs with the outlier column scaled by 2^17.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

#define LOAD_IN(x) __half2float(__float2half_rn(__bfloat162float(x)))  // staged as fp16

constexpr int kTile = 64;          // 64 x 64 outputs per block
constexpr int kSlice = 32;         // k values per staged slice
constexpr int kThreads = 256;      // 16 x 16 threads, each 4 rows x 4 columns
constexpr int kPitch = kTile + 4;  // float4-aligned rows

// acc += A[row0.., k_begin..k_end) * B[col0.., k_begin..k_end)^T for one 64 x 64 tile, rows below
// `rows` and columns below N only; fp32 slices in shared memory ([k][row]), FFMA.
// Thread (ty, tx) holds rows ty*4+i and columns tx*4+j of the tile.
__device__ __forceinline__ void tile_product(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                                             int rows, int N, int K, int row0, int col0, int k_begin, int k_end,
                                             float (&acc)[4][4]) {
  __shared__ __align__(16) float as[kSlice][kPitch];
  __shared__ __align__(16) float bs[kSlice][kPitch];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = k_begin; k0 < k_end; k0 += kSlice) {
    for (int e = threadIdx.x; e < kTile * kSlice; e += kThreads) {
      const int r = e / kSlice, kk = e % kSlice, gk = k0 + kk;
      const int ra = row0 + r, rb = col0 + r;
      as[kk][r] = (ra < rows && gk < k_end) ? LOAD_IN(A[size_t(ra) * K + gk]) : 0.f;
      bs[kk][r] = (rb < N && gk < k_end) ? LOAD_IN(B[size_t(rb) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kSlice; ++kk) {
      const float4 a4 = *reinterpret_cast<const float4*>(&as[kk][ty * 4]);
      const float4 b4 = *reinterpret_cast<const float4*>(&bs[kk][tx * 4]);
      const float a[4] = {a4.x, a4.y, a4.z, a4.w}, b[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
}

__device__ __forceinline__ void store_tile(__nv_bfloat16* __restrict__ C, int rows, int N, int row0, int col0,
                                           const float (&acc)[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < rows && c < N) C[size_t(r) * N + c] = __float2bfloat16_rn(acc[i][j]);
    }
}

__global__ void __launch_bounds__(kThreads)
    gemm_fp16_staged(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K) {
  float acc[4][4] = {};
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  tile_product(A, B, M, N, K, row0, col0, 0, K, acc);
  store_tile(C, M, N, row0, col0, acc);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  gemm_fp16_staged<<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                                  static_cast<const __nv_bfloat16*>(B->data),
                                                  static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
