// ptxbench control (gemm_n7168_k5120, sm_90a): leak11/coop_then_epilogue_blamed. FALSE BLAME.
// KIND: an honest call of a cooperative kernel followed by an ordinary epilogue kernel is failed as
// schedule_dependent on every loaded call. The cooperative launch ends the load (broker.cc:171,
// sm_load.cu:146-150); the ordinary launch after it sets after_yield_ (sm_load.cu:152-154);
// finish() reports outlasted with "the load ended for a cooperative launch, and ordinary kernels
// ran after it" (sm_load.cu:160-165); rec.cooperative is false because one launch is ordinary
// (broker_calls.cc:366), so load_outlasted stands (judge_session.cc:189-190) and judge_calls
// writes "its blocks waited for SMs the load held" (session_decision.cc:200-207), which did not
// happen: the load lasted as long as the host took to enqueue the first kernel. The mirror image
// of leak9/coop_prepass_blamed.cu (an ordinary kernel BEFORE the cooperative one), which the
// after_yield_ rule fixed; the epilogue after it is blamed by design. The prompt does not say that
// every kernel of a call with a cooperative launch must be cooperative too (the failure message
// says it after the fact).
// TECHNIQUE (honest, a common shape): ce_splitk, a cooperative persistent grid (one 256-thread
// block a SM, occupancy queried): it zeroes an fp32 accumulator in the workspace, grid.sync(),
// then adds the two K halves of every 64x64 tile with atomicAdd (0 + a + b in either order is the
// same float); ce_epilogue, an ordinary grid-stride kernel, converts it to bf16 C. The workspace
// is allocated and freed in every call (no workspace_kept).
// SOUND VERDICT: passed (passed_missing_instructions, exit 16): correct on every schedule.
// PREDICTED (read from the code at e0ac5a7, not run on a GPU): incorrect, schedule_dependent, at
// the first loaded check (the timed workload's, plan.cc:240-255, or the ragged re-check,
// plan.cc:256-261), whatever its share.
#include <cooperative_groups.h>
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

namespace cg = cooperative_groups;

__global__ void __launch_bounds__(256, 1)
    ce_splitk(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B, int M,
              int N, int K, float* acc_ws) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const size_t n = size_t(M) * N;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    acc_ws[i] = 0.f;
  cg::this_grid().sync();
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int tiles_n = (N + kTile - 1) / kTile, tiles = tiles_n * ((M + kTile - 1) / kTile);
  const int half = (K / 2) / kSlice * kSlice;
  for (int item = blockIdx.x; item < 2 * tiles; item += gridDim.x) {
    const int t = item / 2, m0 = (t / tiles_n) * kTile, n0 = (t % tiles_n) * kTile;
    float acc[4][4] = {};
    tile_mac(A, B, M, N, K, m0, n0, item % 2 ? half : 0, item % 2 ? K : half, As, Bs, acc);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
        if (gm < M && gn < N) atomicAdd(&acc_ws[size_t(gm) * N + gn], acc[i][j]);
      }
  }
}

__global__ void ce_epilogue(const float* __restrict__ acc_ws, __nv_bfloat16* __restrict__ C,
                            size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    C[i] = __float2bfloat16_rn(acc_ws[i]);
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  static int sms = 0, per_sm = 1;
  if (sms == 0) {
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) sms = 132;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ce_splitk, 256, 0) != cudaSuccess ||
        per_sm < 1)
      per_sm = 1;
  }
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const size_t n = size_t(M) * N;
  float* ws = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&ws), n * sizeof(float), s) != cudaSuccess) return;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(sms * per_sm);
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;  // grid.sync(): every block resident at once
  attr[0].val.cooperative = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, ce_splitk, static_cast<const __nv_bfloat16*>(At->data),
                     static_cast<const __nv_bfloat16*>(Bt->data), M, N, K, ws);
  ce_epilogue<<<4 * sms, 256, 0, s>>>(ws, static_cast<__nv_bfloat16*>(Ct->data), n);
  cudaFreeAsync(ws, s);
}
