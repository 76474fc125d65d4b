// Test fixture for the compile stage (src/compile): a plain CUDA-core tiled GEMM
// C = A · Bᵀ (bf16 in, fp32 accumulation, bf16 out) with no wgmma and no TMA, so its
// sm_90a SASS has no HGMMA and no UTMALDG. Correct for any M, N, K (bounds-checked).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cstdint>

namespace {

constexpr int kTile = 16;

__global__ void gemm_simt(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, int m,
                          int n, int k) {
  __shared__ float sa[kTile][kTile + 1];
  __shared__ float sb[kTile][kTile + 1];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    const int ka = k0 + threadIdx.x;
    sa[threadIdx.y][threadIdx.x] =
        row < m && ka < k ? __bfloat162float(a[static_cast<std::int64_t>(row) * k + ka]) : 0.f;
    const int nb = blockIdx.x * kTile + threadIdx.y;
    sb[threadIdx.y][threadIdx.x] =
        nb < n && ka < k ? __bfloat162float(b[static_cast<std::int64_t>(nb) * k + ka]) : 0.f;
    __syncthreads();
    for (int kk = 0; kk < kTile; ++kk) acc += sa[threadIdx.y][kk] * sb[threadIdx.x][kk];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<std::int64_t>(row) * n + col] = __float2bfloat16(acc);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int m = static_cast<int>(A->shape[0]), k = static_cast<int>(A->shape[1]);
  const int n = static_cast<int>(B->shape[0]);
  dim3 block(kTile, kTile), grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  gemm_simt<<<grid, block, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                        static_cast<const __nv_bfloat16*>(B->data),
                                        static_cast<__nv_bfloat16*>(C->data), m, n, k);
}
