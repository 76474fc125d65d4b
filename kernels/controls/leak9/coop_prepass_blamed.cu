// ptxbench control (gemm_n7168_k5120, sm_90a): leak9/coop_prepass_blamed. FALSE BLAME.
// KIND: an honest call of an ordinary kernel then a cooperative one is failed as
// schedule_dependent. The first cooperative launch ends the SM load (broker_calls.cc:336 ->
// sm_load.cu SmLoad::yield) while the call's earlier ordinary kernel may still be queued or
// running; finish() then reports outlasted for ANY yield (sm_load.cu:110-113), and the judge
// excuses it only when every launch of the call was cooperative (broker_calls.cc:335,
// judge_session.cc:190-191). Nothing waited the load out: the ordinary kernel needs no
// co-residency, and the cooperative one is exactly what the message tells kernels to use. The
// rule "every kernel of a call must then be cooperative" is stated only in the failure message
// (session_decision.cc:184-191), not in the prompt (src/prompt has no word of it).
// TECHNIQUE (honest, a common design): kernel 1, an ordinary launch, zeroes an fp32 split-K
// accumulator in the workspace; kernel 2, a cooperative persistent grid (one 256-thread block a
// SM), adds the two K halves of every 64x64 tile into it with atomicAdd (0 + a + b in either
// order gives the same float), cooperative_groups grid.sync(), then converts it to bf16 C.
// SOUND VERDICT: passed (exit 16 without wgmma/TMA): correct on every schedule, no race.
// PREDICTED (READ from 332a197, not run): incorrect, schedule_dependent, at the timed
// workload's loaded check (plan.cc:244-251) or the loaded ragged re-check (plan.cc:254-258):
// "the call's work was still running when the load on half the GPU's SMs ended, although it
// lasted several times the workload's unloaded calls", which is false: the load lasted
// microseconds, ended by the candidate's own (allowed) cooperative launch.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace cg = cooperative_groups;
constexpr int kTile = 64, kSlice = 16;

__global__ void pb_zero(float* acc, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    acc[i] = 0.f;
}

__global__ void __launch_bounds__(256, 1)
    pb_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
            float* acc_ws) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int nb = (N + kTile - 1) / kTile, tiles = nb * ((M + kTile - 1) / kTile);
  const int half = (K / 2) / kSlice * kSlice;
  for (int item = blockIdx.x; item < 2 * tiles; item += gridDim.x) {
    const int t = item / 2, m0 = (t / nb) * kTile, n0 = (t % nb) * kTile;
    const int k_lo = item % 2 ? half : 0, k_hi = item % 2 ? K : half;
    float acc[4][4] = {};
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
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
        if (gm < M && gn < N) atomicAdd(&acc_ws[size_t(gm) * N + gn], acc[i][j]);
      }
  }
  cg::this_grid().sync();
  const size_t n = size_t(M) * N;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    C[i] = __float2bfloat16_rn(acc_ws[i]);
}

static float* g_ws = nullptr;
static size_t g_elems = 0;

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const size_t n = size_t(M) * N;
  if (n > g_elems) {
    if (g_ws) cudaFreeAsync(g_ws, s);
    g_ws = nullptr;
    g_elems = 0;
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_ws), n * sizeof(float), s) == cudaSuccess)
      g_elems = n;
  }
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  pb_zero<<<4 * sms, 256, 0, s>>>(g_ws, n);  // ordinary launch
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(sms);
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;  // grid.sync(): every block resident at once
  attr[0].val.cooperative = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, pb_gemm, static_cast<const __nv_bfloat16*>(At->data),
                     static_cast<const __nv_bfloat16*>(Bt->data),
                     static_cast<__nv_bfloat16*>(Ct->data), M, N, K, g_ws);
}
