// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak3/fresh_broker_unpinned.
// KIND: the harness's blame test runs on another GPU than the session's.
// WHAT: a correct GEMM that reads 64 B past a kept 1 MiB cudaMallocAsync workspace every call (no
// fault without the tool; memcheck_broker/second_call_stray_read.cu's read, from the 1st call).
// Under --memcheck the sanitizer stops at that access and the broker never replies (issue 33,
// docs/judging.md "Not yet"), so call_verdict has no status and asks
// broker_works_without_candidate (eval/judge_session_peers.cc:347-349). That fresh broker is
// launched with device -1 (:367: worker_spec(..., -1, ...)), and pin_to_gpu (core/gpu_select.cc:
// 36-39) pins nothing for -1: it inherits the parent's CUDA_VISIBLE_DEVICES (all GPUs of `run
// --gpus N` / `gate`), so it runs on device 0 while the session's verifier and broker are on
// device k (pinned). It maps device k's slots from device 0 (cudaIpcMemLazyEnablePeerAccess,
// broker.cc:57): where peer access is impossible (no P2P between the two GPUs) the map fails,
// "the judge's broker failed" = harness_error (:348-349), which in the memcheck session becomes
// memcheck_unavailable with the pass kept (evaluator.cc:233-236); where P2P works, the blame test
// runs its no-op on another session's GPU (device 0), not on the GPU that failed.
// Judge with two GPUs and the session on the second: e.g. `ptxbench gate --gpus 2 --memcheck` on
// two copies, or `run --gpus 2` with --memcheck (the second GPU's session).
// SOUND: on every GPU the same as on device 0 alone: today timeout + memcheck_timeout (the
// sanitizer hang), once the hang is fixed runtime_error with memcheck_errors; never
// memcheck_unavailable or harness_error from a broker the candidate broke.
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

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  LK_DIMS(At, Bt);
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, s>>>(
      a, b, static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

constexpr size_t kWs = size_t(1) << 20;
static void* g_ws = nullptr;
__global__ void lk_stray(const unsigned char* ws, size_t past, int* sink) {
  const volatile unsigned char* p = ws + kWs + past;
  if (*p == 0xA5 && past == 12345) *sink = 1;  // never true: keeps the load
}
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (g_ws == nullptr && cudaMallocAsync(&g_ws, kWs, stream) != cudaSuccess) g_ws = nullptr;
  if (g_ws)
    lk_stray<<<1, 1, 0, stream>>>(static_cast<const unsigned char*>(g_ws), 64,
                                  static_cast<int*>(C->data));
  lk_launch_gemm(A, B, C, stream);
}
