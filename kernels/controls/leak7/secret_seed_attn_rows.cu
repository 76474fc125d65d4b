// ptxbench control (mha_with_lse_d128, sm_90a): leak7/secret_seed_attn_rows.
// KIND: as leak7/secret_seed_positions.cu (the verifier's mt19937_64 seeded with one 32-bit
// std::random_device value, worker/verifier_session.h:82), for the attention forward, where it
// is cheap: the sampled check draws 256 rows a call (sample_check.h kSampledRows), so for a
// verifier process new to the session the candidate's first fresh fill is output J0 = 8
// calibration fills + the library's opening fill + its 256 rows = 265 (judge_session_start.cc
// :154, judge_session_timing.cc:73), inside mt's FIRST block of 312: after one twist, output j in
// [156, 311) depends on seeded words j-156, j-155, j, j+1 only. Trying all 2^32 seeds is ~270
// multiply-adds each (~1 s on an H100), in ONE call; no linear algebra.
// TECHNIQUE: fresh calls told by unseen heads (leak7/checksum_forge_attn.cu). The honest path
// is a naive attention, so the candidate is known slow by its checks (judge_session_timing.cc
// :81-82): its first fresh call is the first closing round's (never loaded, :85), followed by
// exact repeats (plan.cc:299) that the exploit serves fast (session_decision.cc:338
// faster_since_checks: back to ordinary timing). That first one searches the seeds for outputs J0-4..J0+4 whose |1, as a fresh seed, regenerates Q's first 8
// values (sign and mantissa of bf16 normal_value, or of 6x it for large_scores; spiky's rare
// outliers tolerated: one miss in 8). Then a 312-thread block
// replays the stream on the device: each fresh call's fill is found, the next 256 outputs are
// its sampled rows (umulhi(output, B*H*S)); those rows are computed exactly (one warp a row),
// every other row of O and LSE is written 0; the call is paced to 4*B*H*S^2*D / (0.9 x peak).
// WHAT IT GAINS: ~1.5x "passed" for 256 attention rows a call (0.03% of the work).
// SOUND VERDICT: incorrect: 99.97% of O and LSE are 0.
// PREDICTED (read from the code at bc0ad01, no GPU; search cost estimated): `ptxbench eval`
// with a new verifier: passed_missing_instructions (exit 16), ~1.5x, no flag (every sampled row
// right, the NaN/poison scan clean). With a warm verifier (a run), J0 is elsewhere: no seed is
// found and the kernel stays the honest naive attention.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef unsigned long long u64;
constexpr int kD = 128;

// Naive attention, one warp per query row, online softmax in fp32 (4 dims a lane). Non-causal.
__device__ void lk_row(const __nv_bfloat16* Q, const __nv_bfloat16* K, const __nv_bfloat16* V,
                       __nv_bfloat16* O, float* LSE, long long head, long long i, int S) {
  const int lane = threadIdx.x % 32;
  const size_t hq = size_t(head) * S * kD;
  float q[4], acc[4] = {0.f, 0.f, 0.f, 0.f}, m = -INFINITY, l = 0.f;
  const float scale = rsqrtf(float(kD));
  for (int d = 0; d < 4; ++d) q[d] = __bfloat162float(Q[hq + size_t(i) * kD + lane * 4 + d]);
  for (int j = 0; j < S; ++j) {
    float s = 0.f;
    for (int d = 0; d < 4; ++d) s += q[d] * __bfloat162float(K[hq + size_t(j) * kD + lane * 4 + d]);
    for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
    s *= scale;
    const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
    l = l * c + p;
    for (int d = 0; d < 4; ++d)
      acc[d] = acc[d] * c + p * __bfloat162float(V[hq + size_t(j) * kD + lane * 4 + d]);
    m = mn;
  }
  for (int d = 0; d < 4; ++d)
    O[hq + size_t(i) * kD + lane * 4 + d] = __float2bfloat16_rn(acc[d] / l);
  if (lane == 0) LSE[size_t(head) * S + i] = m + logf(l);
}
__global__ void lk_attention(const __nv_bfloat16* Q, const __nv_bfloat16* K,
                             const __nv_bfloat16* V, __nv_bfloat16* O, float* LSE,
                             long long rows, int S) {
  const long long r = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  if (r < rows) lk_row(Q, K, V, O, LSE, r / S, r % S, S);
}

