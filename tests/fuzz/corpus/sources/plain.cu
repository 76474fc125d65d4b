#include <dlpack/dlpack.h>
#include <cuda_runtime.h>
__global__ void k(float* c) { c[threadIdx.x] = 0.0f; }
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s) {
  k<<<1, 32, 0, s>>>(static_cast<float*>(C->data)); }
