// ptxbench control (gemm_n7168_k5120, sm_90a): leak7/checksum_forge_gemm.
// KIND: the verifier trusts the inputs it finds in the slot after a fresh call. A fresh call
// (timing, loaded, audited: plan.h TimingDraw, Content::fresh) is checked at sampled positions
// against a reference computed AFTER the call from the slot's inputs, which the candidate's
// device code can write (sample_check.cu:25 and :112-113 read t.input(0/1)); the only guard that
// those inputs are the ones drawn is the input checksum (verifier_session.cc:93 before, :105
// after), an UNKEYED sum of mix64(word + index*golden) (checksum.cu:16). mix64 is the SplitMix64
// finaliser (rng.h:63): a bijection with a closed-form inverse, so two chosen words restore any
// checksum after any change of the rest.
// TECHNIQUE: on a call with unseen rows after the three base sets were met (a fresh call), the
// device (1) sums A's checksum exactly as the verifier does, (2) overwrites every row of A with
// row 0 (A becomes rank one), (3) sums the new content but two words of the last row, (4) picks
// those two words (the first: row 0's word with 14 mantissa bits tried, the second: mix64^-1 of
// what is left) so the checksum is unchanged and both hold finite bf16 below 128, (5) computes
// two GEMV rows (row 0 and the patched last row) and broadcasts row 0's result to C, (6) paces
// the call to 2MNK / (0.9 x 989.4 TFLOP/s). The checks (base sets, full comparison against the
// verifier's private references) get the honest FFMA GEMM.
// WHAT IT GAINS: a "passed" with ~1.2-1.4x (cuBLAS's ~0.8 ms over 0.675 ms) for two GEMVs: no
// GEMM in any timed call; the pace keeps F/time under 105% of peak (evaluator.cc:85 above_peak).
// SOUND VERDICT: incorrect (inputs_modified): the call changed A; C is not A*B^T of the inputs
// the verifier drew.
// PREDICTED (read from the code at bc0ad01, no GPU): passed_missing_instructions (exit 16, no
// wgmma in any audited call) with speedup ~1.3x and no flag: the after-checksum equals the
// before-checksum (verifier_session.cc:105, no inputs_modified), compare_with takes the fresh
// branch (verifier_session.cc:246) and samples C against fp64 dots of the forged A (exact up to
// fp32 rounding: every sampled element passes, rel_l2 ~1e-7, scale_bias ~0); the full NaN and
// poison scan finds none; the repeats (Content::repeat keeps the forged slot) are forged alike.
// The library is timed on its private sets (verifier_library.cc:59), so its time is honest.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (fresh/unsafe_on_new_rows.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile, n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
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

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  lk_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

// Is this timed-workload call's content new? Row fingerprints of A read back (as
// fresh/unsafe_on_new_rows.cu): rows met before are a base set permuted (a check), unseen rows are
// a base set met for the first time while fewer than 3 were met (the checks' first encounters),
// else inputs the verifier drew fresh (timing, loaded, audited calls: checked by sampling).
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
static unsigned long long g_seen[kSeenCap];
static unsigned long long* g_prints = nullptr;
static unsigned long long g_host[kTimedM];
static int g_bases = 0;
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
static bool lk_new_content(const DLTensor* A, cudaStream_t s) {
  const int M = int(A->shape[0]), K = int(A->shape[1]);
  if (M != kTimedM) return false;
  if (!g_prints && cudaMallocAsync(reinterpret_cast<void**>(&g_prints), sizeof(g_host), s) !=
                       cudaSuccess)
    return false;
  lk_row_prints<<<(M + 255) / 256, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(A->data), M, K,
                                                g_prints);
  if (cudaMemcpyAsync(g_host, g_prints, sizeof(g_host), cudaMemcpyDeviceToHost, s) != cudaSuccess)
    return false;
  if (lk_seen(g_host[0], false)) return false;
  if (g_bases >= kBaseSets) return true;
  ++g_bases;
  for (int r = 0; r < M; ++r) lk_seen(g_host[r], true);
  return false;
}

