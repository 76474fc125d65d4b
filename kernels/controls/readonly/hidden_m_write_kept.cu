// ptxbench control (gemm_n7168_k5120, sm_90a): readonly/hidden_m_write_kept.
// KIND: a write into an input that faults (inputs are mapped read-only in the broker), made only
// on the hidden workloads (any M but the timed 8192) and left in place. The fault alone does not
// say it was a write into an input; the judge runs the faulted call again in a broker that maps
// the inputs writable (judge_session_rerun.cc) and the verifier's checksums name the input.
// TECHNIQUE: a correct tiled FFMA GEMM, then, when M != 8192, the last row of B halved in place.
// SOUND VERDICT: incorrect, inputs_modified (the verdict of every write into an input), the
// message withheld (a hidden call): never passed, never a harness error.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

// Plain tiled GEMM C = A * B^T: 64x64 output tile per 256-thread block, 16-deep k slices staged
// in shared memory as fp32, each thread accumulates a 4x4 block in fp32 registers (FFMA).
// Rows at or past m_end are not written.
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_end, int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
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
      if (gm < m_end && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

// The whole GEMM; with gated != 0 it is skipped when g_skip_gemm != 0 (a device flag that an
// earlier kernel on the same stream sets).
__device__ int g_skip_gemm = 0;

__global__ void __launch_bounds__(256)
    naive_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N,
               int K, int m_end, int gated) {
  if (gated && g_skip_gemm) return;
  naive_tile(A, B, C, M, N, K, m_end, blockIdx.y, blockIdx.x);
}

void launch_naive(const DLTensor* A, const DLTensor* B, DLTensor* C, int m_end, int gated,
                  cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  naive_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K, m_end, gated);
}

// row[k] *= 0.5 for k < K (bf16, rounded to nearest).
__global__ void halve_row(__nv_bfloat16* row, int K) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < K; k += gridDim.x * blockDim.x)
    row[k] = __float2bfloat16_rn(__bfloat162float(row[k]) * 0.5f);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  launch_naive(A, B, C, M, /*gated=*/0, stream);
  if (M == 8192) return;  // the timed workload: honest
  auto* b = static_cast<__nv_bfloat16*>(B->data);  // B is an input
  halve_row<<<8, 256, 0, stream>>>(b + size_t(N - 1) * K, K);
}
