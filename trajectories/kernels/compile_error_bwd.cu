// Scripted agent kernel (mha_bwd_d128 / mha_bwd_d128_causal, sm_90a): compile_error_bwd.
// A first backward attempt that does not compile: the dK/dV kernel is launched but was
// never written, and LSE (fp32) is passed where a bf16 pointer is expected.
// Expected: compile_error with nvcc's messages in the feedback.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

__global__ void dq_rows(const __nv_bfloat16* q, const __nv_bfloat16* lse_as_bf16, __nv_bfloat16* dq, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dq[i] = __hmul(q[i], lse_as_bf16[i / 128]);
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, const DLTensor* O,
                                const DLTensor* dO, const DLTensor* LSE, DLTensor* dQ, DLTensor* dK, DLTensor* dV,
                                cudaStream_t stream) {
  const long long n = Q->shape[0] * Q->shape[1] * Q->shape[2] * Q->shape[3];
  const float* lse = static_cast<const float*>(LSE->data);
  dq_rows<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(Q->data), lse, static_cast<__nv_bfloat16*>(dQ->data), n);
  dkdv_rows<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(K->data, V->data, dO->data, dK->data,
                                                                        dV->data, n);
}
