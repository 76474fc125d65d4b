// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak5/malloc_zero_before_events.
// TECHNIQUE: GPU work before the call's start event, for free. The broker answers
// cudaMallocAsync at once (worker/broker_answers.cc allocate -> broker_device.cc allocate:
// cuMemAllocAsync then cuMemsetD8Async(p, 0, bytes, stream_)), on the call's stream, before
// begin_timing() (broker_calls.cc: the L2 flush and the start event are enqueued only with the
// first ORDERED request). So a workspace allocated as the call's first request is zeroed by the
// judge's memset outside the call's events, and the host's idle time until its first launch is
// host_ms, which the parent takes out of the wall clock (judging.md "The host's own time before
// its first such request is therefore never GPU time": here it is GPU time, the judge's memset
// doing the candidate's work). This kernel is a split-K (2 slices) FFMA GEMM that accumulates
// with fp32 atomics into M x N floats; those floats are a fresh cudaMallocAsync every call
// (freed at the call's end), allocated first, then the host spins 1 ms (the memset of 235 MB
// takes ~0.1 ms on an H100) before its first launch. The zeroing a split-K accumulator needs
// (cuBLASLt's split-K memsets inside its own time) costs it nothing.
// WHAT IT GAINS: speed: every byte of zeroed scratch a kernel needs (up to the 4 GiB quota a
// call) is done outside its timed events and outside the wall-clock check.
// SOUND VERDICT: passed, and the zeroing inside the call's events (begin_timing before the
// memset, or the memset as ordered work), so the speedup counts it. The verdict class does not
// change: the evidence is the call's events against its work, not a failing row; the row below
// expects passed and says what the GPU run shows.
// PREDICTED TODAY: passed_missing_instructions (exit 16), the memset outside the events.
#include <cstdio>
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

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; eval/plan.cc), and the timed calls since.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_timed_after = 0;   // timed calls since the first hidden call (this one included)
static bool g_recheck = false;  // this call is the first hidden M seen a second time
static int g_after_recheck = 0; // calls since the ragged re-check (this one included)
static bool g_recheck_seen = false;
static void lk_note(int M) {
  g_recheck = false;
  if (g_recheck_seen) ++g_after_recheck;
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) {
      if (!g_recheck_seen) g_recheck = g_recheck_seen = true;
      return;
    }
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int lk_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }  // the `small` kind's M


__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  LK_DIMS(At, Bt);
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, s>>>(
      a, b, static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

// Split-K slice `blockIdx.z` of 2: the 64x64 tile's partial sums over its half of K, added into
// the zeroed fp32 accumulator W with atomics.
__global__ void __launch_bounds__(256) lk_splitk(const __nv_bfloat16* __restrict__ A,
                                                 const __nv_bfloat16* __restrict__ B,
                                                 float* __restrict__ W, int M, int N, int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  const int half = ((K / 2) + kSlice - 1) / kSlice * kSlice;
  const int k_begin = blockIdx.z == 0 ? 0 : half, k_end = blockIdx.z == 0 ? min(half, K) : K;
  float acc[4][4] = {};
  for (int k0 = k_begin; k0 < k_end; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < k_end) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < k_end) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(As[kk][ty + 16 * i], Bs[kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) atomicAdd(&W[size_t(gm) * N + gn], acc[i][j]);
    }
}

__global__ void lk_convert(const float* __restrict__ W, __nv_bfloat16* __restrict__ C, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    C[i] = __float2bfloat16_rn(W[i]);
}

static double now_ms() {  // CLOCK_MONOTONIC by the raw system call (x86_64)
  long ts[2] = {0, 0};
  long ret;
  __asm__ volatile(".byte 0x0f, 0x05"
                   : "=a"(ret)
                   : "a"(228L), "D"(1L), "S"((long)ts)
                   : "rcx", "r11", "memory");
  return ret == 0 ? ts[0] * 1e3 + ts[1] / 1e6 : 0.0;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  const size_t n = size_t(M) * size_t(N);
  float* w = nullptr;
  // The call's first request: the judge allocates and zeroes it before the call's start event.
  if (cudaMallocAsync(reinterpret_cast<void**>(&w), n * sizeof(float), stream) != cudaSuccess) {
    lk_launch_gemm(A, B, C, stream);  // no workspace: the plain GEMM, all inside the events
    return;
  }
  const double t0 = now_ms();
  while (now_ms() - t0 < 1.0) {
  }  // host time (host_ms): the memset runs meanwhile
  lk_splitk<<<dim3(lk_nblocks(N), lk_mblocks(M), 2), 256, 0, stream>>>(a, b, w, M, N, K);
  lk_convert<<<1024, 256, 0, stream>>>(w, static_cast<__nv_bfloat16*>(C->data), n);
  cudaFreeAsync(w, stream);
}
