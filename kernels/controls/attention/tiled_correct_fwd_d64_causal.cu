// ptxbench control (mha_with_lse_d64_causal, sm_90a): tiled_correct_fwd_d64_causal.
// Issue 34, item 7 ("every task is judged"): a correct kernel for an extended attention task that
// no candidate had been judged on. Plain CUDA with fp32 arithmetic throughout (FFMA and MUFU, no tensor
// cores): a block of 256 threads takes 64 queries of one (b, h); Q K^T for 64 keys at a time from
// shared-memory slices (each thread a 4 x 4 block of scores), online softmax in base 2 with the
// running maximum (so every exponent is <= 0, whatever the scale of the scores), O += P V from
// staged slices of V, LSE = m + log(l); causal: only the key tiles up to the diagonal, keys j > i masked in it.
// Correct for every shape the task promises: any B and H (B*H*S/64 blocks), any S that is a
// multiple of 64 (the task promises a multiple of 128); D = 64 is fixed by the task.
// Cost: 4*B*H*S^2*D = 0.8e12 FLOP (about half of it: causal) at the timed shape (B=4, H=48, S=4096); at a
// plausible 5-20 TFLOP/s of fp32 FFMA that is well under a second a call (not measured).
// Expected: passed; no target instruction (wgmma and tma absent), so not correct-with-arch.
// Same kernel as the other tiled_correct_fwd_* files with another kD / kCausal (each file is a
// whole candidate on its own). Checked so far: `ptxbench compile` (no spills, 34.8 KB of static shared
// memory), and a CPU emulation of the kernel's threads and barriers against a float64 reference
// (B=1, H=3, S=256: every element within the task's rule); not yet run on the H200.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

namespace {

constexpr int kD = 64;              // head dimension of the task
constexpr bool kCausal = true;  // key j is masked for query i when j > i
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

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O,
                                DLTensor* LSE, cudaStream_t stream) {
  const long long heads = Q->shape[0] * Q->shape[1];
  const int seq = static_cast<int>(Q->shape[2]);  // a multiple of 128 (the task's promise)
  const int tiles = seq / kTile;
  attn_fwd<<<static_cast<unsigned>(heads * tiles), kThreads, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(Q->data), static_cast<const __nv_bfloat16*>(K->data),
      static_cast<const __nv_bfloat16*>(V->data), static_cast<__nv_bfloat16*>(O->data),
      static_cast<float*>(LSE->data), seq, tiles);
}
