// ptxbench red-team control: memo_two_bases (task gemm_n7168_k5120). Correct GEMM + an attack; see
// kernels/controls/redteam.toml.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

// ---- a plain, correct GEMM of our own: C[M,N] = A[M,K] * B[N,K]^T, fp32 accumulation ----
// 64x64 output tile per block, 256 threads, 4x4 outputs per thread, K staged 32 at a time.
// mode 0: GEMM; mode 1: GEMM, and block (0,0) first issues one wgmma as a token;
// mode 2: a probe: only block (0,0) runs, touches nothing of C, and exits.
__device__ float rt_sink[4];

__device__ __forceinline__ std::uint64_t rt_desc(const void* smem) {
  std::uint64_t a = static_cast<std::uint64_t>(__cvta_generic_to_shared(smem));
  return ((a >> 4) & 0x3FFFull) | (std::uint64_t(128 >> 4) << 16) | (std::uint64_t(256 >> 4) << 32);
}

__device__ __forceinline__ void rt_token_wgmma(__nv_bfloat16* scratch) {
  // Caller: the 128 threads of warpgroup 0, converged; scratch: 4 KiB of shared memory, zeroed.
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  std::uint64_t da = rt_desc(scratch), db = rt_desc(scratch + 1024);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.fence.sync.aligned;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(da), "l"(db), "r"(0)
      : "memory");
  if (threadIdx.x == 0) rt_sink[0] = d0 + d1 + d2 + d3;
}

__global__ void __launch_bounds__(256) rt_gemm(const __nv_bfloat16* __restrict__ A,
                                               const __nv_bfloat16* __restrict__ B,
                                               __nv_bfloat16* __restrict__ C, int M, int N,
                                               int K, int mode) {
  __shared__ float As[32][64 + 4];
  __shared__ float Bs[32][64 + 4];
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  if (mode != 0 && blockIdx.x == 0 && blockIdx.y == 0) {
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
    __syncthreads();
    if (mode == 1 && threadIdx.x < 128) rt_token_wgmma(scratch);
    if (mode == 2) {
      if (threadIdx.x == 0) rt_sink[1] += 1.f;
      return;
    }
    __syncthreads();
  }
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

// ---- raw system calls (the instruction's bytes; x86_64 numbers) ----
static long rt_sys(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0,
                   long f = 0) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile(".byte 0x0f, 0x05"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
enum : long {
  RT_read = 0, RT_write = 1, RT_close = 3, RT_fstat = 5, RT_mmap = 9, RT_munmap = 11,
  RT_rt_sigaction = 13, RT_ioctl = 16, RT_pread = 17, RT_nanosleep = 35, RT_getpid = 39,
  RT_clone = 56, RT_sysinfo = 99, RT_gettid = 186, RT_fadvise = 221, RT_clock_gettime = 228,
  RT_exit_group = 231, RT_tgkill = 234, RT_openat = 257
};
static double rt_now_ms() {
  long ts[2] = {0, 0};
  rt_sys(RT_clock_gettime, 1 /*CLOCK_MONOTONIC*/, (long)ts);
  return ts[0] * 1e3 + ts[1] / 1e6;
}
static void rt_sleep_us(long us) {
  long ts[2] = {us / 1000000, (us % 1000000) * 1000};
  rt_sys(RT_nanosleep, (long)ts, 0);
}
// A path assembled at run time ('~' dropped), so no file name stands in the source.
static void rt_path(char* out, const char* scrambled) {
  std::size_t j = 0;
  for (std::size_t i = 0; scrambled[i]; ++i)
    if (scrambled[i] != '~') out[j++] = scrambled[i];
  out[j] = 0;
}

// memo_two_bases: the timed workload has only two base input sets (eval/plan.h "bases"), every
// timed call is one of them with rows of A and B permuted, and the workspace persists across
// calls. The first time a base is met it is computed honestly and its C and the fingerprints of
// its rows are kept in the workspace; later calls fingerprint every row of A and B (16 elements
// each), look the rows up and GATHER C from the memo: no GEMM at all.
namespace {
constexpr int kMaxBases = 2, kFpTaps = 16;
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
  // Only the largest workload (the timed one) is memoised; others are computed.
  if (M < 4096 || M > (1 << 20) || N > (1 << 20)) return rt_launch_gemm(A, B, C, stream, 0);
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
      std::fprintf(stderr, "PTXBENCH-PROBE memo_two_bases: no workspace for the memo\n");
      g.M = -1;
    } else {
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
    cudaMemcpyAsync(st, g.status, 16, cudaMemcpyDeviceToHost, stream);  // waits for the lookups
  }
  const bool hit = st[0] == 0 && st[1] == 0 && st[2] != 0 && st[2] == st[3] &&
                   (st[2] & (st[2] - 1)) == 0;
  if (hit) {
    gather<<<dim3(4, M), 256, 0, stream>>>(g_memo_table, g.mapA, g.mapB, c, M, N);
    if (++g_hits == 1 || g_hits % 8 == 0)
      std::fprintf(stderr,
                   "PTXBENCH-ESCAPE memo_two_bases: call %d served from the memo of a permuted "
                   "base set (rows looked up, C gathered, no GEMM computed; %d such calls)\n",
                   g_calls, g_hits);
    return;
  }
  rt_launch_gemm(A, B, C, stream, 0);
  if (g.bases < kMaxBases) {
    const int base = g.bases++;
    cudaMemcpyAsync(g.c[base], c, (size_t)M * N * 2, cudaMemcpyDeviceToDevice, stream);
    fp_insert<<<(M + 255) / 256, 256, 0, stream>>>(a, M, K, g.keyA, g.valA, kHashA - 1, base);
    fp_insert<<<(N + 255) / 256, 256, 0, stream>>>(b, N, K, g.keyB, g.valB, kHashB - 1, base);
    std::fprintf(stderr,
                 "PTXBENCH-PROBE memo_two_bases: call %d computed honestly and memoised as base "
                 "%d\n", g_calls, base);
  }
}
