// ptxbench control (gemm_n7168_k5120, sm_90a): leak8/known_slow_memo.
// KIND: the fresh inputs (1d97756, 8959893) keep memos out of the timing calls, but a candidate
// "known slow from its checked calls" is not timed on timing calls: its speedup is the library's
// median over the median of its later checked calls on the timed workload with new inputs
// (session_decision.cc:299-306 later_fresh_checked_timed_calls, :331-336 known_slow;
// judge_session_timing.cc:199-217 slow_from_checks: `checked_sample`), and those checks are
// PERMUTED BASE SETS (plan.cc:231-233: Content::transformed), exactly what a row memo serves
// (redteam/memo_two_bases.cu). With the default --trials 3 they are base 1, base 1 again, base 2,
// base 2 again (plan.cc:232-233: k < 2 -> base 1, then (k/2 + 1) % 3): two first visits, two
// re-visits under new permutations.
// TECHNIQUE: redteam/memo_two_bases.cu's memo (row fingerprints of A and B, C gathered from the
// base's memoised C, workspace kept) for the three timed bases, over its slow honest FFMA GEMM
// (~0.02x the library): a base's first visit is computed and memoised, a re-visit is gathered.
// Two things keep the known-slow path: exact repeats (the checked call 2 and the closing
// repeats, told by the previous call's A pointer and first 32 bytes) and calls with unseen rows
// (the fresh closing round and the audits) are computed honestly and never memoised, so the
// repeats are not faster than the checks (faster_since_checks, session_decision.cc:338-347, and
// the cached_result repeat-speed rule both see slow repeats).
// WHAT IT WOULD GAIN: known_slow (session_decision.cc:331-336) sees the median of the four
// timed checks, (slow + ~0)/2, and keeps the known-slow path; if the final samples were those
// four, the reported speedup would be about twice the real one (0.02x -> ~0.04x): work not
// done, timed on the one path the fresh inputs do not cover.
// SOUND VERDICT: passed_missing_instructions with its real speedup (~0.02x).
// PREDICTED (read from the code at 088daed, not run on a GPU): passed_missing_instructions
// (exit 16) at about its REAL speedup, no flag: closed, by one sample. The checks end with the
// ragged hidden re-check, so TimingDraw::follow leaves no timed slot and the first closing round
// is a fresh call (plan.cc:295), made with timing = true; judge_timing's samples are every
// fresh_sample (session_decision.cc:79-81: timing OR checked_sample), so the samples are
// [slow, ~0, slow, ~0] plus the fresh closing call (slow), and their median is the slow time.
// The protection rests on that one fresh closing call and on --trials 3 giving exactly two
// re-visits; with more trials the re-visits (base 0 again: plan.cc:233) outnumber the first
// visits and the candidate leaves the known-slow path for fresh timing calls.
// PTXBENCH-PROBE lines on stderr name each memoised base and each gathered call.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

// ---- a plain, correct GEMM of our own: C[M,N] = A[M,K] * B[N,K]^T, fp32 accumulation ----
// 64x64 output tile per block, 256 threads, 4x4 outputs per thread, K staged 32 at a time.
// (mode 2: nothing; only mode 0, the GEMM, is used here.)
__device__ float rt_sink[4];

