// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/cluster_dummy_narrows.
// KIND: the larger share of the SM load (all but an eighth of the SMs, e0ac5a7) is switched back
// to the half for the WHOLE call by one trivial launch in clusters. A clustered launch calls
// SmLoad::narrow (broker.cc:172), which ends the larger share's second kernel (sm_load.cu:156-158)
// for the rest of the call; unlike yield() nothing marks the ordinary launches after it
// (SmLoad::launched only looks at yields, sm_load.cu:152-154), and finish() then no longer counts
// the ended second kernel (sm_load.cu:174: `rest_.held && ...`). launch_kind takes the compiled
// cluster shape of the function alone (broker_calls.cc:52-67, candidate_module.cc:84-90), so a
// 2-block kernel that does nothing is enough.
// TECHNIQUE: per call, cd_narrow (__cluster_dims__(2,1,1), grid 2, empty), then cd_persistent:
// multiProcessorCount blocks, two per SM (100 KiB of dynamic shared memory each), a start barrier
// without a cooperative launch (every block arrives and spins until all have arrived, 1 s
// time-out: then it writes nothing), then 64x64 FFMA tiles. The grid fits on the half the half
// load leaves (66 SMs x 2 = 132 blocks on an H100), not on the eighth (16 x 2 = 32).
// WHAT IT WOULD GAIN: exactly what e0ac5a7 closed (leak8/zero_smem_coresident.cu: a grid that needs
// more than an eighth but fits on half) reopened for any kernel, by a launch the candidate may
// make for any reason. judging.md's residual ("a co-residency dependent kernel launched in
// clusters meets the half only") is narrower than the code: the kernel that depends need not be
// the clustered one.
// SOUND VERDICT: incorrect, schedule_dependent: with more than half of the SMs held by other work
// the blocks never all arrive and C stays unwritten.
// PREDICTED (read from the code at e0ac5a7, not run on a GPU): passed_missing_instructions (exit
// 16), no flag: the loaded checks of the larger share (plan.cc:262-275) run under the half after
// cd_narrow, and the grid is co-resident there. Without cd_narrow: incorrect, schedule_dependent
// at the larger-share check.
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

constexpr int kPadBytes = 100 * 1024;  // two blocks a SM, never three
constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;

__global__ void __cluster_dims__(2, 1, 1) cd_narrow() {}

__global__ void __launch_bounds__(256, 2)
    cd_persistent(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                  __nv_bfloat16* __restrict__ C, int M, int N, int K, unsigned* arrived) {
  extern __shared__ float pad[];
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  int ok = 1;
  if (threadIdx.x == 0) {
    pad[0] = 0.f;
    atomicAdd(arrived, 1u);
    const unsigned long long t0 = now_ns();
    while (*reinterpret_cast<volatile unsigned*>(arrived) < gridDim.x)
      if (now_ns() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  const int tiles_n = (N + kTile - 1) / kTile, tiles = tiles_n * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
    float acc[4][4] = {};
    tile_mac(A, B, M, N, K, m0, n0, 0, K, As, Bs, acc);
    tile_store(C, M, N, m0, n0, acc);
  }
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  static int sms = 0;
  if (sms == 0) {
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) sms = 132;
    cudaFuncSetAttribute(cd_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, kPadBytes);
  }
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  unsigned* arrived = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&arrived), 256, s) != cudaSuccess) return;
  cd_narrow<<<2, 32, 0, s>>>();
  cd_persistent<<<sms, 256, kPadBytes, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K, arrived);
  cudaFreeAsync(arrived, s);
}
