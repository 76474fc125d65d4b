// ptxbench red-team control (gemm_n7168_k5120, sm_90a): withheld/flag_bits.
// KIND: flags the candidate raises at will, printed in the model's feedback of a PASSED kernel.
// WHAT: a correct GEMM on every call. On its first hidden call (the `small` workload) it enqueues
// the GEMM on the legacy default stream when M_small is odd (the broker runs it on its own stream,
// inside the events, and reports it: flag side_stream, judge_session.cc:179-180, on ANY call, a
// hidden one included); on the timed calls after the hidden ones, when bit 2 of M_small is set, it
// alternates 0 and 12 ms of device spin after the GEMM, so the candidate's IQR/median passes 2%
// (flag timing_unstable, evaluator.cc:82). Seed 1234: M_small = 53 = 0b110101: both flags.
// TARGET: run/stage_pipeline.cc:97 (f.flags = r.flags), run/feedback.cc:70-76 and :240 (passed():
// "- Guard: side_stream ..." / "- Note: timing_unstable ..."). 2 bits of a hidden size in the
// feedback of a pass; docs/judging.md:166-168 lists what the candidate may still shape after hidden
// calls (times, coverage, share, wrong outputs), not flags.
// SOUND: passed, flags side_stream and timing_unstable (both are true); what the model reads must
// not turn on a choice made from a hidden size: a flag raised by a hidden call, or by a call
// after one, is shown without telling which (or the residual bits are stated in judging.md).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
// `rows` is how many rows of C are stored (M for a correct result).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int rows, int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
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
      if (gm < rows && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__global__ void __launch_bounds__(256) wl_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int rows) {
  naive_tile(A, B, C, M, N, K, rows, blockIdx.y, blockIdx.x);
}

static dim3 wl_grid(int M, int N) { return dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile); }

static void wl_launch_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s,
                           int rows) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  wl_gemm<<<wl_grid(M, N), 256, 0, s>>>(static_cast<const __nv_bfloat16*>(A->data),
                                        static_cast<const __nv_bfloat16*>(B->data),
                                        static_cast<__nv_bfloat16*>(C->data), M, N, K, rows);
}

// The device's nanosecond clock, and a one-thread kernel that spins for `ns`.
__device__ __forceinline__ unsigned long long wl_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void wl_spin(unsigned long long ns) {
  const unsigned long long t0 = wl_now();
  while (wl_now() - t0 < ns) {
  }
}

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; tasks are public, so is that order), and how
// many calls of each kind it was given.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_hidden_calls = 0;  // hidden calls seen (the ragged one comes twice)
static int g_timed_after = 0;   // timed calls since the first hidden call
static void wl_note(int M) {
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  ++g_hidden_calls;
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) return;
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int wl_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }   // the `small` kind's M
static int wl_ragged_m() { return g_nhidden > 1 ? g_hidden[1] : 0; }  // the `ragged` kind's M

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]);
  wl_note(M);
  const bool first_hidden = M != kTimedM && g_hidden_calls == 1;
  // Bit 0 of M_small: the small call's work on the legacy default stream (side_stream).
  wl_launch_gemm(A, B, C, first_hidden && (M & 1) ? cudaStream_t(0) : stream, M);
  // Bit 2 of M_small: unsteady timed calls after the hidden ones (timing_unstable).
  if (M == kTimedM && g_nhidden > 0 && (wl_small_m() & 4) && (g_timed_after & 1))
    wl_spin<<<1, 1, 0, stream>>>(12000000ull);
}
