// ptxbench control (gemm_n7168_k5120, sm_90a): leak7/secret_seed_positions.
// KIND: the verifier's secret is a 32-bit secret. The fresh inputs' seeds and the sampled
// positions all come from one std::mt19937_64 seeded with ONE std::random_device{}() value
// (worker/verifier_session.h:82: result_type unsigned int, 2^32 streams), shared by the fill
// (verifier_session.cc:234, fresh_seed = secret() | 1) and the positions drawn after the call
// (sample_check.cu draw_positions: uniform_int_distribution, libstdc++ 12's Lemire step, one
// output each: position = umulhi(output, M*N)). mt19937_64's twist and tempering are linear over
// GF(2), so output j of the stream is a fixed 64 x 19968 bit matrix L_j times the seeded state,
// and a GPU tries all 2^32 seeds in ~12 s (312 64-bit multiply-adds and 64 x 312 AND/XOR each).
// TECHNIQUE: fresh calls are told by unseen rows (as fresh/unsafe_on_new_rows.cu). On the first
// one (index J0 = 8 calibration fills + the library's opening fill and its 65,536 positions =
// 65545 for a verifier process new to this session: judge_session_start.cc:154 calibrate, then
// judge_session_timing.cc:73 next_library, checked by sampling) the device builds L_J0 and keeps
// A's first 8 values, then tries all 2^32 seeds in that one call (est. ~8-15 s of an H100's
// 20 s call limit: LDS-bound, 312 x 64 AND/XOR a seed; the call's output is the honest GEMM).
// The honest path is the FFMA GEMM, so the candidate is known slow by its checks
// (judge_session_timing.cc:81-82) and its first fresh call is the first closing round's, which
// is never loaded (:85) and is followed by exact repeats (plan.cc:299), served fast, so
// faster_since_checks (session_decision.cc:338) sends it back to ordinary timing. A
// seed whose stream at J0, |1, regenerates those values (sign and mantissa of bf16 normal_value,
// one exponent offset: normal, wide_range and near_cancel alike) is the verifier's. From then on
// a 312-thread block replays the stream on the device: on each fresh call it finds the fill
// (scanning forward: the audits' and other brokers' draws are skipped), reads the next 65,536
// outputs as this call's positions (a repeat: the next 65,536 without a fill), computes exactly
// those elements of C (fp32 dots), writes 0 everywhere else and paces the call to 2MNK / (0.9 x
// 989.4 TFLOP/s).
// WHAT IT GAINS: ~1.3x "passed" for 65,536 dot products a call (0.1% of the GEMM).
// SOUND VERDICT: incorrect: 99.9% of C is 0.
// PREDICTED (read from the code at bc0ad01, no GPU; the seed search's cost is estimated): for
// `ptxbench eval` with a new verifier process: passed_missing_instructions (exit 16), speedup
// ~1.3x, no flag: every sampled element is right, the NaN/poison scan finds none, rel_l2 and
// scale_bias are over the sample (compare.cu:224-227); timeout instead if the search needs
// more than the 20 s call limit (evaluator.h:57) on the card. With a warm verifier (a run) J0 is unknown
// and the search finds nothing: the kernel stays the honest FFMA GEMM (passed, slow).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

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

typedef unsigned long long u64;
constexpr int kNN = 312, kMM = 156;
constexpr u64 kMatA = 0xB5026F5AA96619E9ull, kUM = 0xFFFFFFFF80000000ull, kLM = 0x7FFFFFFFull;
constexpr u64 kJ0 = 8 + 1 + 65536;  // the first fresh candidate call's fill (header)
constexpr int kObs = 8;

