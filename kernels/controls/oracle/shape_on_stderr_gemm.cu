// ptxbench control (gemm_n7168_k2048, sm_90a): shape_on_stderr_gemm.
// Issue 34, kind 5 (hidden shapes through the candidate's own words), GEMM flavour and through
// another channel than an exception: a correct tiled fp32 GEMM (64 x 64 tiles, FFMA) for the
// timed M = 8192 (public). On any other M the host code prints
//   "gemm_tuned: no schedule for rows=1000 (cols=7168 depth=2048), trapping"
// to stderr and launches a kernel that executes __trap(): the call ends in a device fault.
// Expected: runtime_error on the first hidden call; the verdict names the fault, and nothing the
// model receives may carry the candidate's stderr for a hidden call (issue 34 item 5: "including
// text the candidate itself produced on a hidden call (exception messages, stderr)"):
// feedback_must_not_contain in oracle.toml. No target instruction (wgmma, tma absent).
// CPU emulation: M = 70 prints the line and traps.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>

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
    gemm_tuned(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K) {
  float acc[4][4] = {};
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  tile_product(A, B, M, N, K, row0, col0, 0, K, acc);
  store_tile(C, M, N, row0, col0, acc);
}

__global__ void no_schedule() { __trap(); }

constexpr int kTunedM = 8192;  // the timed workload's M

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  if (M != kTunedM) {
    fprintf(stderr, "gemm_tuned: no schedule for rows=%d (cols=%d depth=%d), trapping\n", M, N, K);
    no_schedule<<<1, 1, 0, stream>>>();
    return;
  }
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  gemm_tuned<<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                            static_cast<const __nv_bfloat16*>(B->data),
                                            static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
