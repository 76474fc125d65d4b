// ptxbench audit test kernel (gemm_n7168_k5120, sm_90a): a candidate that launches TWO kernel
// functions per call, to test the per-function audit (CUPTI 13.0 records only the first kernel
// launched after Enable in a process, so each function gets its own audit process).
//
//   1. `prologue_scale_probe`: a small FFMA-only kernel that reads A and writes nothing the
//      task checks (one float per block into C's first row, overwritten by the GEMM after);
//   2. the reference wgmma + TMA GEMM (kernels/reference/sm_90a/gemm_n7168_k5120.cu), included
//      here with its entry point renamed.
// Expected: prologue has no target family; the GEMM function executes wgmma and TMA; the
// candidate's tensor-FLOP coverage is that of the reference (~1).
#define ptxbench_launch reference_gemm_launch
#include "../../../kernels/reference/sm_90a/gemm_n7168_k5120.cu"
#undef ptxbench_launch

__global__ void prologue_scale_probe(const __nv_bfloat16* A, long long n, float* sink) {
  float acc = 0.f;
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
    acc = fmaf(__bfloat162float(A[i]), 0.5f, acc);
  if (acc == 12345.678f) sink[blockIdx.x] = acc;  // practically never: keeps the loop alive
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const long long n = A->shape[0] * A->shape[1];
  prologue_scale_probe<<<132, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data), n,
                                                static_cast<float*>(C->data));
  reference_gemm_launch(A, B, C, stream);
}
