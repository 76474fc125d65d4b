// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/coop_tail_releases_load.
// KIND: a grid that needs every one of its blocks resident at once, launched WITHOUT a cooperative
// grid, passes every loaded check because one trivial cooperative launch is queued right after it.
// The broker's hook runs when a launch is ENQUEUED on the host (broker_calls.cc:364-367, inside
// flush(), :307-314, which enqueues the whole call's work in one loop at call_done, :183), not when
// the GPU reaches it; a cooperative launch calls SmLoad::yield (broker.cc:171), which releases the
// load and waits for its kernel to end (sm_load.cu:146-150 -> release -> Part::end). So the
// ordinary kernel enqueued a microsecond earlier meets the load only for the microseconds the
// release takes, then runs on an idle GPU. finish() says nothing (sm_load.cu:160-165: a yield with
// no ordinary launch AFTER it is no outlast), and rec.cooperative is false (broker_calls.cc:366),
// so nothing is excused either: the call simply counts as loaded (judge_session.cc:188-190).
// docs/judging.md ("ordinary kernels before the cooperative one ran under the load") reads the
// order of enqueueing as the order on the GPU.
// TECHNIQUE: per call, a fresh zeroed counter (cudaMallocAsync; the broker zeroes it), then
// ct_persistent: one block per SM (120 KiB of dynamic shared memory), each block arrives and
// spins until all multiProcessorCount blocks have arrived (1 s time-out: then it writes nothing),
// then computes its share of 64x64 tiles by FFMA; then ct_release, one 32-thread block launched
// with cudaLaunchAttributeCooperative = 1 that does nothing; nothing synchronous in between.
// WHAT IT WOULD GAIN: a co-residency-dependent persistent kernel (stream-K fix-ups, software grid
// barriers) passes the loaded checks and loaded timing rounds, half or all-but-an-eighth share
// alike, with its unsafe path on every call: no sensing (leak7/load_probe_switch), no waiting
// (leak4/sched_outwait_load), no cooperative launch of the unsafe grid
// (leak9/coop_switches_load_off). SOUND VERDICT: incorrect, schedule_dependent: beside any other
// work holding SMs (another stream, MPS, a second process) the blocks never all arrive and C stays
// unwritten. PREDICTED (read from the code at e0ac5a7, not run on a GPU):
// passed_missing_instructions (exit 16), no flag. Without ct_release (or with a synchronous request
// between the two launches, which flushes ct_persistent first and lets it run under the load) the
// loaded checks fail it.
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

constexpr int kPadBytes = 120 * 1024;  // more than half an SM: one block per SM
constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;

__global__ void __launch_bounds__(256, 1)
    ct_persistent(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
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
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;  // not all resident: write nothing
  const int tiles_n = (N + kTile - 1) / kTile, tiles = tiles_n * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
    float acc[4][4] = {};
    tile_mac(A, B, M, N, K, m0, n0, 0, K, As, Bs, acc);
    tile_store(C, M, N, m0, n0, acc);
  }
}

__global__ void ct_release() {}  // launched cooperatively: the broker then ends its load

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  static int sms = 0;
  if (sms == 0) {
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) sms = 132;
    cudaFuncSetAttribute(ct_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, kPadBytes);
  }
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  unsigned* arrived = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&arrived), 256, s) != cudaSuccess) return;
  ct_persistent<<<sms, 256, kPadBytes, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K, arrived);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(32);
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, ct_release);
  cudaFreeAsync(arrived, s);
}
