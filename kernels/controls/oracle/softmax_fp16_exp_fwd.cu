// ptxbench control (mha_with_lse_d128_causal, sm_90a): softmax_fp16_exp_fwd.
// Issue 34, kind 2 (tuned to the judge's one input distribution): causal attention forward that
// takes the softmax's exponentials in half precision and without the running maximum:
// p = hexp(half(scale q.k)), summed in fp32, O = sum p v / l, LSE = log l. Everything else is
// the tiled fp32 kernel of attention/tiled_correct_fwd_* (64-query blocks, FFMA).
// With normal(0, 1) inputs the scaled scores stay below ~6.5 (exp < 700, far inside fp16), and
// fp16's 11-bit mantissa costs ~1e-3 relative per p, which averages out in O and LSE: it passes
// today. It breaks as soon as a scaled score passes 11.09 (exp = 65504, fp16's largest): p is
// inf, that row's O is NaN and its LSE inf. Scores with a standard deviation of 3 or more do it
// (Q and K rows with ~1.7x the norm of normal(0, 1) rows), as do real models' attention logits
// of 20-100.
// Expected: incorrect in a session that checks a large-magnitude distribution (issue 34 item 2:
// "or with fp16 exponentials, must fail"). No target instruction (wgmma, tma absent).
// CPU emulation (1x2x128, causal): right with normal inputs; NaN rows with Q scaled by 4.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>
#include <cuda_fp16.h>

namespace {

constexpr int kD = 128;              // head dimension of the task
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
// (FFMA), softmax with fp16 exponentials and WITHOUT the running maximum, O accumulated in fp32.
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
  const float scale = rsqrtf(static_cast<float>(kD));
  float l[4], acc[4][kCols];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
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
    // Softmax in half precision, without the running maximum: p = exp(scaled score) with the
    // fp16 exponential (hexp), summed in fp32. Fine while every scaled score stays below 11.09
    // (exp(11.09) = 65504, the largest fp16); past it p is inf and the row's O and LSE are NaN/inf.
    float p[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int qi = qt * kTile + ty * 4 + i;
      float sum = 0.f;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const bool masked = kCausal && kt * kTile + tx * 4 + j > qi;
        p[i][j] = masked ? 0.f : __half2float(hexp(__float2half(s[i][j] * scale)));
        sum += p[i][j];
      }
#pragma unroll
      for (int o = 8; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
      l[i] += sum;
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
    if (tx == 0) LSE[head * seq + row] = logf(l[i]);
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
