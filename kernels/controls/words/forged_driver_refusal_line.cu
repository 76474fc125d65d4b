// ptxbench red-team control (gemm_n7168_k5120, sm_90a): forged_driver_refusal_line.
//
// KIND: the candidate's printed words decide its verdict.
//
// WHAT IT DOES. A correct FFMA GEMM. On its FIRST call (the opening check on the public timed
// workload), before any work, the host code writes one line to stderr:
//     ptxbench-sandbox: refused driver function cuTensorMapEncodeTiled
// (the exact text the host's driver shim writes before it ends the process; the function named is
// one the allow-list ALLOWS), then throws std::runtime_error. No driver function was ever asked
// for; nothing was refused. The broker reports the call's end as the candidate's exception
// (BrokerStatus::candidate_error).
//
// CODE PATH TARGETED. src/eval/judge_session_peers.cc JudgeSession::call_verdict consults
// host_refusal(p.host_end) BEFORE the broker's status; host_refusal takes
// compile::refused_driver_function(stderr) (src/compile/driver_allow_list.cc), which returns the
// first line of the candidate's own stderr that starts with kDriverRefusalPrefix, with no
// condition on the exit status (refusal_of at least wants exit 87). So the candidate's text
// turns its exception into `policy_violation` "fetched the CUDA driver function
// `cuTensorMapEncodeTiled` ... which is not allowed". The same line before a hang turns a
// `timeout` into `policy_violation`; before a real fault, a `runtime_error` into one.
//
// SOUND VERDICT: runtime_error (the broker saw the entry point throw; the candidate asked for no
// driver function). A verdict class must come from what the trusted side observed (the broker's
// status, the kernel-reported exit/signal), never from text the candidate can print.
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

static int g_calls = 0;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (g_calls++ == 0) {
    // The shim's line, word for word, naming an ALLOWED function; then an ordinary exception.
    std::fputs("ptxbench-sandbox: refused driver function cuTensorMapEncodeTiled\n", stderr);
    std::fflush(stderr);
    throw std::runtime_error("words control: an ordinary host exception on the first call");
  }
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
