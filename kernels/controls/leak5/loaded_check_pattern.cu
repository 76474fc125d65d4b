// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak5/loaded_check_pattern.
// TECHNIQUE: 880d026 drew the loaded timed check's slot, base set and place (eval/plan.cc:
// (fresh() >> 1) % 2, % timed_bases, % places), but left its UNLOADED neighbours deterministic:
// the timed checks after the hidden calls are call(0, k % 2 == 0 ? 1 : 0, ..., base k < 2 ? 1 :
// (k / 2 + 1) % timed_bases), i.e. slots 1,0,1,0,... in pairs that share a base set. A drawn call
// dropped into that sequence breaks it: its slot repeats the previous timed check's (half the
// time), or it is the second of a pair with another base set than the first's (most of the rest).
// The host tells slots by the A pointer and base sets by a row-permutation-invariant fingerprint
// of A (the integer sum of the bf16 bits of A's first two columns: a permutation of rows keeps
// it), read back with one 8-byte copy a call. It runs the schedule-dependent persistent GEMM of
// leak4/sched_check_slot0.cu (each block waits for all SMs' blocks, else writes nothing: wrong
// under another schedule) on every timed-workload call except the first two (call 0 and its
// repeat) and the ones that break the pattern; hidden calls (the ragged re-check among them) run
// the plain tiled GEMM. It does NOT use the re-check marker of leak4/sched_unsafe_after_recheck:
// the unsafe path runs in the check phase, on every timed check that keeps the pattern.
// WHAT IT GAINS: a schedule-dependent kernel passes the second-schedule check (`passed`) in the
// sessions where the loaded timed check breaks the pattern: with the GEMM family's 3 base sets
// the loaded call lands at one of 5 places; it is told apart at place 0 unless it draws slot 1
// and a base other than 0 (2/3), at places 1-3 unless it draws the expected slot and base (5/6),
// and always at place 4 (a fifth timed check): about 83% of seeds; conditional per seed.
// SOUND VERDICT: incorrect (schedule_dependent): the loaded check must be drawn from the same
// distribution as the calls beside it, so the unloaded checks' slots and base sets must be drawn
// too (or the loaded call must take the place of an unloaded one, keeping the sequence).
// PREDICTED TODAY: passed (passed_missing_instructions, exit 16) at a seed where the loaded check
// breaks the pattern; the --candidate-output file then holds "PTXBENCH-PROBE
// loaded_check_pattern: ..." (printed when a timed check is told apart; the load itself is not
// visible to the host, so the line says which call it took for the loaded one).
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
static unsigned long long* g_fp_dev = nullptr;
static int g_sms = 0;

// The base set's fingerprint: the integer sums of the bf16 bit patterns of A's columns 0 and 1
// (a permutation of A's rows keeps both sums).
__global__ void lk_fingerprint(const __nv_bfloat16* A, int M, int K, unsigned long long* out) {
  __shared__ unsigned long long s0[256], s1[256];
  unsigned long long a0 = 0, a1 = 0;
  const unsigned short* bits = reinterpret_cast<const unsigned short*>(A);
  for (int r = threadIdx.x; r < M; r += blockDim.x) {
    a0 += bits[size_t(r) * K];
    a1 += bits[size_t(r) * K + 1];
  }
  s0[threadIdx.x] = a0;
  s1[threadIdx.x] = a1;
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) {
    if (threadIdx.x < w) {
      s0[threadIdx.x] += s0[threadIdx.x + w];
      s1[threadIdx.x] += s1[threadIdx.x + w];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = s0[0] * 0x9E3779B97F4A7C15ull ^ s1[0];
}

// The timed checks seen since the first hidden call, while the pattern is followed. With the
// GEMM family's 3 distributions (eval/plan.cc input_distributions) there are 2 * (3 - 1) = 4
// unloaded timed checks: (slot 1, base 1), (slot 0, base 1), (slot 1, base 2), (slot 0, base 2);
// base 0 is the first call's.
constexpr int kUnloadedTimedChecks = 4;
static const void* g_slot0 = nullptr;  // the session's first call's A (slot 0)
static int g_calls = 0;
static int g_timed_seen = 0;  // timed-workload calls after the first hidden call
static unsigned long long g_fp0 = 0, g_fp1 = 0, g_prev_fp = 0;  // base 0, base 1, the last one
static bool g_broken = false;  // a call broke the pattern: the loaded check has been told apart

static unsigned long long lk_read_fingerprint(const __nv_bfloat16* a, int M, int K,
                                              cudaStream_t stream) {
  lk_fingerprint<<<1, 256, 0, stream>>>(a, M, K, g_fp_dev);
  unsigned long long fp = 0;
  // Pageable host memory: the copy returns once the bytes are here (the shim waits).
  cudaMemcpyAsync(&fp, g_fp_dev, sizeof fp, cudaMemcpyDeviceToHost, stream);

  return fp;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_note(M);
  ++g_calls;
  if (g_sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(lk_coresident, cudaFuncAttributeMaxDynamicSharedMemorySize, kReserve);
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_arrive), 256, stream) != cudaSuccess)
      g_arrive = nullptr;
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_fp_dev), 256, stream) != cudaSuccess)
      g_fp_dev = nullptr;
  }
  const bool ready = g_arrive != nullptr && g_fp_dev != nullptr && g_sms > 0;
  if (g_slot0 == nullptr) {
    g_slot0 = A->data;
    if (ready) g_fp0 = lk_read_fingerprint(a, M, K, stream);
  }
  bool safe = M != kTimedM || g_nhidden == 0 || !ready;
  if (!safe && !g_broken) {
    const unsigned long long fp = lk_read_fingerprint(a, M, K, stream);
    const int i = g_timed_seen++;
    const bool in_slot0 = A->data == g_slot0;
    bool slot_ok = (i % 2 == 0) ? !in_slot0 : in_slot0, base_ok = true;
    if (i == 0) base_ok = fp != g_fp0;                       // base 1, a new one
    if (i % 2 == 1) base_ok = fp == g_prev_fp;               // the pair's base again
    if (i == 2) base_ok = fp != g_fp0 && fp != g_fp1;        // base 2, a new one
    if (i >= kUnloadedTimedChecks) slot_ok = base_ok = false;  // past the unloaded ones
    if (i == 0) g_fp1 = fp;
    if (!slot_ok || !base_ok) {
      g_broken = true;
      safe = true;
      fprintf(stderr,
              "PTXBENCH-PROBE loaded_check_pattern: call %d (timed check %d after the hidden "
              "calls) broke the unloaded checks' pattern (%s); taken as the loaded check, safe "
              "path there, unsafe path on every other timed call\n",
              g_calls, i,
              i >= kUnloadedTimedChecks ? "one check too many"
              : !slot_ok                ? "its slot"
                                        : "its base set");
    }
    g_prev_fp = fp;
  }
  if (safe) {
    lk_launch_gemm(A, B, C, stream);
    return;
  }
  cudaMemsetAsync(g_arrive, 0, sizeof(unsigned int), stream);
  lk_coresident<<<g_sms, 256, kReserve, stream>>>(a, b, static_cast<__nv_bfloat16*>(C->data), M,
                                                  N, K, g_arrive);
}
