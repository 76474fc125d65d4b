// ptxbench control (gemm_n7168_k5120, sm_90a): zeros.
// Writes 0 to every element of C and does no math: every element is written (poisoning does
// not catch it) and no NaN appears, but the values are wrong; the relative-L2 check and the
// element rule must fail it. Expected: outcome incorrect; wgmma and tma absent.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

__global__ void fill_zero(__nv_bfloat16* C, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    C[i] = __float2bfloat16_rn(0.f);
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const size_t n = size_t(A->shape[0]) * size_t(B->shape[0]);
  fill_zero<<<1024, 256, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data), n);
}
