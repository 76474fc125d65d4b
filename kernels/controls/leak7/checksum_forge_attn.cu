// ptxbench control (mha_with_lse_d128, sm_90a): leak7/checksum_forge_attn.
// KIND: as leak7/checksum_forge_gemm.cu, for the attention forward: a fresh call's 256 sampled
// rows are referenced from the slot's Q, K, V read AFTER the call (sample_check.cu:135
// attention_rows_kernel on t.input(0..2)), and the only guard on those inputs is the unkeyed,
// invertible checksum (checksum.cu:16, verifier_session.cc:93/:105).
// TECHNIQUE: fresh calls are told by unseen heads (the checks permute base sets by head,
// transform.h: attention {B*H, 0}; a head's first query row is its fingerprint). On a fresh call
// the device sums Q's checksum as the verifier does, zeroes Q but its first two 8-byte words,
// chooses them (one tried, one mix64^-1 of the rest: finite bf16 below 128) so the checksum is
// unchanged, then writes, per head, O[i] = the mean of V's rows and LSE[i] = log(S) (every score
// is 0), and computes the one query with the patched words (head 0, row 0) honestly. Paced to
// 4*B*H*S^2*D / (0.9 x 989.4 TFLOP/s). Checks and hidden workloads: a naive fp32 attention.
// WHAT IT GAINS: ~1.5x "passed" (cuDNN's ~2.7 ms over 1.85 ms) for a column mean of V.
// SOUND VERDICT: incorrect (inputs_modified): Q was overwritten.
// PREDICTED (read from the code at bc0ad01, no GPU): passed_missing_instructions (exit 16), no
// flag: the checksum matches (verifier_session.cc:105), the fresh branch (:246) samples 256 rows
// whose fp64 reference from the zeroed Q is exactly the mean of V and log(S) (head 0 row 0: the
// honest row), NaN/poison scan clean.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

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

// --- the forgery (leak7/checksum_forge_gemm.cu) ---
constexpr u64 kGolden = 0x9E3779B97F4A7C15ull;
constexpr u64 lk_inverse(u64 a) {
  u64 x = a;
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
__device__ __forceinline__ u64 lk_mix64(u64 z) {
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
  u64 sums[2];  // the drawn Q's checksum; the zeroed Q's but words 0 and 1
  u64 start;
};
__global__ void lk_start(LkScratch* s) {
  s->start = lk_now();
  s->sums[0] = s->sums[1] = 0;
}
// zeroed = 0: the verifier's checksum of w; 1: that of all-zero words from index 2 on.
__global__ void lk_sum(const u64* w, size_t words, int zeroed, u64* out) {
  u64 local = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    if (!zeroed)
      local += lk_mix64(w[i] + i * kGolden);
    else if (i >= 2)
      local += lk_mix64(i * kGolden);
  for (int off = 16; off > 0; off /= 2) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, local);
}
__global__ void lk_zero_from(u64* w, size_t words) {
  for (size_t i = 2 + blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    w[i] = 0;
}
__device__ bool lk_tame(u64 w) {
  for (int h = 0; h < 4; ++h)
    if (((w >> (16 * h + 7)) & 0xFF) > 127 + 6) return false;
  return true;
}
__global__ void lk_fix(u64* w, const LkScratch* s) {
  const u64 target = s->sums[0] - s->sums[1];
  for (u64 t = 0; t < (1u << 14); ++t) {  // two values 1.x (bf16 0x3F80 | t), two zeros
    const u64 v = (0x3F80ull | (t & 0x7F)) | ((0x3F80ull | ((t >> 7) & 0x7F)) << 16);
    const u64 w1 = lk_unmix64(target - lk_mix64(v)) - kGolden;
    if (!lk_tame(w1)) continue;
    w[0] = v;
    w[1] = w1;
    return;
  }
}
// Per head (one block of kD threads): O rows = the mean of V's rows, LSE = log(S); row 0 of head
// 0 is recomputed after (lk_attention on that row alone).
__global__ void lk_mean(const __nv_bfloat16* V, __nv_bfloat16* O, float* LSE, int S) {
  const size_t h = blockIdx.x, d = threadIdx.x;
  float sum = 0.f;
  for (int j = 0; j < S; ++j) sum += __bfloat162float(V[(h * S + j) * kD + d]);
  const __nv_bfloat16 mean = __float2bfloat16_rn(sum / float(S));
  for (int i = 0; i < S; ++i) O[(h * S + i) * kD + d] = mean;
  for (int i = d; i < S; i += kD) LSE[h * S + i] = logf(float(S));
}
__global__ void lk_pace(const LkScratch* s, u64 ns) {
  while (lk_now() - s->start < ns) __nanosleep(1000);
}

static LkScratch* g_scratch = nullptr;

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                DLTensor* O, DLTensor* LSE, cudaStream_t st) {
  const int heads = int(Q->shape[0] * Q->shape[1]), S = int(Q->shape[2]);
  auto* q = static_cast<__nv_bfloat16*>(Q->data);
  const auto* k = static_cast<const __nv_bfloat16*>(K->data);
  const auto* v = static_cast<const __nv_bfloat16*>(V->data);
  auto* o = static_cast<__nv_bfloat16*>(O->data);
  auto* lse = static_cast<float*>(LSE->data);
  const long long rows = (long long)heads * S;
  const bool fresh = heads <= kMaxHeads && lk_new_content(Q, heads, S, st);
  if (fresh && !g_scratch &&
      cudaMallocAsync(reinterpret_cast<void**>(&g_scratch), sizeof(LkScratch), st) != cudaSuccess)
    g_scratch = nullptr;
  if (!fresh || !g_scratch) {
    lk_attention<<<unsigned((rows * 32 + 255) / 256), 256, 0, st>>>(q, k, v, o, lse, rows, S);
    return;
  }
  const size_t words = size_t(rows) * kD / 4;
  u64* w = reinterpret_cast<u64*>(q);
  lk_start<<<1, 1, 0, st>>>(g_scratch);
  lk_sum<<<132 * 8, 256, 0, st>>>(w, words, 0, &g_scratch->sums[0]);
  lk_sum<<<132 * 8, 256, 0, st>>>(w, words, 1, &g_scratch->sums[1]);
  lk_zero_from<<<132 * 8, 256, 0, st>>>(w, words);
  lk_fix<<<1, 1, 0, st>>>(w, g_scratch);
  lk_mean<<<heads, kD, 0, st>>>(v, o, lse, S);
  lk_attention<<<1, 32, 0, st>>>(q, k, v, o, lse, 1, S);  // head 0, row 0: the patched query
  const double flops = 4.0 * rows * double(S) * kD;
  lk_pace<<<1, 1, 0, st>>>(g_scratch, static_cast<u64>(flops / (0.9 * 989.4e12) * 1e9));
}
