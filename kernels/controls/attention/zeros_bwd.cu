// ptxbench control (mha_bwd_d128, sm_90a): zeros_bwd.
// Writes zeros to dQ, dK, dV with cudaMemsetAsync on the given stream and computes nothing.
// Expected: incorrect (every element written; the relative-L2 check fails even where the
// gradients are small).

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, const DLTensor* O,
                                const DLTensor* dO, const DLTensor* LSE, DLTensor* dQ, DLTensor* dK, DLTensor* dV,
                                cudaStream_t stream) {
  const size_t bytes = static_cast<size_t>(Q->shape[0] * Q->shape[1] * Q->shape[2]) * 128 * 2;
  cudaMemsetAsync(dQ->data, 0, bytes, stream);
  cudaMemsetAsync(dK->data, 0, bytes, stream);
  cudaMemsetAsync(dV->data, 0, bytes, stream);
}
