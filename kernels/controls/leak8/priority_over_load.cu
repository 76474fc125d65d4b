// ptxbench control (gemm_n7168_k5120, sm_90a): leak8/priority_over_load.
// KIND: the broker lets a launch set its priority (broker_calls.cc:41 CU_LAUNCH_ATTRIBUTE_
// PRIORITY), and its SM load runs on a stream of the default, LOWEST priority
// (gpu/sm_load.cu:48 cudaStreamCreateWithFlags, no priority). CUDA documents that "work in a
// higher priority stream may preempt work already executing in a low priority stream"
// (cudaStreamCreateWithPriority). If the hardware does so for running blocks, a kernel launched
// at the greatest priority displaces hold_sm and meets an idle GPU under the load.
// TECHNIQUE: every call, the schedule-dependent persistent GEMM (one block per SM: 150 KiB of
// dynamic shared memory each; a block writes nothing unless all multiProcessorCount blocks
// arrived within 20 ms, fresh/unsafe_on_new_rows' lk_coresident) launched with
// cudaLaunchKernelEx and cudaLaunchAttributePriority = -5 (GH100's greatest priority; the
// driver clamps a value out of range). Tiles of C = A*B^T by FFMA (gemm/naive_correct.cu).
// WHAT IT GAINS: if priority preempts, the unsafe path passes every loaded check with no probe
// and no waiting (unlike leak7/load_probe_switch, leak4/sched_outwait_load).
// SOUND VERDICT: incorrect (schedule_dependent).
// PREDICTED (read from the code at 088daed, not run on a GPU): probably incorrect,
// schedule_dependent, on the first loaded check: as far as is publicly known, stream priority
// orders the dispatch of PENDING blocks and does not evict resident ones; hold_sm's blocks are
// resident before the candidate's first launch (broker: the load starts before the work), so
// half the grid waits past the 20 ms barrier and C stays unwritten. If instead the GPU does
// preempt: passed_missing_instructions (exit 16), no flag. The allow-list entry is new to the
// red team: no control sets a priority.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kPadBytes = 150 * 1024;  // > half an SM's shared memory: one block per SM
constexpr unsigned long long kWaitNs = 20ull * 1000 * 1000;

__device__ unsigned int po_arrived;

__device__ __forceinline__ unsigned long long po_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void __launch_bounds__(256, 1)
    po_persistent(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                  __nv_bfloat16* __restrict__ C, int M, int N, int K, unsigned target) {
  extern __shared__ float smem[];
  float(*As)[kTile + 1] = reinterpret_cast<float(*)[kTile + 1]>(smem);
  float(*Bs)[kTile + 1] = reinterpret_cast<float(*)[kTile + 1]>(smem + kSlice * (kTile + 1));
  int ok = 1;
  if (threadIdx.x == 0) {
    atomicAdd(&po_arrived, 1u);
    const unsigned long long t0 = po_now();
    while (*reinterpret_cast<volatile unsigned*>(&po_arrived) < target)
      if (po_now() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int tiles_n = (N + kTile - 1) / kTile, tiles = tiles_n * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
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
        for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i], b[i] = Bs[kk][tx + 16 * i];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
      __syncthreads();
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
  if (sms == 0) {
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) sms = 132;
    cudaFuncSetAttribute(po_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, kPadBytes);
  }
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  ++calls;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>(sms));
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = kPadBytes;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = -5;  // the greatest on GH100 (range [-5, 0]); the load's stream has 0
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, po_persistent, static_cast<const __nv_bfloat16*>(A->data),
                     static_cast<const __nv_bfloat16*>(B->data),
                     static_cast<__nv_bfloat16*>(C->data), M, N, K,
                     calls * static_cast<unsigned>(sms));
}
