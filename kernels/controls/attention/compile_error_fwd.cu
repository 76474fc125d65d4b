// ptxbench control (mha_with_lse_d128, sm_90a): compile_error_fwd.
// Does not compile: the launch calls a kernel that is never declared and passes a DLTensor
// where a pointer is expected. Expected: compile_error with nvcc's message.

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

__global__ void attention_kernel(const float* q, float* o) { o[threadIdx.x] = q[threadIdx.x]; }

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  attention_kernel<<<1, 128, 0, stream>>>(*Q, O->data);
  attention_kernel_v2<<<1, 128, 0, stream>>>(K->data, V->data, LSE->data);
}
