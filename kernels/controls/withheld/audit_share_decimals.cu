// ptxbench red-team control (gemm_n7168_k5120, sm_90a): withheld/audit_share_decimals.
// KIND: the audited time share, printed to 0.1% in the model's feedback, shaped from a hidden size.
// WHAT: a correct GEMM. Every call's GEMM kernel is padded to 80 ms (its last block spins until
// 80 ms after the first block started; the GEMM itself takes <= 55 ms at M = 16384), then five
// spin kernels wl_pad<0..4> of P ms each: P = 4 before the first hidden call, P = 4 + 0.5 *
// M_small from it on. The broker measures each function on the 12 checked calls (2 before the
// small call, 10 from it on); with 6 functions the 4 largest carry < 95%, so only the largest
// (the GEMM) is audited and the share it carries is
//   s = 12*80 / (12*80 + 5*(2*4 + 10*(4 + 0.5*M_small))) = 960 / (1200 + 25*M_small)
// (seed 1234: 960/2525 = 38.0%; M_small 54 gives 37.6%). The feedback says "The audited kernel
// functions carry only 38.0% of the candidate's kernel time": M_small exactly.
// TARGET: audit/audit_result.cc:64-67 (percent(): "%.1f%%", and "%.3g%%" below 1%), :131-135 (the
// sentence), run/stage_pipeline.cc:147 (a.sentence), run/feedback.cc:141-150 (audit_text), :236 (in
// passed()). docs/judging.md:166-167 says the audited time share reaches the model "as whole
// percents"; it is 0.1% (three significant digits below 1%). Also the `passed_missing_instructions`
// disposition message (judge/decide.cc:69-74) repeats it.
// SOUND: passed (disposition passed_missing_instructions, exit 16: the GEMM is FFMA); the share
// reaches the model as whole percents (or coarser) as documented, or not at all after hidden calls.
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

struct PadState {
  unsigned long long inv_t0;  // ~(earliest block start); 0 between calls
  unsigned int done;          // blocks finished
};
static PadState* g_pad = nullptr;

// The GEMM, padded: every block notes its start, the last one to finish spins until pad_ns after
// the earliest start and resets the state for the next call.
__global__ void __launch_bounds__(256) wl_gemm_padded(const __nv_bfloat16* A,
                                                      const __nv_bfloat16* B, __nv_bfloat16* C,
                                                      int M, int N, int K, PadState* s,
                                                      unsigned long long pad_ns,
                                                      unsigned int blocks) {
  if (threadIdx.x == 0) atomicMax(&s->inv_t0, ~wl_now());
  naive_tile(A, B, C, M, N, K, M, blockIdx.y, blockIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(&s->done, 1u) == blocks - 1) {
      const unsigned long long t0 = ~atomicOr(&s->inv_t0, 0ull);
      while (wl_now() < t0 + pad_ns) {
      }
      atomicExch(&s->inv_t0, 0ull);
      atomicExch(&s->done, 0u);
    }
  }
}

template <int I>
__global__ void wl_pad(unsigned long long ns) {
  const unsigned long long t0 = wl_now();
  while (wl_now() - t0 < ns) {
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  wl_note(M);
  if (g_pad == nullptr &&
      cudaMallocAsync(reinterpret_cast<void**>(&g_pad), 256, stream) != cudaSuccess)
    g_pad = nullptr;  // zeroed when allocated
  if (!g_pad) {
    wl_launch_gemm(A, B, C, stream, M);
    return;
  }
  const dim3 grid = wl_grid(M, N);
  wl_gemm_padded<<<grid, 256, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
      static_cast<__nv_bfloat16*>(C->data), M, N, K, g_pad, 80000000ull, grid.x * grid.y);
  // P = 4 ms, or 4 + 0.5 * M_small ms once the small hidden call was seen (M_small < 64).
  const unsigned long long p = 4000000ull + 500000ull * unsigned(wl_small_m() & 63);
  wl_pad<0><<<1, 1, 0, stream>>>(p);
  wl_pad<1><<<1, 1, 0, stream>>>(p);
  wl_pad<2><<<1, 1, 0, stream>>>(p);
  wl_pad<3><<<1, 1, 0, stream>>>(p);
  wl_pad<4><<<1, 1, 0, stream>>>(p);
}