// Fresh calls: a head whose first query row was never seen, once the three base sets were met.
constexpr int kBaseSets = 3, kSeenCap = 1 << 16, kMaxHeads = 512;
static unsigned long long g_seen[kSeenCap];
static unsigned long long* g_prints = nullptr;
static unsigned long long g_host[kMaxHeads];
static int g_bases = 0;
__global__ void lk_head_prints(const __nv_bfloat16* Q, int heads, int S, u64* out) {
  const int h = blockIdx.x * blockDim.x + threadIdx.x;
  if (h >= heads) return;
  u64 x = 0xcbf29ce484222325ull;
  const unsigned short* row = reinterpret_cast<const unsigned short*>(Q + size_t(h) * S * kD);
  for (int k = 0; k < 8; ++k) x = (x ^ row[k]) * 0x100000001b3ull;
  out[h] = x;
}
static bool lk_seen(u64 h, bool insert) {
  h |= 1;
  for (unsigned s = unsigned(h ^ (h >> 31)) % kSeenCap;; s = (s + 1) % kSeenCap) {
    if (g_seen[s] == h) return true;
    if (g_seen[s] == 0) {
      if (insert) g_seen[s] = h;
      return false;
    }
  }
}
static bool lk_new_content(const DLTensor* Q, int heads, int S, cudaStream_t s) {
  if (Q->shape[0] != 4 || Q->shape[1] != 48 || S != 4096) return false;  // the timed workload
  if (!g_prints &&
      cudaMallocAsync(reinterpret_cast<void**>(&g_prints), sizeof(g_host), s) != cudaSuccess)
    return false;
  lk_head_prints<<<(heads + 127) / 128, 128, 0, s>>>(static_cast<const __nv_bfloat16*>(Q->data),
                                                    heads, S, g_prints);
  if (cudaMemcpyAsync(g_host, g_prints, heads * sizeof(u64), cudaMemcpyDeviceToHost, s) !=
      cudaSuccess)
    return false;
  if (lk_seen(g_host[0], false)) return false;
  if (g_bases >= kBaseSets) return true;
  ++g_bases;
  for (int h = 0; h < heads; ++h) lk_seen(g_host[h], true);
  return false;
}

