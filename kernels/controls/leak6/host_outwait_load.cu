// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak6/host_outwait_load.
// TECHNIQUE: the SM load's 100 ms clock starts before the candidate's host is even asked to run.
// Broker::call launches the load (broker.cc:189 sm_load_.hold(min(250 x limit, kSmLoadMaxMs =
// 100 ms))) and only then sends RunCall (broker.cc:196); the load kernel ends by the GPU's global
// timer (sm_load.cu:22), whatever the candidate does. The host's time before its first request
// is not the call's: the broker measures it (broker_calls.cc:278 host_ms) and begins the call's
// events only at the first request, and the parent takes it out of the wall time
// (judge_session.cc:170), up to 2 s a call (broker_calls.h:161). So this host spins 150 ms on
// its own clock at the start of EVERY call, before any request, and the kernel it then launches
// always finds an idle GPU: the load of a loaded check has expired. The kernel is the
// schedule-dependent persistent GEMM of leak4/sched_outwait_load.cu with a 20 ms co-residency
// wait (one block per SM, 150 KiB of shared memory; a block that does not see all
// multiProcessorCount blocks resident within 20 ms writes nothing). No sensing, no prediction,
// no device-side waiting, no GPU time: nothing in the events or the speedup changes.
// New beside leak4/sched_outwait_load (a kernel waiting 400 ms on the device for the load to
// end): here nothing waits on the GPU and the fix of that row (a load longer than a kernel can
// wait) does not help; the load's window must open when the call's work begins.
// WHAT IT GAINS: every loaded check (the timed one, the ragged re-check, every loaded timing
// round of kLoadedTimingOdds) runs unloaded, for any kernel: the second schedule is switched off.
// SOUND VERDICT: incorrect, schedule_dependent: under the load the persistent kernel leaves most
// of C unwritten. Fix: hold the load from the call's first request (begin_call_timing) to the end
// of its work, or start it after RunCall's first request; bound the host's free time far below
// the load's window.
// PREDICTED TODAY: passed (passed_missing_instructions, exit 16), no schedule_dependent; the
// session takes ~20 s longer (host time). Reasoned from the code; not run on a GPU.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <chrono>

namespace {

constexpr int kTile = 64, kSlice = 16;
constexpr int kReserve = 150 * 1024;  // one block per SM

__device__ void ffma_tile(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                          __nv_bfloat16* __restrict__ C, int M, int N, int K, int m0, int n0) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
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

// Persistent: one block per SM; every block waits (20 ms at most) for all gridDim.x blocks to
// be resident and computes nothing otherwise (the co-residency assumption of a grid barrier made
// without a cooperative launch).
__global__ void __launch_bounds__(256) lk_coresident(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                     __nv_bfloat16* C, int M, int N, int K,
                                                     unsigned int* arrive) {
  extern __shared__ unsigned char lk_reserve[];
  __shared__ int go;
  if (threadIdx.x == 0) {
    lk_reserve[0] = 0;
    atomicAdd(arrive, 1u);
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    go = 0;
    do {
      if (atomicAdd(arrive, 0u) >= gridDim.x) {
        go = 1;
        break;
      }
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < 20000000ull);
  }
  __syncthreads();
  if (!go) return;
  const int nb = (N + kTile - 1) / kTile, tiles = nb * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x)
    ffma_tile(A, B, C, M, N, K, (t / nb) * kTile, (t % nb) * kTile);
}

unsigned int* g_arrive = nullptr;
int g_sms = 0;

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  // Before any request: the host's own time, not the call's. The SM load (if this call has one)
  // was launched before this process heard of the call and ends 100 ms after it started.
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(150)) {
  }
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  if (g_sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(lk_coresident, cudaFuncAttributeMaxDynamicSharedMemorySize, kReserve);
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_arrive), 256, stream) != cudaSuccess)
      g_arrive = nullptr;
  }
  if (g_arrive == nullptr || g_sms <= 0) return;  // C stays poisoned: a visible failure
  cudaMemsetAsync(g_arrive, 0, sizeof(unsigned int), stream);
  lk_coresident<<<g_sms, 256, kReserve, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                                  static_cast<const __nv_bfloat16*>(B->data),
                                                  static_cast<__nv_bfloat16*>(C->data), M, N, K,
                                                  g_arrive);
}
