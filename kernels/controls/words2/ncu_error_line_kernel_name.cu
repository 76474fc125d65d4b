// ptxbench red-team control (gemm_n7168_k5120, sm_90a): ncu_error_line_kernel_name.
//
// KIND: a kernel name inside the profiler's own error line (a variation on
// words/ncu_perm_word_kernel_name.cu that aims at its fix).
//
// WHAT IT DOES. A correct FFMA GEMM, plus a second kernel whose name carries the permission
// error's token: extern "C" words_ERR_NVGPUCTRPERM_probe. The host launches it on every call
// (it does nothing) and the GEMM after it. On the 2nd..n-th launch inside ONE host process the
// probe's block count is 0 on purpose when the call count passes 40 -- an invalid launch
// configuration the CUDA runtime refuses at launch time (cudaErrorInvalidConfiguration, no
// sticky error, no fault). The aim: Nsight Compute, which intercepts every launch in the audited
// NVTX range, prints its OWN error line about a launch it could not profile, and that line
// quotes the kernel name, e.g.
//     ==ERROR== Failed to profile "words_ERR_NVGPUCTRPERM_probe" in process 4242
//
// CODE PATH TARGETED. src/audit/ncu_route.cc ncu_lacks_counter_permission: after the fix it
// accepts any line that STARTS with "==ERROR==" and CONTAINS ERR_NVGPUCTRPERM anywhere -- the
// candidate's kernel name included -- and ncu_kernels then fails the audit with the
// administrator hint; judge/decide.cc audit_decision makes an audit error a harness_error.
//
// UNVERIFIED (no GPU, no ncu here): whether ncu prints a kernel name in an ==ERROR== line for a
// launch the runtime refused (it may never reach ncu's launch hook), and whether any such line
// comes without the call failing first (the refused launch is ignored by the host code here, so
// the call itself still succeeds). The code at fault is real either way: the check should match
// ncu's permission message exactly ("==ERROR== ERR_NVGPUCTRPERM - The user does not have
// permission..."), not a token anywhere in a line that may quote a kernel name.
//
// SOUND VERDICT: passed by correctness, wgmma absent -> passed_missing_instructions (never
// harness_error).
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


extern "C" __global__ void words_ERR_NVGPUCTRPERM_probe(int* unused) {
  if (unused != nullptr && threadIdx.x == 1023) *unused = 0;
}

static int g_calls = 0;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  const unsigned blocks = g_calls > 40 ? 0u : 1u;  // 0 blocks: refused at launch, nothing runs
  words_ERR_NVGPUCTRPERM_probe<<<blocks, 32, 0, stream>>>(nullptr);
  (void)cudaGetLastError();  // the refused launch is not the call's failure
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