// --- the forgery ---
typedef unsigned long long u64;
constexpr u64 kGolden = 0x9E3779B97F4A7C15ull;
constexpr u64 lk_inverse(u64 a) {  // a^-1 mod 2^64 for odd a (Newton: 3 -> 96 correct bits)
  u64 x = a;
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
__device__ __forceinline__ u64 lk_mix64(u64 z) {  // rng.h mix64, as the verifier's checksum uses
  z += kGolden;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ __forceinline__ u64 lk_unmix64(u64 z) {
  z = z ^ (z >> 31) ^ (z >> 62);
  z *= lk_inverse(0x94D049BB133111EBull);
  z = z ^ (z >> 27) ^ (z >> 54);
  z *= lk_inverse(0xBF58476D1CE4E5B9ull);
  z = z ^ (z >> 30) ^ (z >> 60);
  return z - kGolden;
}
__device__ __forceinline__ u64 lk_now() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

struct LkScratch {
  u64 sums[2];  // the drawn A's checksum, the forged A's without the two patch words
  u64 start;
  float rows[2][7168];
};

__global__ void lk_start(LkScratch* s) {
  s->start = lk_now();
  s->sums[0] = s->sums[1] = 0;
}
// The verifier's checksum of A (checksum.cu), or with `row_words` > 0 the checksum of A with every
// row replaced by row 0, less words p0 and p1.
__global__ void lk_sum(const u64* w, size_t words, size_t row_words, size_t p0, size_t p1,
                       u64* out) {
  u64 local = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x) {
    if (row_words == 0)
      local += lk_mix64(w[i] + i * kGolden);
    else if (i != p0 && i != p1)
      local += lk_mix64(w[i % row_words] + i * kGolden);
  }
  for (int off = 16; off > 0; off /= 2) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, local);
}
__global__ void lk_broadcast(u64* w, size_t words, size_t row_words) {
  for (size_t i = row_words + blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    w[i] = w[i % row_words];
}
__device__ bool lk_tame(u64 w) {  // four finite bf16 below 128 in magnitude
  for (int h = 0; h < 4; ++h)
    if (((w >> (16 * h + 7)) & 0xFF) > 127 + 6) return false;
  return true;
}
__global__ void lk_fix(u64* w, size_t p0, size_t p1, const LkScratch* s) {
  const u64 target = s->sums[0] - s->sums[1];
  const u64 base = w[p0];
  for (u64 t = 0; t < (1u << 14); ++t) {
    const u64 v = (base & ~0x007F007Full) | (t & 0x7F) | (((t >> 7) & 0x7F) << 16);
    const u64 w1 = lk_unmix64(target - lk_mix64(v + p0 * kGolden)) - p1 * kGolden;
    if (!lk_tame(w1)) continue;
    w[p0] = v;
    w[p1] = w1;
    return;
  }
}
// One warp per n: rows[r][n] = A[row] . B[n] in fp32.
__global__ void lk_gemv(const __nv_bfloat16* A, const __nv_bfloat16* B, int N, int K, int row,
                        float* out) {
  const int n = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (n >= N) return;
  float acc = 0.f;
  for (int k = lane; k < K; k += 32)
    acc = fmaf(__bfloat162float(A[size_t(row) * K + k]), __bfloat162float(B[size_t(n) * K + k]),
               acc);
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) out[n] = acc;
}
__global__ void lk_write(__nv_bfloat16* C, const LkScratch* s, int M, int N) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < size_t(M) * N;
       i += size_t(gridDim.x) * blockDim.x) {
    const size_t m = i / N, n = i % N;
    C[i] = __float2bfloat16_rn(s->rows[m == size_t(M) - 1 ? 1 : 0][n]);
  }
}
__global__ void lk_pace(const LkScratch* s, u64 ns) {
  while (lk_now() - s->start < ns) __nanosleep(1000);
}

static LkScratch* g_scratch = nullptr;

static void lk_forge(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t st) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  u64* w = static_cast<u64*>(At->data);
  const size_t words = size_t(M) * K / 4, row_words = size_t(K) / 4;
  const size_t p0 = (size_t(M) - 1) * row_words, p1 = p0 + 1;
  const __nv_bfloat16* a = static_cast<const __nv_bfloat16*>(At->data);
  const __nv_bfloat16* b = static_cast<const __nv_bfloat16*>(Bt->data);
  lk_start<<<1, 1, 0, st>>>(g_scratch);
  lk_sum<<<132 * 8, 256, 0, st>>>(w, words, 0, 0, 0, &g_scratch->sums[0]);
  lk_broadcast<<<132 * 8, 256, 0, st>>>(w, words, row_words);
  lk_sum<<<132 * 8, 256, 0, st>>>(w, words, row_words, p0, p1, &g_scratch->sums[1]);
  lk_fix<<<1, 1, 0, st>>>(w, p0, p1, g_scratch);
  lk_gemv<<<(N * 32 + 255) / 256, 256, 0, st>>>(a, b, N, K, 0, g_scratch->rows[0]);
  lk_gemv<<<(N * 32 + 255) / 256, 256, 0, st>>>(a, b, N, K, M - 1, g_scratch->rows[1]);
  lk_write<<<132 * 8, 256, 0, st>>>(static_cast<__nv_bfloat16*>(Ct->data), g_scratch, M, N);
  const double flops = 2.0 * M * double(N) * K;
  lk_pace<<<1, 1, 0, st>>>(g_scratch, static_cast<u64>(flops / (0.9 * 989.4e12) * 1e9));
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const bool fresh = lk_new_content(A, stream);
  if (fresh && !g_scratch &&
      cudaMallocAsync(reinterpret_cast<void**>(&g_scratch), sizeof(LkScratch), stream) !=
          cudaSuccess)
    g_scratch = nullptr;
  if (fresh && g_scratch && B->shape[0] == 7168)
    lk_forge(A, B, C, stream);
  else
    lk_launch_gemm(A, B, C, stream);
}
