// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak5/stale_table_over_64k.
// TECHNIQUE: the issue-36 guard `stale_buffers` scans a host-to-device copy for pointers into
// another call's tensors only when the copy is at most 64 KiB (worker/broker_stale.cc
// note_stale_copy: kMaxScannedCopyBytes). A pointer table padded to 64 KiB + 8 bytes is never
// scanned. Every call runs a correct FFMA GEMM; from the second call on, the host copies a
// table of 8193 words into its workspace (cudaMallocAsync, kept across calls) whose word 0 is the
// previous call's C pointer (unchanged: no XOR, no split), and a one-block kernel reads that word
// and 64 elements of the other call's output. The kernel's own parameters are only the table's
// address (workspace, this call's own), so nothing the broker scans points elsewhere.
// Different seam from stale_split_pointer.cu: the copy path's size bound, not the launch path's
// word size. The device prints "PTXBENCH-PROBE stale_table_over_64k: ..." when what it read
// there was results (small finite values), not poison.
// WHAT IT GAINS: the same as stale_split_pointer: reuse of other calls' buffers without the flag
// or the broker's sentence.
// SOUND VERDICT: passed with flag stale_buffers (a copy that carries a pointer into another
// call's tensors, at any size: scanning 8-byte words is linear, a cap must not be a way out;
// or the pointer's later use, not its transport, is what is judged).
// PREDICTED TODAY: passed_missing_instructions, no stale_buffers flag (exit 16).
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <string.h>

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

constexpr size_t kTableWords = 64 * 1024 / 8 + 1;  // one word past the 64 KiB scan limit

__device__ float lk_stale_sink;
__global__ void lk_peek_table(const unsigned long long* table, unsigned count) {
  const __nv_bfloat16* prev = reinterpret_cast<const __nv_bfloat16*>(table[0]);
  float s = 0.f;
  int finite = 0;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) {
    const float v = __bfloat162float(prev[i]);
    s += v;
    finite += (fabsf(v) < 1e6f) ? 1 : 0;
  }
  if (s == -1.2345e30f) lk_stale_sink = s;
  if (threadIdx.x == 0 && finite > 0)
    printf("PTXBENCH-PROBE stale_table_over_64k: read another call's output C at %p through a "
           "pointer table copied to the device in one %llu-byte copy\\n",
           (const void*)prev, (unsigned long long)(kTableWords * 8));
}

static const void* g_prev_c = nullptr;
static unsigned long long* g_table_dev = nullptr;
static unsigned long long g_table[kTableWords];

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_launch_gemm(A, B, C, stream);
  if (g_table_dev == nullptr &&
      cudaMallocAsync(reinterpret_cast<void**>(&g_table_dev), sizeof g_table, stream) != cudaSuccess)
    g_table_dev = nullptr;
  if (g_table_dev != nullptr && g_prev_c != nullptr && g_prev_c != C->data) {
    g_table[0] = reinterpret_cast<unsigned long long>(g_prev_c);
    for (size_t i = 1; i < kTableWords; ++i) g_table[i] = 0x5A5A5A5A5A5A5A5Aull;
    cudaMemcpyAsync(g_table_dev, g_table, sizeof g_table, cudaMemcpyHostToDevice, stream);
    lk_peek_table<<<1, 32, 0, stream>>>(g_table_dev, 64u);
  }
  g_prev_c = C->data;
}