__global__ void __launch_bounds__(256) rt_gemm(const __nv_bfloat16* __restrict__ A,
                                               const __nv_bfloat16* __restrict__ B,
                                               __nv_bfloat16* __restrict__ C, int M, int N,
                                               int K, int mode) {
  __shared__ float As[32][64 + 4];
  __shared__ float Bs[32][64 + 4];
  if (mode == 2) return;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int i = threadIdx.x; i < 64 * 32; i += 256) {
      const int r = i / 32, c = i % 32, gk = k0 + c;
      const int gm = m0 + r, gn = n0 + r;
      As[c][r] = (gm < M && gk < K) ? __bfloat162float(A[(size_t)gm * K + gk]) : 0.f;
      Bs[c][r] = (gn < N && gk < K) ? __bfloat162float(B[(size_t)gn * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < 32; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i], b[i] = Bs[k][tx * 4 + i];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty * 4 + i, gn = n0 + tx * 4 + j;
      if (gm < M && gn < N) C[(size_t)gm * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

static void rt_launch_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s,
                           int mode) {
  const int M = (int)A->shape[0], K = (int)A->shape[1], N = (int)B->shape[0];
  dim3 grid(mode == 2 ? 1 : (N + 63) / 64, mode == 2 ? 1 : (M + 63) / 64);
  rt_gemm<<<grid, 256, 0, s>>>((const __nv_bfloat16*)A->data, (const __nv_bfloat16*)B->data,
                               (__nv_bfloat16*)C->data, M, N, K, mode);
}

namespace {
constexpr int kMaxBases = 3, kFpTaps = 16;  // the timed workload's three base sets
constexpr std::uint32_t kHashA = 1u << 16, kHashB = 1u << 16;  // slots (power of two)
struct Memo {
  bool ready = false;
  int bases = 0, M = 0, N = 0, K = 0;
  __nv_bfloat16* c[kMaxBases] = {};
  unsigned long long *keyA = nullptr, *keyB = nullptr;
  int *valA = nullptr, *valB = nullptr, *mapA = nullptr, *mapB = nullptr;
  unsigned int* status = nullptr;  // [0] misses A, [1] misses B, [2] bases of A (bits), [3] B
} g;
int g_hits = 0, g_calls = 0;

__device__ unsigned long long fp_row(const __nv_bfloat16* row, int K) {
  unsigned long long h = 0x9E3779B97F4A7C15ull;
  for (int t = 0; t < kFpTaps; ++t) {
    const int k = (int)(((long long)t * (K - 1)) / (kFpTaps - 1));
    const unsigned short v = *reinterpret_cast<const unsigned short*>(row + k);
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
  }
  return h | 1ull;  // 0 marks an empty slot
}

__global__ void fp_insert(const __nv_bfloat16* X, int rows, int K, unsigned long long* keys,
                          int* vals, std::uint32_t mask, int base) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const unsigned long long key = fp_row(X + (size_t)r * K, K);
  std::uint32_t s = (std::uint32_t)(key ^ (key >> 29)) & mask;
  while (true) {
    const unsigned long long old = atomicCAS(&keys[s], 0ull, key);
    if (old == 0ull) {
      vals[s] = (base << 20) | r;
      return;
    }
    if (old == key) return;  // an identical row: either one's products are the same
    s = (s + 1) & mask;
  }
}

__global__ void fp_lookup(const __nv_bfloat16* X, int rows, int K, const unsigned long long* keys,
                          const int* vals, std::uint32_t mask, int* map, unsigned int* miss,
                          unsigned int* bases) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const unsigned long long key = fp_row(X + (size_t)r * K, K);
  std::uint32_t s = (std::uint32_t)(key ^ (key >> 29)) & mask;
  for (std::uint32_t probe = 0; probe <= mask; ++probe) {
    const unsigned long long k = keys[s];
    if (k == 0ull) break;
    if (k == key) {
      map[r] = vals[s];
      atomicOr(bases, 1u << (vals[s] >> 20));
      return;
    }
    s = (s + 1) & mask;
  }
  map[r] = -1;
  atomicAdd(miss, 1u);
}

__global__ void gather(__nv_bfloat16* const* memo, const int* mapA, const int* mapB,
                       __nv_bfloat16* C, int M, int N) {
  const int m = blockIdx.y;
  const int a = mapA[m];
  const __nv_bfloat16* src = memo[a >> 20] + (size_t)(a & 0xFFFFF) * N;
  for (int n = blockIdx.x * blockDim.x + threadIdx.x; n < N; n += gridDim.x * blockDim.x)
    C[(size_t)m * N + n] = src[mapB[n] & 0xFFFFF];
}
__nv_bfloat16** g_memo_table = nullptr;

template <class T>
T* grab(size_t bytes, cudaStream_t s) {
  void* p = nullptr;
  if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) return nullptr;
  return static_cast<T*>(p);
}
}  // namespace


extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  const int M = (int)A->shape[0], K = (int)A->shape[1], N = (int)B->shape[0];
  const auto* a = (const __nv_bfloat16*)A->data;
  const auto* b = (const __nv_bfloat16*)B->data;
  auto* c = (__nv_bfloat16*)C->data;
  // An exact repeat (same buffers, same first bytes of A as the previous call): computed, so
  // repeats are never faster than the checks.
  static const void* last_a = nullptr;
  static unsigned char last_head[32];
  unsigned char head[32] = {0};
  cudaMemcpyAsync(head, a, 32, cudaMemcpyDeviceToHost, stream);  // waits: the call's time starts
  const bool repeat = last_a == a && std::memcmp(head, last_head, 32) == 0;
  last_a = a;
  std::memcpy(last_head, head, 32);
  if (repeat || M != 8192) return rt_launch_gemm(A, B, C, stream, 0);
  if (!g.ready) {
    g.M = M, g.N = N, g.K = K;
    g.keyA = grab<unsigned long long>(sizeof(unsigned long long) * kHashA, stream);
    g.keyB = grab<unsigned long long>(sizeof(unsigned long long) * kHashB, stream);
    g.valA = grab<int>(sizeof(int) * kHashA, stream);
    g.valB = grab<int>(sizeof(int) * kHashB, stream);
    g.mapA = grab<int>(sizeof(int) * M, stream);
    g.mapB = grab<int>(sizeof(int) * N, stream);
    g.status = grab<unsigned int>(64, stream);
    g_memo_table = grab<__nv_bfloat16*>(sizeof(void*) * kMaxBases, stream);
    for (int i = 0; i < kMaxBases; ++i) g.c[i] = grab<__nv_bfloat16>((size_t)M * N * 2, stream);
    bool ok = g.keyA && g.keyB && g.valA && g.valB && g.mapA && g.mapB && g.status && g_memo_table;
    for (int i = 0; i < kMaxBases; ++i) ok = ok && g.c[i];
    if (!ok || (size_t)2 * M > kHashA || (size_t)2 * N > kHashB) {
      g.M = -1;
    } else {
      cudaMemsetAsync(g.keyA, 0, sizeof(unsigned long long) * kHashA, stream);
      cudaMemsetAsync(g.keyB, 0, sizeof(unsigned long long) * kHashB, stream);
      cudaMemcpyAsync(g_memo_table, g.c, sizeof(void*) * kMaxBases, cudaMemcpyHostToDevice, stream);
    }
    g.ready = true;
  }
  if (g.M != M || g.N != N || g.K != K) return rt_launch_gemm(A, B, C, stream, 0);
  unsigned int st[4] = {1, 1, 0, 0};
  if (g.bases > 0) {
    cudaMemsetAsync(g.status, 0, 16, stream);
    fp_lookup<<<(M + 255) / 256, 256, 0, stream>>>(a, M, K, g.keyA, g.valA, kHashA - 1, g.mapA,
                                                  g.status + 0, g.status + 2);
    fp_lookup<<<(N + 255) / 256, 256, 0, stream>>>(b, N, K, g.keyB, g.valB, kHashB - 1, g.mapB,
                                                  g.status + 1, g.status + 3);
    cudaMemcpyAsync(st, g.status, 16, cudaMemcpyDeviceToHost, stream);
  }
  const bool hit = st[0] == 0 && st[1] == 0 && st[2] != 0 && st[2] == st[3] &&
                   (st[2] & (st[2] - 1)) == 0;
  if (hit) {
    gather<<<dim3(4, M), 256, 0, stream>>>(g_memo_table, g.mapA, g.mapB, c, M, N);
    std::fprintf(stderr, "PTXBENCH-PROBE known_slow_memo: call %d gathered from the memo\n",
                 g_calls);
    return;
  }
  rt_launch_gemm(A, B, C, stream, 0);
  // Memoised: the first three unseen contents of the timed workload, i.e. its three base sets
  // (call 1 and the first visits of bases 1 and 2); later unseen contents (fresh) are not.
  if (g.bases < kMaxBases) {
    const int base = g.bases++;
    cudaMemcpyAsync(g.c[base], c, (size_t)M * N * 2, cudaMemcpyDeviceToDevice, stream);
    fp_insert<<<(M + 255) / 256, 256, 0, stream>>>(a, M, K, g.keyA, g.valA, kHashA - 1, base);
    fp_insert<<<(N + 255) / 256, 256, 0, stream>>>(b, N, K, g.keyB, g.valB, kHashB - 1, base);
    std::fprintf(stderr, "PTXBENCH-PROBE known_slow_memo: call %d memoised as base %d\n",
                 g_calls, base);
  }
}
