// ptxbench control (gemm_n7168_k5120, sm_90a): hang.
// The kernel spins forever waiting for a device flag that nothing ever sets (a broken
// producer/consumer handshake). The volatile load cannot be hoisted, so the kernel never ends.
// Expected: outcome timeout, the worker is killed, and the next evaluation works. Run it only
// in its own process.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

__device__ int g_ready = 0;  // never set by anyone

__global__ void wait_forever(__nv_bfloat16* C) {
  while (*static_cast<volatile int*>(&g_ready) == 0) {
  }
  C[threadIdx.x] = __float2bfloat16_rn(1.f);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  (void)A;
  (void)B;
  wait_forever<<<1, 32, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data));
}
