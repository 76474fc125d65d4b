// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/static_device_array_oom.
// KIND: a candidate-sized GPU allocation outside the workspace quota, whose consequences are
//   blamed on the harness (harness_error / memcheck_unavailable / baseline_failed).
// WHAT: a correct FFMA GEMM plus `__device__ unsigned char lk_ballast[72 GiB]` (zero-initialised,
// .nv.global is NOBITS: the built .so is 58 KB, far under the 128 MiB object limit). The
// driver allocates it in the broker's context when the broker loads the module (EAGER loading,
// every session), beside the verifier's slots: on an 80 GB H100 nothing is left for what the
// trusted side allocates after the load: the verifier's library build (its buffer sets, cuBLASLt
// workspace, the timed plan choice: "on a thread of the verifier's own while the broker starts
// and the checks run", judging.md), CUPTI's SASS-metrics buffers when the audit enables the
// function (instrument.cc cupti_arm/configure_and_enable), compute-sanitizer's shadow memory in
// the memcheck session. Each of those failures is the judge's by the code: a verifier failure is
// harness_error (judge_session.cc:66-78,196-207), an audit error is "correct, but the instruction
// audit failed" = harness_error (judge/decide.cc:60-62; its feedback says "not your kernel:
// resubmit", run/feedback.cc:263-268), a harness_error in the memcheck session only adds
// memcheck_unavailable and keeps the pass (evaluator.cc:233-236). An FFMA kernel that would get
// passed_missing_instructions gets a verdict that blames the benchmark instead.
// The workspace quota (kDefaultWorkspaceQuota, 4 GiB) covers cudaMallocAsync only; nothing in
// src/compile or src/eval/worker/candidate_module.cc bounds a module's static device memory.
// The rest is taken at run time inside the quota: on its first call the host allocates the
// workspace in 256 MiB, then 16 MiB pieces until the broker answers cudaErrorMemoryAllocation
// (the quota's or the device's: the same answer) or 4 GiB are held, and keeps them.
// Sized for an H100 80 GB (nvidia-h100-x1, ~79.6 GiB); on an H200 build with -DLK_BALLAST_GIB=130.
// SOUND: the allocation is the candidate's: refused at compile (static device memory over a
// bound, policy_violation) or counted against the workspace quota at load (runtime_error "could
// not be loaded"); never harness_error, memcheck_unavailable or a lost baseline.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <string.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
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

static int lk_mblocks(int M) { return (M + kTile - 1) / kTile; }
static int lk_nblocks(int N) { return (N + kTile - 1) / kTile; }
#define LK_DIMS(A, B)                                             \
  const int M = int((A)->shape[0]), K = int((A)->shape[1]),     \
            N = int((B)->shape[0]);                              \
  const __nv_bfloat16* a = static_cast<const __nv_bfloat16*>((A)->data); \
  const __nv_bfloat16* b = static_cast<const __nv_bfloat16*>((B)->data)

#ifndef LK_BALLAST_GIB
#define LK_BALLAST_GIB 72
#endif
__device__ unsigned char lk_ballast[(unsigned long long)LK_BALLAST_GIB << 30];

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  if (M < 0) lk_ballast[size_t(K) << 20] = 1;  // never: keeps the ballast referenced
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}

// The top-up: what the device has left after the ballast, up to the 4 GiB quota.
static bool g_topped = false;
static void lk_top_up(cudaStream_t s) {
  if (g_topped) return;
  g_topped = true;
  size_t held = 0;
  for (size_t piece : {size_t(256) << 20, size_t(16) << 20})
    while (held + piece <= (size_t(4) << 30)) {
      void* p = nullptr;
      if (cudaMallocAsync(&p, piece, s) != cudaSuccess) {
        (void)cudaGetLastError();
        break;
      }
      held += piece;
    }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_top_up(stream);
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, stream>>>(
      a, b, static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
