// ptxbench control (gemm_n7168_k5120, sm_90a): export_cuda_symbol.
// Defines cudaEventElapsedTime with C linkage, so the built object EXPORTS the runtime's name
// (an attempt to interpose the harness's timer). The source policy no longer judges function
// names (a static helper named cudaCheck is harmless, issue 16); the built object's exported
// dynamic symbols do. Expected: policy_violation at compile time naming cudaEventElapsedTime.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.001f;
  return cudaSuccess;
}

__global__ void fill_zero(__nv_bfloat16* C, long long n) {
  const long long i = blockIdx.x * 256ll + threadIdx.x;
  if (i < n) C[i] = __float2bfloat16_rn(0.f);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const long long n = C->shape[0] * C->shape[1];
  fill_zero<<<unsigned((n + 255) / 256), 256, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data), n);
  (void)A;
  (void)B;
}
