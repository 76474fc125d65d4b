// ptxbench control (mha_with_lse_d128, sm_90a): listed_shapes_fwd.
// Issue 34, kind 1 (hidden shapes are public), attention flavour: correct only for the (B, H, S)
// of the workloads the task file used to list (timed 4x48x4096; hidden 2x8x1024, 1x4x2048,
// 1x3x256, 3x5x384). Those five shapes have a "tuned" entry and run a tiled fp32 kernel (64-query
// blocks, shared-memory slices, online softmax with the running maximum: correct). Every other
// shape falls back to a simple warp-per-row kernel that nobody ran, since no workload reached it:
// its O is right, but its LSE leaves out the running maximum (log l instead of m + log l), so
// every LSE element is off by the row's largest scaled score (about 2-4 for normal inputs).
// Expected: incorrect in a session that draws at least one attention shape outside that list from
// the task's promise (any B, H; S a multiple of 128: issue 34 item 1); today (listed shapes only)
// passed. No target instruction (wgmma, tma absent).
// CPU emulation: right at 1x3x256; LSE wrong on every row at 2x1x128 (the fallback).

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

namespace {

constexpr int kD = 128;              // head dimension of the task
constexpr bool kCausal = false;  // key j is masked for query i when j > i
constexpr int kTile = 64;          // queries per block; keys per step of the key loop
constexpr int kThreads = 256;      // 16 x 16 threads; thread (ty, tx) holds queries ty*4+i, keys tx*4+j
constexpr int kDC = 32;            // head dimensions per staged slice of Q and K
constexpr int kVC = 16;            // keys per staged slice of V
constexpr int kPitch = kTile + 4;  // float4-aligned rows
constexpr int kCols = kD / 16;     // output columns per thread: d = tx + 16 c
static_assert(kD % kDC == 0 && kD % 16 == 0, "head dimension");

// 34.8 KB at D = 256: the Q/K slices and the V slice are never live at the same time.
struct Smem {
  union {
    struct {
      float q[kDC][kPitch];  // [dim][query]
      float k[kDC][kPitch];  // [dim][key]
    } qk;
    float v[kVC][kD];  // [key][dim]
  } u;
  float p[kTile][kPitch];  // P transposed: [key][query]
};

__device__ __forceinline__ float2 ld2(const __nv_bfloat16* p) {
  return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(p));
}

// One block: 64 queries of one (b, h), all their keys in steps of 64. Scores and P in fp32
// (FFMA), online softmax in base 2 with the running maximum, O accumulated in fp32.
__global__ void __launch_bounds__(kThreads)
    attn_fwd(const __nv_bfloat16* __restrict__ Q, const __nv_bfloat16* __restrict__ K,
             const __nv_bfloat16* __restrict__ V, __nv_bfloat16* __restrict__ O,
             float* __restrict__ LSE, int seq, int tiles_per_head) {
  __shared__ __align__(16) Smem sm;
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const long long head = blockIdx.x / tiles_per_head;
  const int qt = blockIdx.x % tiles_per_head;
  const long long base = head * seq * kD;
  const __nv_bfloat16* q = Q + base + static_cast<long long>(qt) * kTile * kD;
  const float sl2 = rsqrtf(static_cast<float>(kD)) * 1.4426950408889634f;  // scale * log2(e)
  float m[4], l[4], acc[4][kCols];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    m[i] = -INFINITY;
    l[i] = 0.f;
#pragma unroll
    for (int c = 0; c < kCols; ++c) acc[i][c] = 0.f;
  }
  const int n_kt = kCausal ? qt + 1 : tiles_per_head;
  for (int kt = 0; kt < n_kt; ++kt) {
    const __nv_bfloat16* kb = K + base + static_cast<long long>(kt) * kTile * kD;
    float s[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) s[i][j] = 0.f;
    for (int d0 = 0; d0 < kD; d0 += kDC) {
      for (int e = tid; e < kTile * kDC / 2; e += kThreads) {
        const int r = e / (kDC / 2), dd = 2 * (e % (kDC / 2));
        const float2 a = ld2(q + r * kD + d0 + dd), b = ld2(kb + r * kD + d0 + dd);
        sm.u.qk.q[dd][r] = a.x;
        sm.u.qk.q[dd + 1][r] = a.y;
        sm.u.qk.k[dd][r] = b.x;
        sm.u.qk.k[dd + 1][r] = b.y;
      }
      __syncthreads();
#pragma unroll 8
      for (int dd = 0; dd < kDC; ++dd) {
        const float4 a4 = *reinterpret_cast<const float4*>(&sm.u.qk.q[dd][ty * 4]);
        const float4 b4 = *reinterpret_cast<const float4*>(&sm.u.qk.k[dd][tx * 4]);
        const float a[4] = {a4.x, a4.y, a4.z, a4.w}, b[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) s[i][j] = fmaf(a[i], b[j], s[i][j]);
      }
      __syncthreads();
    }
    // Online softmax: a query's 64 scores of this step are spread over the 16 lanes of a
    // half-warp (same ty), so the row maximum and sum are half-warp shuffles.
    float p[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int qi = qt * kTile + ty * 4 + i;
      float mx = -INFINITY;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        float x = s[i][j] * sl2;
        if (kCausal && kt * kTile + tx * 4 + j > qi) x = -INFINITY;
        s[i][j] = x;
        mx = fmaxf(mx, x);
      }
#pragma unroll
      for (int o = 8; o > 0; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
      const float mn = fmaxf(m[i], mx);  // finite: key 0 of the first step is never masked
      const float alpha = exp2f(m[i] - mn);
      float sum = 0.f;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        p[i][j] = exp2f(s[i][j] - mn);
        sum += p[i][j];
      }
#pragma unroll
      for (int o = 8; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
      l[i] = l[i] * alpha + sum;
      m[i] = mn;
#pragma unroll
      for (int c = 0; c < kCols; ++c) acc[i][c] *= alpha;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
      *reinterpret_cast<float4*>(&sm.p[tx * 4 + j][ty * 4]) = make_float4(p[0][j], p[1][j], p[2][j], p[3][j]);
    // O += P V, V staged kVC keys at a time (the first barrier below also publishes P).
    const __nv_bfloat16* vb = V + base + static_cast<long long>(kt) * kTile * kD;
    for (int j0 = 0; j0 < kTile; j0 += kVC) {
      for (int e = tid; e < kVC * kD / 2; e += kThreads) {
        const float2 x = ld2(vb + j0 * kD + 2 * e);
        (&sm.u.v[0][0])[2 * e] = x.x;
        (&sm.u.v[0][0])[2 * e + 1] = x.y;
      }
      __syncthreads();
#pragma unroll 4
      for (int jj = 0; jj < kVC; ++jj) {
        const float4 p4 = *reinterpret_cast<const float4*>(&sm.p[j0 + jj][ty * 4]);
        const float pr[4] = {p4.x, p4.y, p4.z, p4.w};
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
          const float vv = sm.u.v[jj][tx + 16 * c];
#pragma unroll
          for (int i = 0; i < 4; ++i) acc[i][c] = fmaf(pr[i], vv, acc[i][c]);
        }
      }
      __syncthreads();
    }
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const long long row = static_cast<long long>(qt) * kTile + ty * 4 + i;
    const float inv = 1.f / l[i];
#pragma unroll
    for (int c = 0; c < kCols; ++c) O[base + row * kD + tx + 16 * c] = __float2bfloat16_rn(acc[i][c] * inv);
    if (tx == 0) LSE[head * seq + row] = (m[i] + log2f(l[i])) * 0.6931471805599453f;  // natural log
  }
}

