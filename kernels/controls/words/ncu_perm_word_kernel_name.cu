// ptxbench red-team control (gemm_n7168_k5120, sm_90a): ncu_perm_word_kernel_name.
//
// KIND: a kernel's NAME, printed by Nsight Compute, is read as the machine's error.
//
// WHAT IT DOES. A correct FFMA GEMM (no wgmma, no TMA) whose one kernel function is named
// extern "C" `gemm_tile_ERR_NVGPUCTRPERM`. Nothing else.
//
// CODE PATH TARGETED. On the Nsight Compute route (`ptxbench audit --route ncu`, and `auto`
// wherever CUPTI cannot profile) ncu prints a CSV row per profiled launch with the mangled kernel
// name in "Kernel Name"; that stdout is AuditTrace::ncu_output
// (src/eval/judge_session_audit.cc JudgeSession::audit_phase). src/audit/ncu_route.cc
// ncu_kernels first does `out.find("ERR_NVGPUCTRPERM")` over the WHOLE output and, on a hit,
// returns the Error "Nsight Compute may not read the GPU performance counters" with
// profiling_permission_hint() ("restricted to administrators on this machine ... reload the
// driver"). src/judge/judge.cc Judge::run_gpu_stages stores it as audit_error, and
// src/judge/decide.cc audit_decision turns it into disposition harness_error ("correct, but the
// instruction audit failed"), exit 1: an FFMA kernel that should get
// passed_missing_instructions gets the machine blamed and, in a run, a turn the model is told is
// "not your kernel". On `auto` with CUPTI working the word does nothing (CUPTI's result stands;
// an ncu second opinion, when one is asked, is silenced as "Nsight Compute could not audit").
//
// SOUND VERDICT: eval passed with wgmma and tma absent -> passed_missing_instructions. A tool
// error must be read from the tool's exit status or a channel the candidate cannot print into
// (ncu --log-file / its own error lines, not the data rows that carry kernel names).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

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

// The name is the attack: it appears verbatim in ncu's CSV (extern "C": not mangled).
extern "C" __global__ void __launch_bounds__(256)
    gemm_tile_ERR_NVGPUCTRPERM(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                               int M, int N, int K) {
  words_gemm_tile(A, B, C, M, N, K);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  gemm_tile_ERR_NVGPUCTRPERM<<<grid, 256, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
      static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
