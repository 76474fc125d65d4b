// ptxbench red-team control (gemm_n7168_k5120, sm_90a): ptxbench_namespace_by_macro.
//
// KIND: preprocessor output differs from the source text the policy reads (compile stage
// accept/refuse), and a kernel name chosen to equal one of the judge's own kernels.
//
// WHAT IT DOES. A correct FFMA GEMM. A macro whose body is the word `ptxbench` opens
//     namespace JUDGE_NS { namespace gpu { namespace { __global__ void hold_sm(...) } } }
// so the preprocessed source defines a kernel ptxbench::gpu::(anonymous)::hold_sm(const volatile
// int*, unsigned long long), the qualified name and signature of the broker's own SM-load kernel
// (src/eval/gpu/sm_load.cu). It is never launched.
//
// CODE PATH TARGETED. src/compile/policy.cc code_rules: rule::ptxbench_internals matches the
// TEXT `namespace ptxbench` / `ptxbench::` and `#define PTXBENCH_...`; a macro named otherwise
// whose body is `ptxbench` passes, and the preprocessor makes the namespace. The symbol check
// (allow_list.cc is_forbidden_export) sees only EXPORTED names, and everything here is local (a
// first version with an exported helper ptxbench::gpu::twin() WAS refused there). So the compile
// stage accepts a file that breaks the rule kInternalsMsg states ("no ptxbench namespace").
// Effect, by reading: none today. cudafe++ names each file's anonymous namespace with a per-file
// hash (_GLOBAL__N__<hash>_9_kernel_cu_...), so the mangled name does not equal the broker's
// (whose hash comes from sm_load.cu), and the broker launches hold_sm before
// instrument::call_begin, in checked calls only (plan.cc), so no audit would see it anyway.
//
// SOUND VERDICT: policy_violation (rule ptxbench_internals), decided on the preprocessed source or
// on every function name of the object and cubin, not on the raw text; passed is acceptable if
// the rule is only advice (the symbol check is the real guard).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <cstdio>
#include <stdexcept>

// Own FFMA GEMM core (words controls): C[m][n] = sum_k A[m][k] * B[n][k], bf16 in, fp32
// accumulate, bf16 out; a 64x64 tile per 256-thread block, 4x4 outputs per thread, K staged 16 at
// a time in shared memory as fp32. Correct for any M >= 1 (N = 7168, K = 5120 for this task).
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void words_gemm_tile(const __nv_bfloat16* __restrict__ A,
                                                const __nv_bfloat16* __restrict__ B,
                                                __nv_bfloat16* __restrict__ C, int M, int N,
                                                int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][r] = (m0 + r < M && gk < K) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
      Bs[kk][r] = (n0 + r < N && gk < K) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__global__ void __launch_bounds__(256) words_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                  __nv_bfloat16* C, int M, int N, int K) {
  words_gemm_tile(A, B, C, M, N, K);
}


#define JUDGE_NS ptxbench

namespace JUDGE_NS {
namespace gpu {
namespace {
// Same signature as the broker's own kernel; never launched.
__global__ void hold_sm(const volatile int* stop, unsigned long long max_ns) {
  if (threadIdx.x == 0 && stop != nullptr && *stop == 12345 && max_ns == 0) __trap();
}
}  // namespace
}  // namespace gpu
}  // namespace JUDGE_NS

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
