// ptxbench control (gemm_n4096_k4096, sm_90a): split_partials_gemm.
// Issue 34, kind 2 (tuned to the judge's input distributions), near-cancellation flavour: a tiled
// fp32 GEMM (64 x 64 tiles, FFMA) that sums each group of 16 k values in fp32 and hands the
// group's partial sum on as a pair of bf16 values (hi = bf16(p), lo = bf16(p - hi): 16
// significant bits), as a split-K or warp-specialised kernel does to halve the bytes of the
// partials it passes through shared memory. The running sum itself stays fp32.
// On normal(0, 1) and wide_range inputs a group's partial is ~4 (times the power-of-two scale) and
// 16 bits keep it to ~3e-5: an emulation (M x N = 32 x 256) puts the total error at 1.5e-4
// (sigma) at K = 4096 against the rule's atol 0.01: a pass. On near_cancel inputs the groups
// hold terms 16x larger that cancel only across the next group, so each partial is ~64 and the
// error 2.5e-3 (sigma): 0.01 is 4 sigma, about 20 failing elements among the 16M outputs of
// the timed workload (docs/task-spec.md, "near_cancel (GEMM), in detail").
// Expected: incorrect in every session (each session checks every distribution of the family,
// the timed workload included), with no flag. No target instruction (wgmma, tma absent).

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

// p kept as two bf16 halves: 16 significant bits instead of fp32's 24.
__device__ __forceinline__ float split_bf16x2(float p) {
  const float hi = __bfloat162float(__float2bfloat16_rn(p));
  return hi + __bfloat162float(__float2bfloat16_rn(p - hi));
}

constexpr int kTile = 64;          // 64 x 64 outputs per block
constexpr int kSlice = 32;         // k values per staged slice
constexpr int kGroup = 16;         // k values per partial sum
constexpr int kThreads = 256;      // 16 x 16 threads, each 4 rows x 4 columns
constexpr int kPitch = kTile + 4;  // float4-aligned rows

// acc += A[row0.., k_begin..k_end) * B[col0.., k_begin..k_end)^T for one 64 x 64 tile, rows below
// `rows` and columns below N only; fp32 slices in shared memory ([k][row]), FFMA; each group of
// kGroup k values reaches acc through split_bf16x2.
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
      as[kk][r] = (ra < rows && gk < k_end) ? __bfloat162float(A[size_t(ra) * K + gk]) : 0.f;
      bs[kk][r] = (rb < N && gk < k_end) ? __bfloat162float(B[size_t(rb) * K + gk]) : 0.f;
    }
    __syncthreads();
    for (int g = 0; g < kSlice; g += kGroup) {
      float part[4][4] = {};
#pragma unroll 8
      for (int kk = g; kk < g + kGroup; ++kk) {
        const float4 a4 = *reinterpret_cast<const float4*>(&as[kk][ty * 4]);
        const float4 b4 = *reinterpret_cast<const float4*>(&bs[kk][tx * 4]);
        const float a[4] = {a4.x, a4.y, a4.z, a4.w}, b[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) part[i][j] = fmaf(a[i], b[j], part[i][j]);
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += split_bf16x2(part[i][j]);
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
    gemm_split_partials(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K) {
  float acc[4][4] = {};
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  tile_product(A, B, M, N, K, row0, col0, 0, K, acc);
  store_tile(C, M, N, row0, col0, acc);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  gemm_split_partials<<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                                  static_cast<const __nv_bfloat16*>(B->data),
                                                  static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