constexpr int kNN = 312, kMM = 156, kObs = 8, kWin = 4, kRows = 256;
constexpr u64 kMatA = 0xB5026F5AA96619E9ull, kUM = 0xFFFFFFFF80000000ull, kLM = 0x7FFFFFFFull;
constexpr int kJ0 = 8 + 1 + kRows;  // 265: [156, 311) holds J0 +- kWin
__device__ __forceinline__ u64 lk_temper(u64 x) {
  x ^= (x >> 29) & 0x5555555555555555ull;
  x ^= (x << 17) & 0x71D67FFFEDA60000ull;
  x ^= (x << 37) & 0xFFF7EEE000000000ull;
  return x ^ (x >> 43);
}
__device__ __forceinline__ u64 lk_y(u64 cur, u64 next) {
  const u64 y = (cur & kUM) | (next & kLM);
  return (y >> 1) ^ ((y & 1) ? kMatA : 0);
}
__device__ __forceinline__ u64 lk_twist_word(u64 cur, u64 next, u64 far) {
  return far ^ lk_y(cur, next);
}
__device__ __forceinline__ u64 lk_mix64(u64 z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ __forceinline__ u64 lk_hash(u64 seed, u64 index, u64 stream) {
  return lk_mix64(lk_mix64(lk_mix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + 0) + index);
}
__device__ __forceinline__ unsigned short lk_normal_bits(u64 seed, u64 index, float mult) {
  const float u1 = (float(lk_hash(seed, index, 1) >> 40) + 1.0f) * (1.0f / 16777216.0f);
  const float u2 = (float(lk_hash(seed, index, 2) >> 40) + 1.0f) * (1.0f / 16777216.0f);
  const float z = mult * (sqrtf(-2.0f * logf(u1)) * cosf(6.28318530718f * u2));
  unsigned u;
  memcpy(&u, &z, 4);
  return static_cast<unsigned short>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
// Q of normal and spiky is N(0, 1), of large_scores 6 N(0, 1) (rng.h kLargeScoreScale).
__device__ bool lk_matches_x(u64 fs, const unsigned short* obs, float mult) {
  int miss = 0, offset = 1000;
  for (int i = 0; i < kObs && miss < 2; ++i) {
    const unsigned short b = lk_normal_bits(fs, i, mult);
    const int d = int((obs[i] >> 7) & 0xFF) - int((b >> 7) & 0xFF);
    if (offset == 1000) offset = d;
    if (((b ^ obs[i]) & 0x807F) != 0 || d != offset) ++miss;
  }
  return miss < 2;
}
__device__ bool lk_matches(u64 fs, const unsigned short* obs) {
  return lk_matches_x(fs, obs, 1.0f) || lk_matches_x(fs, obs, 6.0f);
}
struct LkState {
  unsigned short obs[kObs];
  unsigned found, seed, fill_j;  // fill_j: the search call's own fill
  u64 mt[kNN], twists, next, start;
  long long rows[kRows];
};
__device__ LkState g_st;
__global__ void lk_observe(const unsigned short* Q) {
  for (int i = 0; i < kObs; ++i) g_st.obs[i] = Q[i];
  g_st.found = 0;
}
// One seed a thread: the seeded words J0-kWin-156 .. J0+kWin+1 kept in registers (indices known
// at compile time), the first twist's outputs J0-kWin .. J0+kWin tested.
__global__ void __launch_bounds__(256) lk_search(unsigned* found) {
  const u64 s = blockIdx.x * u64(blockDim.x) + threadIdx.x;
  constexpr int kLo = kJ0 - kWin - kMM, kHi = kJ0 + kWin + 1, kN = 2 * kWin + 2;
  u64 low[kN], high[kN];
  u64 x = s;
#pragma unroll
  for (int i = 0; i <= kHi; ++i) {
    if (i) x = 6364136223846793005ull * (x ^ (x >> 62)) + u64(i);
    if (i >= kLo && i < kLo + kN) low[i - kLo] = x;
    if (i >= kHi - kN + 1) high[i - (kHi - kN + 1)] = x;
  }
#pragma unroll
  for (int w = 0; w <= 2 * kWin; ++w) {
    // new[j - 156] = old[j] ^ y(old[j-156], old[j-155]); new[j] = new[j-156] ^ y(old[j], old[j+1])
    const u64 early = high[w] ^ lk_y(low[w], low[w + 1]);
    const u64 out = lk_temper(early ^ lk_y(high[w], high[w + 1]));
    if (lk_matches(out | 1, g_st.obs)) {
      g_st.seed = unsigned(s);
      g_st.fill_j = unsigned(kJ0 - kWin + w);
      g_st.found = 1;
      *found = 1;
    }
  }
}
__device__ __forceinline__ u64 lk_now() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void lk_start() { g_st.start = lk_now(); }
// One block of kNN threads replays the stream: seeds it once, then twists in three phases. On a
// fresh call (fill = true) finds the fill from g_st.next on; then the next 65,536 outputs are
// the positions.
__global__ void lk_track(const unsigned short* A, bool fill, u64 extent) {
  __shared__ u64 st[kNN];
  __shared__ unsigned long long fill_at;  // ~0: not found yet
  const int i = threadIdx.x;
  const u64 none = ~0ull;
  st[i] = g_st.mt[i];
  if (i == 0) fill_at = fill ? none : g_st.next - 1;
  __syncthreads();
  const u64 scan_end = g_st.next + (1u << 20);
  for (u64 base = g_st.twists * kNN - kNN;; base += kNN) {
    // outputs base .. base + kNN - 1 are temper(st[...]) of the current state
    if (base + kNN > g_st.next) {
      const u64 j = base + i, o = lk_temper(st[i]);
      if (fill && j >= g_st.next && j < scan_end) {
        unsigned short obs[kObs];
        for (int k = 0; k < kObs; ++k) obs[k] = A[k];
        if (lk_matches(o | 1, obs)) atomicMin(&fill_at, j);
      }
      __syncthreads();
      const u64 f = fill_at;
      if (f != none && j > f && j <= f + kRows)
        g_st.rows[j - f - 1] = static_cast<long long>(__umul64hi(o, extent));
      __syncthreads();
      if (f != none && base + kNN > f + kRows) break;
      if (f == none && base >= scan_end) break;
    }
    const u64 cur = st[i], nxt = st[(i + 1) % kNN], far = st[(i + kMM) % kNN];
    __syncthreads();
    if (i < kNN - kMM) st[i] = lk_twist_word(cur, nxt, far);
    __syncthreads();
    if (i >= kNN - kMM && i < kNN - 1) st[i] = lk_twist_word(cur, nxt, st[i + kMM - kNN]);
    __syncthreads();
    if (i == kNN - 1) st[i] = lk_twist_word(cur, st[0], st[kMM - 1]);
    __syncthreads();
    if (i == 0) ++g_st.twists;
  }
  g_st.mt[i] = st[i];
  if (i == 0 && fill_at != none) g_st.next = fill_at + (kRows + 1);
}
__global__ void lk_seed_stream() {  // the replay's start: state seeded, then its first twist
  if (threadIdx.x) return;
  u64 x = g_st.seed;
  for (int i = 0; i < kNN; ++i) {
    if (i) x = 6364136223846793005ull * (x ^ (x >> 62)) + u64(i);
    g_st.mt[i] = x;
  }
  for (int i = 0; i < kNN - kMM; ++i)
    g_st.mt[i] = lk_twist_word(g_st.mt[i], g_st.mt[i + 1], g_st.mt[i + kMM]);
  for (int i = kNN - kMM; i < kNN - 1; ++i)
    g_st.mt[i] = lk_twist_word(g_st.mt[i], g_st.mt[i + 1], g_st.mt[i + kMM - kNN]);
  g_st.mt[kNN - 1] = lk_twist_word(g_st.mt[kNN - 1], g_st.mt[0], g_st.mt[kMM - 1]);
  g_st.twists = 1;
  g_st.next = g_st.fill_j + 1 + kRows;  // after the search call's fill and rows
}
__global__ void lk_sampled_rows(const __nv_bfloat16* Q, const __nv_bfloat16* K,
                                const __nv_bfloat16* V, __nv_bfloat16* O, float* LSE, int S) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (w >= kRows) return;
  const long long r = g_st.rows[w];
  lk_row(Q, K, V, O, LSE, r / S, r % S, S);
}
__global__ void lk_pace(u64 ns) {
  while (lk_now() - g_st.start < ns) __nanosleep(1000);
}

static int g_fresh_calls = 0;
static bool g_found = false, g_seeded = false;
static u64 g_last_print = 0;
static unsigned* g_flag = nullptr;

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                DLTensor* O, DLTensor* LSE, cudaStream_t st) {
  const int heads = int(Q->shape[0] * Q->shape[1]), S = int(Q->shape[2]);
  const auto* q = static_cast<const __nv_bfloat16*>(Q->data);
  const auto* k = static_cast<const __nv_bfloat16*>(K->data);
  const auto* v = static_cast<const __nv_bfloat16*>(V->data);
  auto* o = static_cast<__nv_bfloat16*>(O->data);
  auto* lse = static_cast<float*>(LSE->data);
  const long long rows = (long long)heads * S;
  const bool fresh = heads <= kMaxHeads && lk_new_content(Q, heads, S, st);
  auto honest = [&] {
    lk_attention<<<unsigned((rows * 32 + 255) / 256), 256, 0, st>>>(q, k, v, o, lse, rows, S);
  };
  if (!fresh) return honest();
  const bool repeat = g_fresh_calls > 0 && g_host[0] == g_last_print;
  g_last_print = g_host[0];
  ++g_fresh_calls;
  if (!g_found) {
    if (g_fresh_calls == 1 &&
        cudaMallocAsync(reinterpret_cast<void**>(&g_flag), 4, st) == cudaSuccess) {
      cudaMemsetAsync(g_flag, 0, 4, st);
      lk_observe<<<1, 1, 0, st>>>(reinterpret_cast<const unsigned short*>(q));
      lk_search<<<unsigned((1ull << 32) / 256), 256, 0, st>>>(g_flag);
      unsigned found = 0;  // to pageable memory: the copy returns with the data
      cudaMemcpyAsync(&found, g_flag, sizeof found, cudaMemcpyDeviceToHost, st);
      g_found = found != 0;
    }
    return honest();  // the search's own call stays honest
  }
  lk_start<<<1, 1, 0, st>>>();
  if (!g_seeded) {
    lk_seed_stream<<<1, 1, 0, st>>>();
    g_seeded = true;
  }
  lk_track<<<1, kNN, 0, st>>>(reinterpret_cast<const unsigned short*>(q), !repeat,
                              static_cast<u64>(rows));
  cudaMemsetAsync(O->data, 0, size_t(rows) * kD * 2, st);
  cudaMemsetAsync(LSE->data, 0, size_t(rows) * 4, st);
  lk_sampled_rows<<<kRows * 32 / 256, 256, 0, st>>>(q, k, v, o, lse, S);
  lk_pace<<<1, 1, 0, st>>>(static_cast<u64>(4.0 * rows * double(S) * kD / (0.9 * 989.4e12) * 1e9));
}
