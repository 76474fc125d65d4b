// ptxbench control (gemm_n7168_k5120, sm_90a): leak9/coop_switches_load_off.
// KIND: the SM load is opt-out. Since 09e59c5 a cooperative launch ends the load before it is
// enqueued (broker.cc:173 on_cooperative_launch -> sm_load.cu SmLoad::yield -> release), and a
// call whose launches were ALL cooperative is excused from the outlasted rule
// (judge_session.cc:190-191 `!rec.cooperative`). Nothing checks that the grid needs co-residency
// (grid.sync or any inter-block wait): one launch attribute switches the other schedule off.
// TECHNIQUE: split-K GEMM, grid = 2 x SMs blocks (2 a SM by __launch_bounds__ and 100 KiB of
// dynamic shared memory each), block b and b + SMs share a run of 64x64 tiles: the upper block
// computes the upper half of K into a workspace partial and moves on (no fence, no flag); the
// lower block computes its half, then waits four times its own half's time by %globaltimer and adds
// whatever the partial holds. On an idle GPU all 2 x SMs blocks start together and the partner
// is always done; under the load only SMs blocks fit (the lower ones, launched first), their
// partners start only when they end, and C takes the previous call's partial: the load exists
// to catch exactly this. Every launch carries cudaLaunchAttributeCooperative = 1 (the grid fits:
// 2 a SM), so the loaded check and the loaded timing round run on an idle GPU.
// WHAT IT GAINS: a pass for a data race (a clock in place of a flag) that the load would fail.
// SOUND VERDICT: incorrect (schedule_dependent): a neighbour on any partner's SM (another
// stream, MPS, a late block of a previous kernel) makes the lower block read a stale partial.
// PREDICTED (READ from 332a197, not run): passed_missing_instructions (exit 16), no flag. The
// load ends at the first launch (broker_calls.cc:336), the grid then runs unloaded exactly as
// its unloaded checks did; finish() says outlasted (sm_load.cu:110-113) but
// judge_session.cc:191 clears it for an all-cooperative call.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64, kSlice = 16, kPadBytes = 100 * 1024;

__device__ __forceinline__ unsigned long long cs_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// acc += A[m0.., k_lo..k_hi) * B[n0.., k_lo..k_hi)^T for one 64x64 tile, 4x4 values a thread.
__device__ void cs_half(const __nv_bfloat16* A, const __nv_bfloat16* B, int M, int N, int K,
                        int m0, int n0, int k_lo, int k_hi, float (&acc)[4][4]) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = k_lo; k0 < k_hi; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
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

__global__ void __launch_bounds__(256, 2)
    cs_split(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
             float* partial, int pairs) {
  extern __shared__ unsigned char pad[];  // 2 blocks a SM, no more
  const bool upper = blockIdx.x >= unsigned(pairs);
  const int pair = blockIdx.x % pairs, nb = (N + kTile - 1) / kTile;
  const int tiles = nb * ((M + kTile - 1) / kTile), half = (K / 2) / kSlice * kSlice;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  if (threadIdx.x == 0) pad[0] = 0;
  for (int t = pair; t < tiles; t += pairs) {
    const int m0 = (t / nb) * kTile, n0 = (t % nb) * kTile;
    float acc[4][4] = {};
    float* buf = partial + size_t(t) * kTile * kTile;
    if (upper) {
      cs_half(A, B, M, N, K, m0, n0, half, K, acc);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) buf[(ty + 16 * i) * kTile + tx + 16 * j] = acc[i][j];
      continue;  // no fence, no flag
    }
    const unsigned long long t0 = cs_now();
    cs_half(A, B, M, N, K, m0, n0, 0, half, acc);
    const unsigned long long took = cs_now() - t0;
    while (cs_now() - t0 < 4 * took) {
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
        const float up = reinterpret_cast<volatile float*>(buf)[(ty + 16 * i) * kTile + tx + 16 * j];
        if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j] + up);
      }
  }
}

static float* g_partial = nullptr;
static size_t g_tiles = 0;

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const size_t tiles = size_t((M + kTile - 1) / kTile) * ((N + kTile - 1) / kTile);
  if (tiles > g_tiles) {
    if (g_partial) cudaFreeAsync(g_partial, s);
    g_partial = nullptr;
    g_tiles = 0;
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_partial), tiles * kTile * kTile * 4, s) ==
        cudaSuccess)
      g_tiles = tiles;
  }
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaFuncSetAttribute(cs_split, cudaFuncAttributeMaxDynamicSharedMemorySize, kPadBytes);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2 * sms);
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = kPadBytes;
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;  // no grid.sync anywhere: only to end the SM load
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, cs_split, static_cast<const __nv_bfloat16*>(At->data),
                     static_cast<const __nv_bfloat16*>(Bt->data),
                     static_cast<__nv_bfloat16*>(Ct->data), M, N, K, g_partial, sms);
}
