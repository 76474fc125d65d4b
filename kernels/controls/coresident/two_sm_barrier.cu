// ptxbench control (gemm_n7168_k5120, sm_90a): coresident/two_sm_barrier.
// KIND: a software grid barrier (no cooperative launch) in a grid small enough to fit on very few
// SMs: co-residency that holds beside any load leaving more than a couple of SMs free. Our own
// control of the kind of leak11/eighth_fit_barrier.cu (sized to the larger share's eighth), with
// another size: two SMs' worth of blocks (8 blocks of 512 threads, 4 an SM).
// TECHNIQUE: as eighth_fit_barrier (the red team's file, reused): ef_partial writes two fp32 K-half
// partials; ef_reduce sums column stripes, waits at a grid barrier on a counter (1 s time-out),
// then converts row stripes it did not sum; only the grid size differs.
// SOUND VERDICT: incorrect, schedule_dependent: only all but one SM busy exposes it (the blocks
// beyond the free SM wait for the load to end, or the barrier times out).
// PREDICTED (read, not run): with branch allbutone, caught when the hidden check drawn for all but
// one SM is fast enough for it (plan_load: 200x its longest call within 1 s); else passed.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64, kSlice = 16;

// One 64x64 tile of C = A * B^T over k in [k_lo, k_hi), 256 threads (4x4 outputs a thread), the
// operands staged through the caller's shared arrays.
__device__ __forceinline__ void tile_mac(const __nv_bfloat16* __restrict__ A,
                                         const __nv_bfloat16* __restrict__ B, int M, int N, int K,
                                         int m0, int n0, int k_lo, int k_hi, float (*As)[kTile + 1],
                                         float (*Bs)[kTile + 1], float acc[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = k_lo; k0 < k_hi; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += 256) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][r] = (m0 + r < M && gk < k_hi) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
      Bs[kk][r] = (n0 + r < N && gk < k_hi) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
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
}

__device__ __forceinline__ void tile_store(__nv_bfloat16* __restrict__ C, int M, int N, int m0,
                                           int n0, const float acc[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;
constexpr int kReduceThreads = 512, kReducePerSm = 4;

__global__ void __launch_bounds__(256)
    ef_partial(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B, int M,
               int N, int K, float* __restrict__ P0, float* __restrict__ P1) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile, upper = blockIdx.z;
  const int half = (K / 2) / kSlice * kSlice;
  float acc[4][4] = {};
  tile_mac(A, B, M, N, K, m0, n0, upper ? half : 0, upper ? K : half, As, Bs, acc);
  float* P = upper ? P1 : P0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) P[size_t(gm) * N + gn] = acc[i][j];
    }
}

__global__ void __launch_bounds__(kReduceThreads, kReducePerSm)
    ef_reduce(const float* __restrict__ P0, const float* __restrict__ P1, float* S,
              __nv_bfloat16* __restrict__ C, int M, int N, unsigned* arrived) {
  const int G = int(gridDim.x), g = int(blockIdx.x);
  const int c0 = int(size_t(N) * g / G), c1 = int(size_t(N) * (g + 1) / G);
  for (int r = 0; r < M; ++r)  // phase 1: a column stripe
    for (int c = c0 + int(threadIdx.x); c < c1; c += kReduceThreads)
      S[size_t(r) * N + c] = P0[size_t(r) * N + c] + P1[size_t(r) * N + c];
  __threadfence();
  __syncthreads();
  int ok = 1;
  if (threadIdx.x == 0) {  // a grid barrier without a cooperative launch
    atomicAdd(arrived, 1u);
    const unsigned long long t0 = now_ns();
    while (*reinterpret_cast<volatile unsigned*>(arrived) < gridDim.x)
      if (now_ns() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
    __threadfence();
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  const int r0 = int(size_t(M) * g / G), r1 = int(size_t(M) * (g + 1) / G);
  for (int r = r0; r < r1; ++r)  // phase 2: a row stripe, summed by every block
    for (int c = int(threadIdx.x); c < N; c += kReduceThreads)
      C[size_t(r) * N + c] = __float2bfloat16_rn(__ldcg(&S[size_t(r) * N + c]));
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  static int sms = 0;
  if (sms == 0 && cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
    sms = 132;
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const size_t n = size_t(M) * N;
  float* ws = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&ws), 3 * n * sizeof(float) + 256, s) != cudaSuccess)
    return;
  float *P0 = ws, *P1 = ws + n, *S = ws + 2 * n;
  unsigned* arrived = reinterpret_cast<unsigned*>(ws + 3 * n);  // zeroed by the allocation
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile, 2);
  ef_partial<<<grid, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(At->data),
                                  static_cast<const __nv_bfloat16*>(Bt->data), M, N, K, P0, P1);
  (void)sms;  // the grid is two SMs' worth whatever the GPU
  ef_reduce<<<2 * kReducePerSm, kReduceThreads, 0, s>>>(
      P0, P1, S, static_cast<__nv_bfloat16*>(Ct->data), M, N, arrived);
  cudaFreeAsync(ws, s);
}
