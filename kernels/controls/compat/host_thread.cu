// ptxbench control (gemm_n7168_k5120, sm_90a): host_thread.
// Launches its kernel from a std::thread: work that outlives or escapes the call. Threads stay
// refused by family whatever the host compiler names them (issue 16). Expected: policy_violation
// at compile time, the reason saying threads are not allowed.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <thread>

__global__ void clear_output(__nv_bfloat16* C, long long n) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += gridDim.x * 256ll)
    C[i] = __float2bfloat16_rn(0.f);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const long long n = C->shape[0] * C->shape[1];
  std::thread t([=] { clear_output<<<1024, 256, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data), n); });
  t.join();
  (void)A;
  (void)B;
}
