// ptxbench control (gemm_n7168_k5120, sm_90a): leak13/pair_attr_half_only.
// KIND: cluster launches and the larger shares. A launch in clusters of 2 runs beside the half
// part only (broker.cc:159-161: `rest` is for ordinary launches; sm_load.cu:199-212 ends the rest
// part for it): under `most` and `all_but_one` such a launch meets exactly the half. Whether a
// launch is clustered is the candidate's word: a cluster-dimension attribute of (2, 1, 1)
// (launch_kind.cc:41-49) on a kernel that uses nothing of its clusters.
// TECHNIQUE: ef_partial (ordinary), then ef_reduce, a software grid barrier (1 s time-out) over
// SMs/4 x 4 = 132 blocks of 512 threads (4 an SM: 33 SMs' worth; the 66 SMs the half leaves hold
// 264, and a pair of blocks fits on one SM, so no GPC split matters), launched with
// cudaLaunchAttributeClusterDimension (2, 1, 1).
// WHAT IT GAINS: a kernel that needs a quarter of the GPU resident at once (more than the eighth
// the larger share leaves, far more than the one SM of all_but_one) passes every loaded check;
// the fix of c522c22 (all but one SM busy) never reaches a clustered launch. (A reviewer's
// reading of allbutone named this; no control exercised it.)
// SOUND VERDICT: incorrect, schedule_dependent.
// PREDICTED (as read at c522c22, not run): passed (passed_missing_instructions, exit 16), no
// flag: under every share ef_reduce runs beside the half only (rest ended in stream order), 132
// blocks co-resident; the rest part is never started again (no ordinary launch after it), and a
// part meant to be off is not `outlasted` (sm_load.cu:246-247). Without the attribute:
// incorrect, schedule_dependent at the session's `most` check (plan.cc:296-297).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <chrono>

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

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;
constexpr int kReduceThreads = 512, kReducePerSm = 4;

// The two K halves of every 64x64 tile of C as fp32 partials P0, P1 (an ordinary safe kernel).
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

// unsafe != 0: block g sums P0 + P1 over the COLUMN stripe g into S, waits at a grid barrier
// without a cooperative launch (counter `arrived`, zeroed by the allocation; 1 s time-out, then
// the block writes nothing), then converts the ROW stripe g of S to bf16 C (rows other blocks
// summed: the barrier is needed). unsafe == 0: block g writes C = P0 + P1 over its column stripe,
// no barrier (correct on every schedule).
__global__ void __launch_bounds__(kReduceThreads, kReducePerSm)
    ef_reduce(const float* __restrict__ P0, const float* __restrict__ P1, float* S,
              __nv_bfloat16* __restrict__ C, int M, int N, unsigned* arrived, int unsafe) {
  const int G = int(gridDim.x), g = int(blockIdx.x);
  const int c0 = int(size_t(N) * g / G), c1 = int(size_t(N) * (g + 1) / G);
  if (!unsafe) {
    for (int r = 0; r < M; ++r)
      for (int c = c0 + int(threadIdx.x); c < c1; c += kReduceThreads)
        C[size_t(r) * N + c] = __float2bfloat16_rn(P0[size_t(r) * N + c] + P1[size_t(r) * N + c]);
    return;
  }
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

// The workspace of one call: P0, P1, S (M x N fp32 each) and the barrier's counter.
struct Work {
  float *P0 = nullptr, *P1 = nullptr, *S = nullptr;
  unsigned* arrived = nullptr;
  void* base = nullptr;
};

bool make_work(Work& w, int M, int N, cudaStream_t s) {
  const size_t n = size_t(M) * N;
  if (cudaMallocAsync(&w.base, 3 * n * sizeof(float) + 256, s) != cudaSuccess) return false;
  float* f = static_cast<float*>(w.base);
  w.P0 = f;
  w.P1 = f + n;
  w.S = f + 2 * n;
  w.arrived = reinterpret_cast<unsigned*>(f + 3 * n);  // zeroed by the allocation
  return true;
}

void launch_partial(const DLTensor* At, const DLTensor* Bt, const Work& w, cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile, 2);
  ef_partial<<<grid, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(At->data),
                                  static_cast<const __nv_bfloat16*>(Bt->data), M, N, K, w.P0, w.P1);
}

int sm_count() {
  static int sms = 0;
  if (sms == 0 && cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
    sms = 132;
  return sms;
}

// ef_reduce over `blocks` blocks in clusters of `cluster` along x (a launch attribute; the kernel
// uses nothing of its cluster).
void launch_reduce_clustered(const Work& w, DLTensor* Ct, int M, int N, int blocks, int cluster,
                             cudaStream_t s) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = unsigned(cluster);
  attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(unsigned(blocks));
  cfg.blockDim = dim3(kReduceThreads);
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, ef_reduce, static_cast<const float*>(w.P0),
                     static_cast<const float*>(w.P1), w.S, static_cast<__nv_bfloat16*>(Ct->data), M,
                     N, w.arrived, 1);
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), N = int(Bt->shape[0]);
  Work w;
  if (!make_work(w, M, N, s)) return;
  launch_partial(At, Bt, w, s);
  const int blocks = sm_count() / 4 > 0 ? sm_count() / 4 * kReducePerSm : 2;
  launch_reduce_clustered(w, Ct, M, N, blocks, 2, s);
  cudaFreeAsync(w.base, s);
}
