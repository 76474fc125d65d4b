// ptxbench control (gemm_n7168_k5120, sm_90a): oob_write.
// Each thread writes its element at C + i + 2^40 elements (a stray 64-bit offset, 2 TiB past
// the buffer), an address that is never mapped: the kernel faults with an illegal address.
// Expected: outcome runtime_error (CUDA error text names the illegal address), and the next
// evaluation works. Run it only in its own process.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

__global__ void write_far(__nv_bfloat16* C, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t stray = size_t(1) << 40;  // BUG: offset from a wrong stride computation
  if (i < n) C[i + stray] = __float2bfloat16_rn(1.f);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const size_t n = size_t(A->shape[0]) * size_t(B->shape[0]);
  write_far<<<unsigned((n + 255) / 256), 256, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data),
                                                           n);
}
