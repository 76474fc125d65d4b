// ptxbench control (gemm_n7168_k5120, sm_90a): banned_cublas.
// Correct math done by calling the library the task is measured against: includes cublas_v2.h
// and calls cublasGemmEx (row-major C = A B^T expressed as column-major C^T = B A^T).
// Expected: outcome policy_violation before anything runs: the built object imports cuBLAS
// functions (the include alone would be accepted: compat/unused_cublas_include.cu).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static cublasHandle_t handle = nullptr;
  if (handle == nullptr) cublasCreate(&handle);
  cublasSetStream(handle, stream);
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const float alpha = 1.f, beta = 0.f;
  cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B->data, CUDA_R_16BF, K,
               A->data, CUDA_R_16BF, K, &beta, C->data, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
}
