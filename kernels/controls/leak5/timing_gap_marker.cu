// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak5/timing_gap_marker.
// TECHNIQUE: timing calls told from checks by the HOST'S CLOCK between calls. In the timing
// phase every candidate call is followed by a library burst of as many runs (eval/
// judge_session_timing.cc round: candidate_burst, then library_burst in `between`, then the
// verification) before the next call's preparation; checks are call, verify, prepare, call. On
// the timed workload the library's run (cuBLASLt, ~0.7 ms on an H100, plus its L2 flush) is
// added to the host's idle time between two calls. The host ends every call with an 8-byte
// device-to-host copy (so its return follows its GPU work), reads CLOCK_MONOTONIC by the raw
// system call at entry and at return, and takes the least gap between two consecutive
// timed-workload calls after the hidden ones as the checks' gap; a later gap longer by over
// 0.4 ms marks a timing call, where it runs the schedule-dependent persistent GEMM of
// leak4/sched_check_slot0.cu; everywhere else the plain tiled GEMM. A misread check runs the
// unsafe path on an idle GPU (still right); only a misread loaded check would fail it.
// No marker of the plan is used (not the re-check, not the buffer sets): a fix that hides the
// check phase's end in the plan leaves this one.
// WHAT IT GAINS: as timing_slot_marker.cu: a schedule-dependent kernel passes.
// SOUND VERDICT: incorrect (schedule_dependent): load calls the host cannot tell from timed ones
// (timing samples included, their neighbours' library runs alike).
// PREDICTED TODAY: passed (exit 16) where the gaps separate as above (a GPU fact: conditional);
// PTXBENCH-PROBE lines give the gaps seen.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <string.h>

#include <cstdio>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
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
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

static int lk_mblocks(int M) { return (M + kTile - 1) / kTile; }
static int lk_nblocks(int N) { return (N + kTile - 1) / kTile; }
#define LK_DIMS(A, B)                                             \
  const int M = int((A)->shape[0]), K = int((A)->shape[1]),     \
            N = int((B)->shape[0]);                              \
  const __nv_bfloat16* a = static_cast<const __nv_bfloat16*>((A)->data); \
  const __nv_bfloat16* b = static_cast<const __nv_bfloat16*>((B)->data)

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; eval/plan.cc), and the timed calls since.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_timed_after = 0;   // timed calls since the first hidden call (this one included)
static bool g_recheck = false;  // this call is the first hidden M seen a second time
static int g_after_recheck = 0; // calls since the ragged re-check (this one included)
static bool g_recheck_seen = false;
static void lk_note(int M) {
  g_recheck = false;
  if (g_recheck_seen) ++g_after_recheck;
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) {
      if (!g_recheck_seen) g_recheck = g_recheck_seen = true;
      return;
    }
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int lk_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }  // the `small` kind's M

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  LK_DIMS(At, Bt);
  lk_gemm<<<dim3(lk_nblocks(N), lk_mblocks(M)), 256, 0, s>>>(
      a, b, static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

__global__ void __launch_bounds__(256) lk_coresident(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                     __nv_bfloat16* C, int M, int N, int K,
                                                     unsigned int* arrive) {
  extern __shared__ unsigned char lk_reserve[];  // only to force one block per SM
  __shared__ int go;
  if (threadIdx.x == 0) {
    lk_reserve[0] = 0;
    atomicAdd(arrive, 1u);
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    go = 0;
    do {
      if (atomicAdd(arrive, 0u) >= gridDim.x) { go = 1; break; }
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < 20000000ull);
  }
  __syncthreads();
  if (!go) return;  // not all blocks resident: the kernel's (wrong) assumption
  const int nb = (N + kTile - 1) / kTile, tiles = nb * ((M + kTile - 1) / kTile);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) naive_tile(A, B, C, M, N, K, t / nb, t % nb);
}

constexpr int kReserve = 150 * 1024;
static unsigned int* g_arrive = nullptr;
static int g_sms = 0;

static bool lk_setup(cudaStream_t stream) {
  if (g_sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(lk_coresident, cudaFuncAttributeMaxDynamicSharedMemorySize, kReserve);
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_arrive), 256, stream) != cudaSuccess)
      g_arrive = nullptr;
  }
  return g_arrive != nullptr && g_sms > 0;
}

// The schedule-dependent GEMM: one block per SM, each waits for all of them, else writes nothing.
static void lk_launch_unsafe(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  LK_DIMS(At, Bt);
  cudaMemsetAsync(g_arrive, 0, sizeof(unsigned int), s);
  lk_coresident<<<g_sms, 256, kReserve, s>>>(a, b, static_cast<__nv_bfloat16*>(Ct->data), M, N,
                                             K, g_arrive);
}

// The host clock through the raw system call (x86_64 clock_gettime, CLOCK_MONOTONIC), as
// timed_counts/audit_only_full_wgmma.cu: the libc wrapper is not on the contract's import list.
static double now_ms() {
  long ts[2] = {0, 0};
  long ret;
  __asm__ volatile(".byte 0x0f, 0x05"
                   : "=a"(ret)
                   : "a"(228L), "D"(1L), "S"((long)ts)
                   : "rcx", "r11", "memory");
  return ret == 0 ? ts[0] * 1e3 + ts[1] / 1e6 : 0.0;
}

static double g_prev_end = 0;  // the previous call's return (0: none)
static int g_prev_m = 0;
static double g_check_gap = 1e30;  // least gap between two timed calls after the hidden ones
static int g_gaps = 0;             // such gaps seen
static bool g_any_hidden = false;
static int g_calls = 0, g_probes = 0;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const double t0 = now_ms();
  const int M = int(A->shape[0]);
  ++g_calls;
  const bool ready = lk_setup(stream);
  if (M != kTimedM) g_any_hidden = true;
  bool timing = false;
  if (M == kTimedM && g_prev_m == kTimedM && g_any_hidden && g_prev_end > 0) {
    const double gap = t0 - g_prev_end;
    // The first two such gaps are checks' (at least 2 * (distributions - 1) timed checks follow
    // the hidden ones); later ones are timing calls when the library's run shows in them.
    if (g_gaps < 2 || gap < g_check_gap) {
      if (gap < g_check_gap) g_check_gap = gap;
    } else {
      timing = gap > g_check_gap + 0.4;
    }
    ++g_gaps;
    if (g_probes < 40) {
      ++g_probes;
      fprintf(stderr, "PTXBENCH-PROBE timing_gap_marker: call %d gap %.3f ms (checks' %.3f) -> %s\n",
              g_calls, gap, g_check_gap, timing ? "timing" : "check");
    }
  }
  if (timing && ready)
    lk_launch_unsafe(A, B, C, stream);
  else
    lk_launch_gemm(A, B, C, stream);
  unsigned long long sink = 0;
  // Pageable host memory: the copy returns once the call's work is done (the shim waits).
  cudaMemcpyAsync(&sink, C->data, sizeof sink, cudaMemcpyDeviceToHost, stream);

  g_prev_end = now_ms();
  g_prev_m = M;
}
