// ptxbench control (mha_with_lse_d128, sm_90a): zeros_fwd.
// Writes zeros to O and LSE with cudaMemsetAsync on the given stream and computes nothing.
// Expected: incorrect (every element written, values wrong; LSE is far from 0).

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  const size_t rows = static_cast<size_t>(Q->shape[0] * Q->shape[1] * Q->shape[2]);
  cudaMemsetAsync(O->data, 0, rows * 128 * 2, stream);
  cudaMemsetAsync(LSE->data, 0, rows * 4, stream);
}
