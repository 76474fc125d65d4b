// bench/gemm_accuracy: how far cuBLASLt's bf16 GEMM lands from the evaluator's fp32
// reference, per task shape: the measurement behind the GEMM element rule
// (src/task/tolerance.h, docs/task-spec.md "The element rule"). Not a test; a probe run on
// the GPU machine, built there by hand:
//
//   nvcc -std=c++17 -O3 -arch=sm_90a bench/gemm_accuracy.cu -lcublasLt -o gemm_accuracy
//   ./gemm_accuracy M N:K[:ATOL] [N:K[:ATOL] ...]
//
// For C = A Bᵀ with A, B ~ N(0, 1) rounded to bf16, on one seed, it computes: the exact
// product (fp64 FMA), the evaluator's reference (one fp32 FMA accumulator per element in
// increasing k, as src/eval/gpu/reference.cu), cuBLASLt with an fp32 output and cuBLASLt
// with the bf16 output the tasks use. It prints, per shape, the standard deviation of each
// accumulation error in units of 2^-24 * K (round-to-nearest errors stay near a constant in
// that unit; truncation errors grow as sqrt(K) in it), the same for |lib32 - ref| on the
// elements near 0 (|exact| < 0.2 sqrt(K), the ones atol decides) in absolute terms, the
// largest |bf16 out - ref| among elements whose relative error exceeds rtol = 1e-2 (the
// smallest atol the library would meet), and the failing elements under atol = 1e-2 and
// under ATOL (default 1e-2).
#include <cublasLt.h>
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)
#define LT(x)                                                                          \
  do {                                                                                 \
    cublasStatus_t s_ = (x);                                                           \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d cublasLt status %d\n", __FILE__, __LINE__, (int)s_); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

__device__ unsigned long long mix(unsigned long long z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__global__ void fill_normal(__nv_bfloat16* x, long long n, unsigned long long seed) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += gridDim.x * 256ll) {
    float u1 = ((mix(seed ^ mix(2 * i)) >> 40) + 1.0f) / 16777216.0f;
    float u2 = ((mix(seed ^ mix(2 * i + 1)) >> 40) + 1.0f) / 16777216.0f;
    x[i] = __float2bfloat16(sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2));
  }
}

// One accumulator per element, k increasing: T = float is the evaluator's reference.
template <typename T>
__global__ void gemm_ref(const __nv_bfloat16* A, const __nv_bfloat16* B, T* C, int M, int N,
                         int K) {
  __shared__ T As[16][65], Bs[16][65];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  long long m0 = blockIdx.y * 64ll, n0 = blockIdx.x * 64ll;
  T acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = threadIdx.x; e < 64 * 16; e += 256) {
      int r = e / 16, c = e % 16;
      As[c][r] = m0 + r < M ? (T)__bfloat162float(A[(m0 + r) * K + k0 + c]) : T(0);
      Bs[c][r] = n0 + r < N ? (T)__bfloat162float(B[(n0 + r) * K + k0 + c]) : T(0);
    }
    __syncthreads();
    for (int kk = 0; kk < 16; ++kk)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fma(As[kk][ty + 16 * i], Bs[kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      long long m = m0 + ty + 16 * i, n = n0 + tx + 16 * j;
      if (m < M && n < N) C[m * N + n] = acc[i][j];
    }
}

struct Acc {
  double e_lib2, e_ref2, d_acc2, exact2, d_near0_2;
  unsigned long long fail_old, fail_new, near0;
  unsigned int need_atol_bits, max_ratio_new_bits, max_dacc_bits;
};

__global__ void stats(const double* exact, const float* ref, const float* lib32,
                      const __nv_bfloat16* lib16, long long n, float atol_new, double near,
                      Acc* a) {
  double el = 0, er = 0, da = 0, ex = 0, dn = 0;
  unsigned long long fo = 0, fn = 0, nn = 0;
  float need = 0, ratio = 0, mda = 0;
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += gridDim.x * 256ll) {
    double x = exact[i];
    float r = ref[i], l = lib32[i], o = __bfloat162float(lib16[i]);
    el += (l - x) * (l - x);
    er += (r - x) * (r - x);
    da += (double)(l - r) * (l - r);
    ex += x * x;
    if (fabs(x) < near) dn += (double)(l - r) * (l - r), ++nn;
    mda = fmaxf(mda, fabsf(l - r));
    float d = fabsf(o - r), rel = d / (fabsf(r) + 1e-8f);
    if (rel > 1e-2f) need = fmaxf(need, d);
    fo += (d > 1e-2f && rel > 1e-2f);
    fn += (d > atol_new && rel > 1e-2f);
    ratio = fmaxf(ratio, d / fmaxf(atol_new, 1e-2f * (fabsf(r) + 1e-8f)));
  }
  atomicAdd(&a->e_lib2, el);
  atomicAdd(&a->e_ref2, er);
  atomicAdd(&a->d_acc2, da);
  atomicAdd(&a->exact2, ex);
  atomicAdd(&a->d_near0_2, dn);
  atomicAdd(&a->near0, nn);
  atomicAdd(&a->fail_old, fo);
  atomicAdd(&a->fail_new, fn);
  atomicMax(&a->need_atol_bits, __float_as_uint(need));
  atomicMax(&a->max_ratio_new_bits, __float_as_uint(ratio));
  atomicMax(&a->max_dacc_bits, __float_as_uint(mda));
}

