// ptxbench control (gemm_n7168_k5120, sm_90a): listed_tail_sizes_gemm.
// Issue 34, kind 1 (hidden shapes are public): correct only for the ragged row counts that the
// task file used to list as hidden workloads (M = 1000, 2048, 1, 70, 1001, timed 8192).
// Whole 64-row tiles of C go through a plain fp32 tiled kernel (FFMA). The last M % 64 rows go
// through a "skinny" kernel templated on the number of rows (each thread one column, all the tail
// rows in registers), and the template is instantiated only for the tail sizes those listed M
// leave: 1 (M = 1), 6 (M = 70), 40 (M = 1000) and 41 (M = 1001). Any other tail size has no
// instantiation and its rows of C are never written. Unlike the handed case
// (listed_hidden_m_only.cu, keyed on the exact M) it is keyed on M % 64, so it is also right for
// every M that happens to leave one of those four tails (M = 65, 134, 1064, ...): about 4 of 64
// ragged M.
// Expected: incorrect (unwritten rows) in a session that draws its hidden M from the task's
// promise (any M >= 1: issue 34 item 1): at least one M < 64 and one large ragged M, each right
// here with probability ~4/64 only if the draw is uniform over tail sizes. Today (listed M) it
// passes. No target instruction (wgmma, tma absent).
// CPU emulation: M = 70, 1001-like tails right; M = 100 (tail 36) leaves 36 rows unwritten.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

#define LOAD_IN(x) __bfloat162float(x)

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
    gemm_tiles(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int N, int K) {
  float acc[4][4] = {};
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  tile_product(A, B, row0 + kTile, N, K, row0, col0, 0, K, acc);
  store_tile(C, row0 + kTile, N, row0, col0, acc);
}

// The tail: kRows rows starting at row0, one column per thread, fp32 accumulators in registers.
template <int kRows>
__global__ void __launch_bounds__(128)
    gemm_tail(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int N, int K, int row0) {
  const int n = blockIdx.x * 128 + threadIdx.x;
  if (n >= N) return;
  float acc[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) acc[r] = 0.f;
  const __nv_bfloat16* b = B + size_t(n) * K;
  for (int k = 0; k < K; ++k) {
    const float bv = __bfloat162float(b[k]);
#pragma unroll
    for (int r = 0; r < kRows; ++r) acc[r] = fmaf(__bfloat162float(A[size_t(row0 + r) * K + k]), bv, acc[r]);
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r) C[size_t(row0 + r) * N + n] = __float2bfloat16_rn(acc[r]);
}

template <int kRows>
void launch_tail(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int N, int K, int row0,
                 cudaStream_t stream) {
  gemm_tail<kRows><<<(N + 127) / 128, 128, 0, stream>>>(A, B, C, N, K, row0);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const auto* a = static_cast<const __nv_bfloat16*>(A->data);
  const auto* b = static_cast<const __nv_bfloat16*>(B->data);
  auto* c = static_cast<__nv_bfloat16*>(C->data);
  const int whole = M / kTile;
  if (whole > 0) gemm_tiles<<<dim3((N + kTile - 1) / kTile, whole), kThreads, 0, stream>>>(a, b, c, N, K);
  const int row0 = whole * kTile;
  switch (M - row0) {  // tuned tails: the M % 64 of every workload in the task file
    case 0: break;
    case 1: launch_tail<1>(a, b, c, N, K, row0, stream); break;
    case 6: launch_tail<6>(a, b, c, N, K, row0, stream); break;
    case 40: launch_tail<40>(a, b, c, N, K, row0, stream); break;
    case 41: launch_tail<41>(a, b, c, N, K, row0, stream); break;
    default: break;  // "not reached": no workload has another tail
  }
}
