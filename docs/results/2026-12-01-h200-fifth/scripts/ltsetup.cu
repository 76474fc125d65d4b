// Probe: where cuBLASLt's set-up time goes (handle, heuristic, first launch of each algorithm).
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <vector>
using C = std::chrono::steady_clock;
static double ms(C::time_point a) { return std::chrono::duration<double, std::milli>(C::now() - a).count(); }
int main() {
  auto t = C::now(); cudaFree(0); printf("context %.1f ms\n", ms(t));
  const long M = 8192, N = 7168, K = 5120; void *A, *B, *Cc, *ws; size_t wsz = 64u << 20;
  cudaMalloc(&A, M * K * 2); cudaMalloc(&B, N * K * 2); cudaMalloc(&Cc, M * N * 2); cudaMalloc(&ws, wsz);
  t = C::now(); cublasLtHandle_t h; cublasLtCreate(&h); printf("cublasLtCreate %.1f ms\n", ms(t));
  t = C::now();
  cublasLtMatmulDesc_t d; cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t T = CUBLAS_OP_T, Nn = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &T, sizeof T);
  cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSB, &Nn, sizeof Nn);
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16BF, K, N, K); cublasLtMatrixLayoutCreate(&b, CUDA_R_16BF, K, M, K);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, N, M, N);
  cublasLtMatmulPreference_t p; cublasLtMatmulPreferenceCreate(&p);
  cublasLtMatmulPreferenceSetAttribute(p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsz, sizeof wsz);
  std::vector<cublasLtMatmulHeuristicResult_t> r(8); int found = 0;
  cublasLtMatmulAlgoGetHeuristic(h, d, a, b, c, c, p, 8, r.data(), &found);
  printf("heuristic (%d found) %.1f ms\n", found, ms(t));
  float al = 1, be = 0;
  for (int i = 0; i < found; ++i) {
    t = C::now();
    cublasStatus_t s = cublasLtMatmul(h, d, &al, B, a, A, b, &be, Cc, c, Cc, c, &r[i].algo, ws, wsz, 0);
    cudaDeviceSynchronize(); double first = ms(t);
    t = C::now(); cublasLtMatmul(h, d, &al, B, a, A, b, &be, Cc, c, Cc, c, &r[i].algo, ws, wsz, 0);
    cudaDeviceSynchronize(); printf("algo %d status %d first %.1f ms second %.2f ms\n", i, (int)s, first, ms(t));
  }
  return 0;
}
