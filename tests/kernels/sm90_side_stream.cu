// Test fixture for the compile stage's symbol allow-list: a kernel that passes the
// source policy but launches on a side stream it creates and synchronises the device
// inside the entry point. Its shared object imports cudaStreamCreate and
// cudaDeviceSynchronize, which ptxbench must reject as a policy violation.
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

__global__ void fill(float* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.f;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  (void)A;
  (void)B;
  (void)stream;
  cudaStream_t side;
  cudaStreamCreate(&side);
  const int n = static_cast<int>(C->shape[0]);
  fill<<<(n + 255) / 256, 256, 0, side>>>(static_cast<float*>(C->data), n);
  cudaDeviceSynchronize();
}