// cuBLASLt C[M,N] = A[M,K] B[N,K]^T, row-major, as src/eval/gpu/baseline_cublaslt.cc.
void lt_gemm(cublasLtHandle_t h, const void* A, const void* B, void* C, cudaDataType ct, int M,
             int N, int K, void* ws, size_t wsb) {
  cublasLtMatmulDesc_t desc;
  LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t T = CUBLAS_OP_T, Nn = CUBLAS_OP_N;
  LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &T, sizeof T));
  LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &Nn, sizeof Nn));
  cublasLtMatrixLayout_t a, b, c;
  LT(cublasLtMatrixLayoutCreate(&a, CUDA_R_16BF, K, N, K));
  LT(cublasLtMatrixLayoutCreate(&b, CUDA_R_16BF, K, M, K));
  LT(cublasLtMatrixLayoutCreate(&c, ct, N, M, N));
  cublasLtMatmulPreference_t pref;
  LT(cublasLtMatmulPreferenceCreate(&pref));
  LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb,
                                          sizeof wsb));
  cublasLtMatmulHeuristicResult_t heur;
  int found = 0;
  LT(cublasLtMatmulAlgoGetHeuristic(h, desc, a, b, c, c, pref, 1, &heur, &found));
  if (!found) std::exit(1);
  float one = 1, zero = 0;
  LT(cublasLtMatmul(h, desc, &one, B, a, A, b, &zero, C, c, C, c, &heur.algo, ws, wsb, 0));
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(a);
  cublasLtMatrixLayoutDestroy(b);
  cublasLtMatrixLayoutDestroy(c);
  cublasLtMatmulDescDestroy(desc);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gemm_accuracy M N:K[:ATOL] ...\n");
    return 2;
  }
  int M = std::atoi(argv[1]);
  cublasLtHandle_t h;
  LT(cublasLtCreate(&h));
  size_t wsb = 64u << 20;
  void* ws;
  CK(cudaMalloc(&ws, wsb));
  std::printf(
      "| M | N | K | sigma(lib32-exact) | sigma(ref-exact) | sigma(lib32-ref) | max |lib32-ref| "
      "| sigma(lib32-ref), near 0 | sigma_C/sqrt(K) | atol needed (bf16 out) | fail @1e-2 | ATOL "
      "| fail @ATOL | worst ratio @ATOL |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 2; i < argc; ++i) {
    int N = 0, K = 0;
    float atol = 1e-2f;
    std::sscanf(argv[i], "%d:%d:%f", &N, &K, &atol);
    long long nA = 1ll * M * K, nB = 1ll * N * K, nC = 1ll * M * N;
    __nv_bfloat16 *A, *B, *C16;
    float *ref, *C32;
    double* exact;
    Acc* acc;
    CK(cudaMalloc(&A, nA * 2));
    CK(cudaMalloc(&B, nB * 2));
    CK(cudaMalloc(&C16, nC * 2));
    CK(cudaMalloc(&C32, nC * 4));
    CK(cudaMalloc(&ref, nC * 4));
    CK(cudaMalloc(&exact, nC * 8));
    CK(cudaMalloc(&acc, sizeof(Acc)));
    CK(cudaMemset(acc, 0, sizeof(Acc)));
    fill_normal<<<4096, 256>>>(A, nA, 1000 + i);
    fill_normal<<<4096, 256>>>(B, nB, 2000 + i);
    dim3 grid((N + 63) / 64, (M + 63) / 64);
    gemm_ref<float><<<grid, 256>>>(A, B, ref, M, N, K);
    gemm_ref<double><<<grid, 256>>>(A, B, exact, M, N, K);
    lt_gemm(h, A, B, C32, CUDA_R_32F, M, N, K, ws, wsb);
    lt_gemm(h, A, B, C16, CUDA_R_16BF, M, N, K, ws, wsb);
    stats<<<132 * 8, 256>>>(exact, ref, C32, C16, nC, atol, 0.2 * std::sqrt((double)K), acc);
    CK(cudaDeviceSynchronize());
    Acc a;
    CK(cudaMemcpy(&a, acc, sizeof a, cudaMemcpyDeviceToHost));
    auto f = [](unsigned b) {
      float x;
      std::memcpy(&x, &b, 4);
      return x;
    };
    double unit = std::ldexp(1.0, -24) * K;
    std::printf(
        "| %d | %d | %d | %.3f | %.3f | %.3f | %.4g | %.4g | %.4f | %.4g | %llu | %.4g | %llu | "
        "%.3f |\n",
        M, N, K, std::sqrt(a.e_lib2 / nC) / unit, std::sqrt(a.e_ref2 / nC) / unit,
        std::sqrt(a.d_acc2 / nC) / unit, f(a.max_dacc_bits),
        a.near0 ? std::sqrt(a.d_near0_2 / a.near0) : 0.0,
        std::sqrt(a.exact2 / nC) / std::sqrt((double)K), f(a.need_atol_bits), a.fail_old, atol,
        a.fail_new, f(a.max_ratio_new_bits));
    std::fflush(stdout);
    cudaFree(A), cudaFree(B), cudaFree(C16), cudaFree(C32), cudaFree(ref), cudaFree(exact),
        cudaFree(acc);
  }
  return 0;
}