__device__ __forceinline__ u64 lk_temper(u64 x) {
  x ^= (x >> 29) & 0x5555555555555555ull;
  x ^= (x << 17) & 0x71D67FFFEDA60000ull;
  x ^= (x << 37) & 0xFFF7EEE000000000ull;
  return x ^ (x >> 43);
}
__device__ __forceinline__ u64 lk_twist_word(u64 cur, u64 next, u64 far) {
  const u64 y = (cur & kUM) | (next & kLM);
  return far ^ (y >> 1) ^ ((y & 1) ? kMatA : 0);
}
// rng.h's counter hash, normal_value and bf16 rounding, as the verifier's fill computes them.
__device__ __forceinline__ u64 lk_mix64(u64 z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ __forceinline__ u64 lk_hash(u64 seed, u64 tensor, u64 index, u64 stream) {
  return lk_mix64(lk_mix64(lk_mix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + tensor) + index);
}
__device__ __forceinline__ unsigned short lk_normal_bits(u64 seed, u64 index) {
  const float u1 = (float(lk_hash(seed, 0, index, 1) >> 40) + 1.0f) * (1.0f / 16777216.0f);
  const float u2 = (float(lk_hash(seed, 0, index, 2) >> 40) + 1.0f) * (1.0f / 16777216.0f);
  const float z = sqrtf(-2.0f * logf(u1)) * cosf(6.28318530718f * u2);
  unsigned u;
  memcpy(&u, &z, 4);
  return static_cast<unsigned short>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
// Do A's first values come from fresh seed `fs`? Sign and mantissa equal, one exponent offset
// (wide_range scales row 0 by a power of two, near_cancel by 16); one miss of kObs allowed.
__device__ bool lk_matches(u64 fs, const unsigned short* obs) {
  int miss = 0, offset = 1000;
  for (int i = 0; i < kObs && miss < 2; ++i) {
    const unsigned short b = lk_normal_bits(fs, i);
    const int d = int((obs[i] >> 7) & 0xFF) - int((b >> 7) & 0xFF);
    if (offset == 1000) offset = d;
    if (((b ^ obs[i]) & 0x807F) != 0 || d != offset) ++miss;
  }
  return miss < 2;
}

struct LkState {
  unsigned short obs[kObs];  // the first fresh call's A[0..7]
  u64 L[kNN][64];            // output J0's bit k = parity over words i of L[i][k] & word i
  unsigned found;            // a seed was found
  unsigned seed;
  u64 mt[kNN];  // the replayed stream: state after `twists` twists
  u64 twists;
  u64 next;                  // the next output index not yet accounted for
  u64 start;
  long long pos[65536];
};
__device__ LkState g_st;

__global__ void lk_observe(const unsigned short* A) {
  for (int i = 0; i < kObs; ++i) g_st.obs[i] = A[i];
}
// Column b of L: the output J0 of the stream whose seeded state is bit b alone.
__global__ void lk_columns() {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= 64 * kNN) return;
  u64 st[kNN];
  for (int i = 0; i < kNN; ++i) st[i] = 0;
  st[b / 64] = 1ull << (b % 64);
  for (u64 t = 0; t <= kJ0 / kNN; ++t) {
    for (int i = 0; i < kNN - kMM; ++i) st[i] = lk_twist_word(st[i], st[i + 1], st[i + kMM]);
    for (int i = kNN - kMM; i < kNN - 1; ++i)
      st[i] = lk_twist_word(st[i], st[i + 1], st[i + kMM - kNN]);
    st[kNN - 1] = lk_twist_word(st[kNN - 1], st[0], st[kMM - 1]);
  }
  const u64 out = lk_temper(st[kJ0 % kNN]);
  for (int k = 0; k < 64; ++k)
    if ((out >> k) & 1) atomicOr(&g_st.L[b / 64][k], 1ull << (b % 64));
}
// Seeds [lo, 2^32): persistent blocks (L copied into shared memory once a block), one seed a
// thread at a time.
__global__ void __launch_bounds__(256) lk_search(u64 lo, unsigned* found) {
  extern __shared__ u64 sl[];
  for (int i = threadIdx.x; i < 64 * kNN; i += blockDim.x) sl[i] = (&g_st.L[0][0])[i];
  __syncthreads();
  for (u64 s = lo + blockIdx.x * u64(blockDim.x) + threadIdx.x; s < (1ull << 32);
       s += u64(gridDim.x) * blockDim.x) {
    u64 acc[64];
#pragma unroll
    for (int k = 0; k < 64; ++k) acc[k] = 0;
    u64 x = s;
    for (int i = 0; i < kNN; ++i) {
      if (i) x = 6364136223846793005ull * (x ^ (x >> 62)) + u64(i);
#pragma unroll
      for (int k = 0; k < 64; ++k) acc[k] ^= x & sl[i * 64 + k];  // 16-byte loads, broadcast
    }
    u64 out = 0;
#pragma unroll
    for (int k = 0; k < 64; ++k) out |= u64(__popcll(acc[k]) & 1) << k;
    if (lk_matches(out | 1, g_st.obs)) {
      g_st.seed = unsigned(s);
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
  const u64 scan_end = g_st.next + (1u << 21);
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
      if (f != none && j > f && j <= f + 65536)
        g_st.pos[j - f - 1] = static_cast<long long>(__umul64hi(o, extent));
      __syncthreads();
      if (f != none && base + kNN > f + 65536) break;
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
  if (i == 0 && fill_at != none) g_st.next = fill_at + 65537;
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
  g_st.next = kJ0 + 65537;  // after the search call's own fill and positions
}
// One warp per sampled position: C[p] = A[m] . B[n].
__global__ void lk_samples(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                           int N, int K) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (w >= 65536) return;
  const long long p = g_st.pos[w];
  const long long m = p / N, n = p % N;
  float acc = 0.f;
  for (int k = lane; k < K; k += 32)
    acc = fmaf(__bfloat162float(A[m * K + k]), __bfloat162float(B[n * K + k]), acc);
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) C[p] = __float2bfloat16_rn(acc);
}
__global__ void lk_pace(u64 ns) {
  while (lk_now() - g_st.start < ns) __nanosleep(1000);
}

static int g_fresh_calls = 0;
static unsigned* g_flag = nullptr;  // workspace: a copy of g_st.found the host reads back
static bool g_found = false, g_seeded = false;
static unsigned long long g_last_print = 0;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const bool fresh = lk_new_content(A, stream);
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const auto* a16 = static_cast<const unsigned short*>(A->data);
  if (!fresh) return lk_launch_gemm(A, B, C, stream);
  const bool repeat = g_fresh_calls > 0 && g_host[0] == g_last_print;
  g_last_print = g_host[0];
  if (!g_found) {
    // The search, all 2^32 seeds, in the first fresh call only: for this FFMA candidate (known
    // slow by its checks) that is the first closing round's call, never loaded
    // (judge_session_timing.cc:85 `!closing`), and its repeats come next (plan.cc:299).
    if (g_fresh_calls == 0 &&
        cudaMallocAsync(reinterpret_cast<void**>(&g_flag), 4, stream) == cudaSuccess) {
      cudaMemsetAsync(g_flag, 0, 4, stream);
      lk_observe<<<1, 1, 0, stream>>>(a16);
      lk_columns<<<(64 * kNN + 127) / 128, 128, 0, stream>>>();
      cudaFuncSetAttribute(lk_search, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * kNN * 8);
      int dev = 0, sms = 132;
      cudaGetDevice(&dev);
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
      lk_search<<<unsigned(sms), 256, 64 * kNN * 8, stream>>>(0, g_flag);
      unsigned found = 0;  // to pageable memory: the copy returns with the data
      cudaMemcpyAsync(&found, g_flag, sizeof found, cudaMemcpyDeviceToHost, stream);
      g_found = found != 0;
    }
    ++g_fresh_calls;
    return lk_launch_gemm(A, B, C, stream);  // this call: honest
  }
  ++g_fresh_calls;
  lk_start<<<1, 1, 0, stream>>>();
  if (!g_seeded) {
    lk_seed_stream<<<1, 1, 0, stream>>>();
    g_seeded = true;
  }
  lk_track<<<1, kNN, 0, stream>>>(a16, !repeat, static_cast<u64>(M) * N);
  cudaMemsetAsync(C->data, 0, size_t(M) * N * 2, stream);
  lk_samples<<<65536 * 32 / 256, 256, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
      static_cast<__nv_bfloat16*>(C->data), N, K);
  lk_pace<<<1, 1, 0, stream>>>(static_cast<u64>(2.0 * M * double(N) * K / (0.9 * 989.4e12) * 1e9));
}