// Fallback for a shape without a tuned entry: one warp per query row (lane: 4 of the 128 dims).
__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}
__global__ void __launch_bounds__(128)
    attn_fwd_rowwise(const __nv_bfloat16* __restrict__ Q, const __nv_bfloat16* __restrict__ K,
                     const __nv_bfloat16* __restrict__ V, __nv_bfloat16* __restrict__ O,
                     float* __restrict__ LSE, int seq, long long rows) {
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  if (row >= rows) return;
  const int lane = threadIdx.x % 32;
  const long long head = row / seq;
  const float scale = rsqrtf(static_cast<float>(kD));
  float q[4], acc[4] = {0.f, 0.f, 0.f, 0.f};
  {
    const float2 a = ld2(Q + row * kD + lane * 4), b = ld2(Q + row * kD + lane * 4 + 2);
    q[0] = a.x, q[1] = a.y, q[2] = b.x, q[3] = b.y;
  }
  float m = -INFINITY, l = 0.f;
  for (int j = 0; j < seq; ++j) {
    const long long kr = (head * seq + j) * kD + lane * 4;
    const float2 k0 = ld2(K + kr), k1 = ld2(K + kr + 2), v0 = ld2(V + kr), v1 = ld2(V + kr + 2);
    const float s = warp_sum(q[0] * k0.x + q[1] * k0.y + q[2] * k1.x + q[3] * k1.y) * scale;
    if (s > m) {
      const float c = expf(m - s);
      l *= c;
      for (int e = 0; e < 4; ++e) acc[e] *= c;
      m = s;
    }
    const float p = expf(s - m);
    l += p;
    acc[0] += p * v0.x, acc[1] += p * v0.y, acc[2] += p * v1.x, acc[3] += p * v1.y;
  }
  for (int e = 0; e < 4; ++e) O[row * kD + lane * 4 + e] = __float2bfloat16_rn(acc[e] / l);
  if (lane == 0) LSE[row] = logf(l);  // the bug: m + logf(l)
}

struct Tuned {
  long long b, h, s;
};
// The workloads of tasks/attention_fwd/mha_with_lse_d128.toml (timed, then hidden).
constexpr Tuned kTuned[] = {{4, 48, 4096}, {2, 8, 1024}, {1, 4, 2048}, {1, 3, 256}, {3, 5, 384}};

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O,
                                DLTensor* LSE, cudaStream_t stream) {
  const long long b = Q->shape[0], h = Q->shape[1], heads = b * h;
  const int seq = static_cast<int>(Q->shape[2]);
  const auto* q = static_cast<const __nv_bfloat16*>(Q->data);
  const auto* k = static_cast<const __nv_bfloat16*>(K->data);
  const auto* v = static_cast<const __nv_bfloat16*>(V->data);
  auto* o = static_cast<__nv_bfloat16*>(O->data);
  auto* lse = static_cast<float*>(LSE->data);
  for (const Tuned& t : kTuned)
    if (t.b == b && t.h == h && t.s == seq) {
      const int tiles = seq / kTile;
      attn_fwd<<<static_cast<unsigned>(heads * tiles), kThreads, 0, stream>>>(q, k, v, o, lse, seq, tiles);
      return;
    }
  const long long rows = heads * seq;
  attn_fwd_rowwise<<<static_cast<unsigned>((rows + 3) / 4), 128, 0, stream>>>(q, k, v, o, lse, seq, rows);
}
