// ptxbench control (mha_with_lse_d128, sm_90a): hang_fwd.
// A kernel that spins until LSE[0] holds a value nobody writes (a volatile read the compiler
// cannot remove), i.e. forever. Expected: timeout; the worker is killed and the next
// evaluation works.

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

__global__ void spin(const float* flag) {
  while (*static_cast<const volatile float*>(flag) != 12345.f) {
  }
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  spin<<<1, 32, 0, stream>>>(static_cast<const float*>(LSE->data));
}
