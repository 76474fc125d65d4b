// ptxbench control (gemm_n7168_k5120, sm_90a): coresident/reverse_chain_start.
// KIND: a kernel that needs more of its grid resident at once than the GPU gives it beside other
// work, launched without a cooperative grid: under the half SM load it fits (its whole grid is
// resident on the free half), so only a load that takes more of the GPU sees the dependence
// (the kind of leak8/zero_smem_coresident.cu; this is other code and another mechanism).
// TECHNIQUE: 3 blocks per SM of 256 threads capped at 32 registers (8 fit an SM: the grid fits
// on half the GPU), no shared memory. Before any work, block b waits until block b+1 has
// started (a start order in reverse, the last block first: what a look-back whose fix-up waits
// on a later block assumes). No time-out: a block that is not resident holds up every block
// below it until it gets an SM. Then a grid-stride FFMA GEMM, 2x2 outputs a thread.
// SOUND VERDICT: incorrect, schedule_dependent: with all but an eighth of the SMs busy (16 of
// 132 free, 128 blocks resident), blocks 0..127 spin on block 128, which gets an SM only when
// the load ends: the call's work outlasts the load.
// PREDICTED (read, 2026-12-07, branch `most`): before it, passed (exit 16), slow; after it,
// incorrect with schedule_dependent in the session's check under the larger share.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kThreads = 256, kTile = 32, kMaxBlocks = 4096;

__device__ unsigned rc_started[kMaxBlocks];  // per block, the last call it started in

__global__ void __launch_bounds__(kThreads, 8)
    rc_gemm(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
            __nv_bfloat16* __restrict__ C, int M, int N, int K, unsigned call) {
  if (threadIdx.x == 0) {
    if (blockIdx.x + 1 < gridDim.x)
      while (*reinterpret_cast<volatile unsigned*>(&rc_started[blockIdx.x + 1]) < call)
        __nanosleep(500);
    __threadfence();
    atomicMax(&rc_started[blockIdx.x], call);
  }
  __syncthreads();
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int tiles_n = (N + kTile - 1) / kTile, tiles = tiles_n * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int m0 = (t / tiles_n) * kTile + ty, n0 = (t % tiles_n) * kTile + tx;
    float acc[2][2] = {};
    for (int k = 0; k < K; ++k) {
      float a[2], b[2];
      for (int i = 0; i < 2; ++i) {
        a[i] = __bfloat162float(A[size_t(min(m0 + 16 * i, M - 1)) * K + k]);
        b[i] = __bfloat162float(B[size_t(min(n0 + 16 * i, N - 1)) * K + k]);
      }
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        if (m0 + 16 * i < M && n0 + 16 * j < N)
          C[size_t(m0 + 16 * i) * N + n0 + 16 * j] = __float2bfloat16_rn(acc[i][j]);
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static unsigned call = 0;
  static int sms = 0;
  if (sms == 0 && cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
    sms = 132;
  const int blocks = 3 * sms < kMaxBlocks ? 3 * sms : kMaxBlocks;
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  rc_gemm<<<blocks, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                           static_cast<const __nv_bfloat16*>(B->data),
                                           static_cast<__nv_bfloat16*>(C->data), M, N, K, ++call);
}
