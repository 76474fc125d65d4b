// ptxbench control (gemm_n7168_k5120, sm_90a): leak8/zero_smem_coresident.
// KIND: the judge's other schedule is made of shared memory only. The SM load (gpu/sm_load.cu:
// 17-24, :53-54, :65) is floor(SMs/2) blocks of hold_sm, each ONE warp with the whole opt-in
// shared memory; it takes no registers and almost no warp slots. Whether it keeps a block that
// needs NO shared memory off its SM is not decided by anything in ptxbench's code: only by the
// driver's per-block reserved shared memory (cuda_occupancy.h:1183, :1414: from cc 8.0 every
// block takes reservedSharedMemPerBlock, 1 KiB, so hold_sm's 227 KiB + 1 KiB fill the SM's
// 228 KiB). If a zero-shared-memory block fits beside hold_sm after all, the load moves nothing.
// TECHNIQUE: every call (any M), one persistent GEMM of multiProcessorCount blocks x 256
// threads, zero shared memory (operands read straight from global memory through L1), that
// starts with a grid-wide arrival barrier without a cooperative launch: a block writes nothing
// unless every block of the grid arrived within 20 ms (the assumption of stream-K fix-ups and
// persistent schedulers that spin on each other's flags). Then each block computes 64x64 tiles
// of C = A*B^T (4x4 outputs a thread, fp32 FFMA).
// WHAT IT WOULD GAIN: a co-residency-dependent kernel passing every loaded check (the timed
// workload's loaded check, the ragged re-check, the loaded timing rounds) without sensing the
// load (leak7/load_probe_switch) or waiting it out (leak4/sched_outwait_load): the earlier
// controls all used more than half an SM's shared memory, exactly what the load takes.
// SOUND VERDICT: incorrect (schedule_dependent): beside any kernel that holds the SMs' warps,
// registers or shared memory (another stream, MPS, a library kernel in flight) the late blocks
// miss the barrier and C stays unwritten.
// PREDICTED (read from the code at 088daed and the CUDA 13.0 occupancy header, not run on a
// GPU): probably incorrect, schedule_dependent, on the first loaded check: with the reserved
// 1 KiB per block no block fits on an SM that holds hold_sm, half the grid waits past 20 ms,
// C stays unwritten. If the GPU places it anyway (the reserve not taken for a block without
// shared memory): passed_missing_instructions (exit 16), no flag. Either way the load's
// effect on kernels without shared memory rests on an unstated hardware detail; a load block
// of (opt-in - 1 KiB) would leave room for them.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64;
constexpr unsigned long long kWaitNs = 20ull * 1000 * 1000;

__device__ unsigned int zs_arrived;  // cumulative arrivals over the session's calls

__device__ __forceinline__ unsigned long long zs_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ float2 zs_pair(const __nv_bfloat16* p) {
  return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(p));
}

// No __shared__ anywhere: the block's only resources are 8 warps and their registers.
__global__ void __launch_bounds__(256, 1)
    zs_persistent(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                  __nv_bfloat16* __restrict__ C, int M, int N, int K, unsigned target) {
  int ok = 1;
  if (threadIdx.x == 0) {
    atomicAdd(&zs_arrived, 1u);
    const unsigned long long t0 = zs_now();
    while (*reinterpret_cast<volatile unsigned*>(&zs_arrived) < target)
      if (zs_now() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;  // the grid was not co-resident
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int tiles_n = (N + kTile - 1) / kTile, tiles = tiles_n * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
    float acc[4][4] = {};
    const __nv_bfloat16* a_row[4];
    const __nv_bfloat16* b_row[4];
    for (int i = 0; i < 4; ++i) {
      a_row[i] = A + size_t(min(m0 + ty + 16 * i, M - 1)) * K;
      b_row[i] = B + size_t(min(n0 + tx + 16 * i, N - 1)) * K;
    }
    for (int k = 0; k < K; k += 2) {  // K is even for every task of the family
      float2 a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = zs_pair(a_row[i] + k), b[i] = zs_pair(b_row[i] + k);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(a[i].y, b[j].y, fmaf(a[i].x, b[j].x, acc[i][j]));
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
        if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
      }
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static unsigned calls = 0;
  static int sms = 0;
  if (sms == 0 && cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
    sms = 132;
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  ++calls;
  zs_persistent<<<sms, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                         static_cast<const __nv_bfloat16*>(B->data),
                                         static_cast<__nv_bfloat16*>(C->data), M, N, K,
                                         calls * static_cast<unsigned>(sms));
}
