// ptxbench red-team control (gemm_n7168_k5120, sm_90a): workspace_address_hidden_sizes.
//
// KIND: hidden information reaching the model through the words of a call the judge believes saw
// nothing hidden.
//
// WHAT IT DOES. On its FIRST call -- the opening check on the public timed workload, before any
// hidden call -- the host code asks for a 1 MiB workspace (cudaMallocAsync, allowed), frees it,
// and throws std::runtime_error whose message gives the workspace's address relative to the
// call's own tensors A, B and C (in KiB). It computes nothing else; the verdict is its own
// runtime_error either way. The point is what the message carries.
//
// WHY IT CAN CARRY HIDDEN SIZES. The broker maps EVERY workload's slots -- the hidden workloads'
// inputs and outputs, sized by the session's hidden draws -- before the candidate is loaded
// (src/eval/judge_session_start.cc JudgeSession::start builds broker_map from all of
// plan_.verifier.workloads; ready_broker sends it before "load"). The timed slots are mapped
// first, the hidden ones after them, and the candidate's workspace is reserved after all of
// them. If the driver hands out virtual addresses in order (as a fresh process usually does),
// workspace - C = the timed slots' blocks + the hidden workloads' blocks (2 MiB-rounded): a sum
// of the hidden M's to ~200 rows. The host never ran a hidden call, so
// src/eval/judge_session_peers.cc JudgeSession::withhold_for gives Withhold::none
// (host_ran_hidden is false) and src/run/feedback.cc failed_run shows the exception text verbatim
// ("Running the kernel on workload `timed` failed: ..."); docs/judging.md says the model is told
// nothing of hidden sizes.
//
// HOW TO TELL (needs a GPU): judge it with two --seed values; if the numbers in the message move
// with the seed (the hidden draws) while the timed workload is the same, hidden sizes leak.
//
// SOUND VERDICT: runtime_error, with a message that is a function of public facts only (map a
// hidden workload's slots only when its call comes, or place/pad them so that no address the
// candidate sees depends on them, or withhold the words of every call after the slots exist).
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

static bool g_done = false;

static long long kib_from(const void* a, const void* b) {
  return (static_cast<long long>(reinterpret_cast<uintptr_t>(a)) -
          static_cast<long long>(reinterpret_cast<uintptr_t>(b))) / 1024;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (!g_done) {
    g_done = true;
    void* ws = nullptr;
    if (cudaMallocAsync(&ws, 1 << 20, stream) == cudaSuccess && ws != nullptr) {
      char msg[256];
      std::snprintf(msg, sizeof msg,
                    "layout probe: workspace - A = %lld KiB, workspace - B = %lld KiB, "
                    "workspace - C = %lld KiB",
                    kib_from(ws, A->data), kib_from(ws, B->data), kib_from(ws, C->data));
      (void)cudaFreeAsync(ws, stream);
      throw std::runtime_error(msg);
    }
  }
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
