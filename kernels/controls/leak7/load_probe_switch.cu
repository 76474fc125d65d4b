// ptxbench control (gemm_n7168_k5120, sm_90a): leak7/load_probe_switch.
// KIND: the judge's "other schedule" has one fixed, cheaply recognisable shape. Under the SM load
// exactly floor(SMs/2) blocks of the broker's hold_sm, each with the whole opt-in shared memory
// (sm_load.cu:52-53, :65), sit on as many SMs from before the candidate's first launch; nothing
// else ever shares the GPU with a call. A probe of SMs - floor(SMs/2) + 1 blocks that each need
// more than half an SM's shared memory starts all at once on an idle GPU, but its last block
// waits for a free SM under the load: the spread of the blocks' start times tells (~30 us).
// TECHNIQUE: every call (any M): the probe, then the schedule-dependent persistent GEMM of
// fresh/unsafe_on_new_rows.cu (one block per SM; a block writes nothing unless all
// multiProcessorCount blocks are resident within 20 ms) when the probe saw an idle GPU, the
// tiled FFMA GEMM when it saw the load. Both are launched every call; each returns at once on
// the other verdict, so neither waits for the load.
// WHAT IT GAINS: the unsafe path everywhere the judge does not look with the load, i.e. on every
// unloaded call (checks, timing, hidden workloads, audits); the loaded checks (plan.cc:246, the
// loaded timing rounds, and the ragged re-check, plan.cc:253-255) get the safe one. Stands for
// any kernel that is right only on an idle GPU (a persistent or stream-K kernel assuming
// co-residency, a spin-wait hand-off).
// SOUND VERDICT: incorrect (schedule_dependent): beside any other work on the GPU (another
// stream, MPS, a second process) the persistent path leaves C unwritten.
// PREDICTED (read from the code at bc0ad01, no GPU): passed_missing_instructions (exit 16), no
// flag. Unlike fresh/unsafe_on_new_rows (hole false: the loaded timing rounds catch a kernel
// that switches by content) the switch here is the schedule itself, so a loaded call never runs
// the unsafe path and no loaded call outlasts its load (the probe and the early exits cost
// ~50 us; the safe GEMM on half the SMs ends well inside 100 ms + 4x its unloaded time).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (fresh/unsafe_on_new_rows.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile, n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
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

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  lk_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

typedef unsigned long long u64;
__device__ unsigned int g_loaded;        // the probe's verdict for this call
__device__ u64 g_first, g_last;          // the probe blocks' earliest and latest start
__device__ __forceinline__ u64 lk_now() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void lk_probe_reset() {
  g_first = ~0ull;
  g_last = 0;
}
// Needs more than half an SM's shared memory: one block per SM. Holds its SM for ~30 us.
__global__ void lk_probe() {
  extern __shared__ unsigned char lk_pad[];
  if (threadIdx.x) return;
  const u64 t0 = lk_now();
  lk_pad[0] = 0;
  atomicMin(&g_first, t0);
  atomicMax(&g_last, t0);
  while (lk_now() - t0 < 30000) {
  }
}
__global__ void lk_probe_verdict() { g_loaded = (g_last - g_first) > 15000 ? 1u : 0u; }

__global__ void __launch_bounds__(256) lk_gemm_if_loaded(const __nv_bfloat16* A,
                                                         const __nv_bfloat16* B, __nv_bfloat16* C,
                                                         int M, int N, int K) {
  if (!g_loaded) return;
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
// The schedule-dependent GEMM (fresh/unsafe_on_new_rows.cu lk_coresident), on idle GPUs only.
__global__ void __launch_bounds__(256) lk_coresident(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                     __nv_bfloat16* C, int M, int N, int K,
                                                     unsigned int* arrive) {
  extern __shared__ unsigned char lk_reserve[];
  __shared__ int go;
  if (g_loaded) return;
  if (threadIdx.x == 0) {
    lk_reserve[0] = 0;
    atomicAdd(arrive, 1u);
    const u64 t0 = lk_now();
    go = 0;
    do {
      if (atomicAdd(arrive, 0u) >= gridDim.x) {
        go = 1;
        break;
      }
    } while (lk_now() - t0 < 20000000ull);
  }
  __syncthreads();
  if (!go) return;  // not all blocks resident: the kernel's (wrong) assumption
  const int nb = (N + kTile - 1) / kTile, tiles = nb * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) naive_tile(A, B, C, M, N, K, t / nb, t % nb);
}

constexpr int kReserve = 150 * 1024, kProbeShared = 120 * 1024;
static unsigned int* g_arrive = nullptr;
static int g_sms = 0;

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  if (g_sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(lk_coresident, cudaFuncAttributeMaxDynamicSharedMemorySize, kReserve);
    cudaFuncSetAttribute(lk_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, kProbeShared);
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_arrive), 256, s) != cudaSuccess)
      g_arrive = nullptr;
  }
  if (!g_arrive || g_sms < 2) return lk_launch_gemm(At, Bt, Ct, s);
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const auto* a = static_cast<const __nv_bfloat16*>(At->data);
  const auto* b = static_cast<const __nv_bfloat16*>(Bt->data);
  auto* c = static_cast<__nv_bfloat16*>(Ct->data);
  lk_probe_reset<<<1, 1, 0, s>>>();
  lk_probe<<<g_sms - g_sms / 2 + 1, 32, kProbeShared, s>>>();
  lk_probe_verdict<<<1, 1, 0, s>>>();
  cudaMemsetAsync(g_arrive, 0, sizeof(unsigned int), s);
  lk_coresident<<<g_sms, 256, kReserve, s>>>(a, b, c, M, N, K, g_arrive);
  lk_gemm_if_loaded<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, s>>>(
      a, b, c, M, N, K);
}
