// ptxbench control (mha_with_lse_d128, sm_90a): leak9/lse_large_scores_honest. FALSE BLAME?
// KIND: the forward's LSE is now judged by |out - ref| <= kLogAtol = 1e-3 alone
// (task/tolerance.h:101-108, eval/gpu/problem.h:41-43), derived from fp32's rounding of LSE at
// |LSE| < 100. The dominant error of an honest fp32 kernel is elsewhere: the score q.k itself,
// summed in another order than the reference's. On large_scores sets (eval/gpu/rng.h:55-57,
// :169-172: Q, K x6, one 64-value half of a key row in 256 x24) a row's max score is a strong
// key's, s ~ N(0, ~105^2) before the max (LSE ~200-500), the unscaled dot reaches ~5e3, fp32
// partial sums there carry ulp 2.4e-4..4.9e-4, and two summation orders of 128 products
// differ by ~2e-4 in s (estimated: sqrt(128/3) x ulp/2 / sqrt(128) x sqrt(2), not simulated; no
// numpy here). LSE follows its row's max score, so over the timed workload's 786,432 rows
// (4 x 48 x 4096) the worst |error| is ~5 sigma ~ 1e-3: at the bound.
// TECHNIQUE (honest): FlashAttention's base-2 online softmax in fp32, the score of each key summed
// as a tensor-core MMA does (bf16 products exact in fp32, 8 chunks of 16 summed in order, chunk
// sums added), m and l in log2 units (ex2/lg2 approximations), LSE = (m2 + log2 l) x ln 2.
// SOUND VERDICT: passed (exit 16 without wgmma/TMA): every output within fp32 reach of the
// exact result; cuDNN's own LSE (bf16 MMA, fp32 accumulate) has the same size of error.
// PREDICTED (READ from 332a197, not run; the size of the error estimated, not measured): unsure:
// incorrect (a check of the LSE output fails on a large_scores base set, max_abs_err ~1e-3,
// worst_rule_ratio > 1) with maybe a third of the chance per full check; passed otherwise. The
// normal sets pass by a wide margin (dot ~ 4e2, error ~1e-5).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

constexpr int kD = 128;

__device__ __forceinline__ float lh_ex2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float lh_lg2(float x) {
  float y;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// One warp a query row; lane l owns d = 4l..4l+3 of O. The score: each 16-wide chunk summed by
// its 4 lanes in order (shuffles), chunk sums then added in chunk order (the MMA's order).
__global__ void __launch_bounds__(128)
    lh_fwd(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
           __nv_bfloat16* o, float* lse, int seq, long long rows, bool causal) {
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  if (row >= rows) return;
  const int lane = threadIdx.x % 32, i = static_cast<int>(row % seq);
  const long long head = row / seq;
  const __nv_bfloat16* kh = k + head * seq * kD;
  const __nv_bfloat16* vh = v + head * seq * kD;
  const float scale_log2 = rsqrtf(float(kD)) * 1.4426950408889634f;
  float qf[4], acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int e = 0; e < 4; ++e) qf[e] = __bfloat162float(q[row * kD + lane * 4 + e]);
  float m2 = -INFINITY, l = 0.f;
  const int n = causal ? i + 1 : seq;
  for (int j = 0; j < n; ++j) {
    const __nv_bfloat16* kr = kh + static_cast<long long>(j) * kD + lane * 4;
    float part = 0.f;
    for (int e = 0; e < 4; ++e) part = fmaf(qf[e], __bfloat162float(kr[e]), part);
    part += __shfl_down_sync(0xffffffffu, part, 1);  // lanes 4c..4c+3 hold chunk c
    part += __shfl_down_sync(0xffffffffu, part, 2);
    float dot = 0.f;
    for (int c = 0; c < 8; ++c) dot += __shfl_sync(0xffffffffu, part, 4 * c);
    const float s2 = dot * scale_log2;
    if (s2 > m2) {
      const float c = lh_ex2(m2 - s2);
      l *= c;
      for (int e = 0; e < 4; ++e) acc[e] *= c;
      m2 = s2;
    }
    const float p = lh_ex2(s2 - m2);
    l += p;
    const __nv_bfloat16* vr = vh + static_cast<long long>(j) * kD + lane * 4;
    for (int e = 0; e < 4; ++e) acc[e] = fmaf(p, __bfloat162float(vr[e]), acc[e]);
  }
  const float inv = 1.f / l;
  for (int e = 0; e < 4; ++e) o[row * kD + lane * 4 + e] = __float2bfloat16_rn(acc[e] * inv);
  if (lane == 0) lse[row] = (m2 + lh_lg2(l)) * 0.6931471805599453f;
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  const long long seq = Q->shape[2];
  const long long rows = Q->shape[0] * Q->shape[1] * seq;
  lh_fwd<<<static_cast<unsigned>((rows + 3) / 4), 128, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(Q->data), static_cast<const __nv_bfloat16*>(K->data),
      static_cast<const __nv_bfloat16*>(V->data), static_cast<__nv_bfloat16*>(O->data),
      static_cast<float*>(LSE->data), static_cast<int>(seq), rows, false);
}
