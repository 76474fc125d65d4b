// ptxbench control (gemm_n7168_k5120, sm_90a): fresh/unsafe_on_new_rows.
// KIND: the checks told from the timed calls by their CONTENT. Since 2026-12-07 the checks are
// permutations of the timed workload's base input sets (one per distribution: 3 for a GEMM) while
// the timing, audited and library calls get inputs nobody saw before (eval/plan.h TimingDraw,
// gpu/sample_check.h). A kernel can fingerprint the rows of A: once it has met three base sets,
// a call whose rows it never saw is not a check.
// TECHNIQUE: a fingerprint (8 leading elements) of every row of A, computed on the device and
// read back each timed-workload call; a call whose row 0 is unseen is a new base set while fewer
// than 3 were met, else new inputs: from then on the schedule-dependent persistent GEMM of
// leak5/timing_slot_marker.cu (every block waits for all SMs' blocks, else writes nothing); the
// plain tiled GEMM on the checks.
// WHAT IT WOULD GAIN: its unsafe path only where no full check looks.
// SOUND VERDICT: incorrect: the timing phase's loaded rounds (plan.h kLoadedTimingOdds: one in
// six, at least one) get new inputs too, are checked (sampled), and meet the unsafe path under
// the SM load, where its blocks cannot all be resident: unwritten outputs.
// PREDICTED: incorrect (a loaded timing round fails; the candidate output has the PROBE line).
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


// Fingerprints of every row of A (its first 8 bf16 values).
__global__ void lk_row_prints(const __nv_bfloat16* A, int M, int K, unsigned long long* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  unsigned long long h = 0xcbf29ce484222325ull;
  const unsigned short* row = reinterpret_cast<const unsigned short*>(A + (size_t)r * K);
  for (int k = 0; k < 8 && k < K; ++k) h = (h ^ row[k]) * 0x100000001b3ull;
  out[r] = h;
}

constexpr int kBaseSets = 3;  // the GEMM family's distributions (eval/plan.h input_distributions)
constexpr int kSeenCap = 1 << 16;
static unsigned long long g_seen[kSeenCap];  // open addressing, 0 = empty
static unsigned long long* g_prints = nullptr;
static unsigned long long g_host[kTimedM];
static int g_bases = 0, g_calls = 0;
static bool g_new_inputs = false;

static bool lk_seen(unsigned long long h, bool insert) {
  h |= 1;
  for (unsigned s = (unsigned)(h ^ (h >> 31)) % kSeenCap;; s = (s + 1) % kSeenCap) {
    if (g_seen[s] == h) return true;
    if (g_seen[s] == 0) {
      if (insert) g_seen[s] = h;
      return false;
    }
  }
}

// Is this timed-workload call's content new (neither a base set met before nor, while fewer than
// kBaseSets were met, a base set)? Met base sets are remembered row by row.
static bool lk_new_content(const DLTensor* A, cudaStream_t s) {
  const int M = int(A->shape[0]), K = int(A->shape[1]);
  if (!g_prints && cudaMallocAsync(reinterpret_cast<void**>(&g_prints), sizeof(g_host), s) !=
                       cudaSuccess)
    return false;
  lk_row_prints<<<(M + 255) / 256, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(A->data), M, K,
                                                g_prints);
  // To pageable host memory: the copy returns with the data (the harness synchronises, not us).
  if (cudaMemcpyAsync(g_host, g_prints, sizeof(g_host), cudaMemcpyDeviceToHost, s) != cudaSuccess)
    return false;
  if (lk_seen(g_host[0], false)) return false;  // a base set met before, permuted
  if (g_bases >= kBaseSets) return true;
  ++g_bases;
  for (int r = 0; r < M; ++r) lk_seen(g_host[r], true);
  return false;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]);
  ++g_calls;
  const bool ready = lk_setup(stream);
  g_new_inputs = M == kTimedM && lk_new_content(A, stream);
  if (g_new_inputs)
    fprintf(stderr, "PTXBENCH-PROBE unsafe_on_new_rows: call %d has rows never seen (%d base sets "
                    "met): not a check, the unsafe path\n", g_calls, g_bases);
  if (g_new_inputs && ready)
    lk_launch_unsafe(A, B, C, stream);
  else
    lk_launch_gemm(A, B, C, stream);
}
