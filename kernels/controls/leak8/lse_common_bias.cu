// ptxbench control (mha_with_lse_d128_causal, sm_90a): leak8/lse_common_bias.
// KIND: the common-scale check (task-spec.md: |slope| <= max(2^-10, 7 se)) is relative, and on
// a logarithm a relative bias is an absolute shift of the exponent: LSE x (1 + 2^-11) is +0.004
// at LSE ~ 8.8 and +0.07 at LSE ~ 150 (large_scores), i.e. every P a backward rebuilds from it
// is scaled by exp(-0.07) = 0.93 there.
// TECHNIQUE: a correct fp32 causal forward (attention/naive_correct_fwd.cu, causal) whose LSE is
// written as (m + log l) * (1 + 2^-11): the same bias on every row, every call.
// WHAT IT GAINS: a pass for a systematically wrong LSE (the kind a cheap log2/ln2 constant or a
// fused exp2 domain error leaves), which breaks the backward on peaked inputs.
// SOUND VERDICT: incorrect (LSE biased): the bias of an LSE should be bounded absolutely.
// PREDICTED (read from the code at 088daed, not run on a GPU): passed_missing_instructions
// (exit 16), no flag: every element's relative error is 4.9e-4 < rtol; rel_l2 4.9e-4 < 1e-2;
// the slope (compare.cu run_compare scale_bias = sum(d r)/sum(r^2)) is exactly 2^-11 < 2^-10
// (finish_verdict's floor); likewise at the timed calls' sampled rows. New beside
// bwdterm/t01_lse_bias_gated (a 0.93% bias inside the BACKWARD's P, caught by the slope there):
// here the biased quantity is the forward's output, whose slope floor is 2^-10 of a log.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

constexpr bool kCausal = true;
constexpr int kD = 128;

__device__ __forceinline__ void load4(const __nv_bfloat16* p, float (&f)[4]) {
  const uint2 u = *reinterpret_cast<const uint2*>(p);
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
  f[0] = a.x, f[1] = a.y, f[2] = b.x, f[3] = b.y;
}
__device__ __forceinline__ float warp_sum(float x) {
  for (int m = 16; m > 0; m /= 2) x += __shfl_xor_sync(0xffffffffu, x, m);
  return x;
}

// One warp per query row, each lane owns 4 of the 128 dims; fp32 online softmax over the keys
// (FFMA + MUFU only, no tensor cores).
__device__ void naive_row(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                          const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ o,
                          float* __restrict__ lse, int seq, long long row, int v_shift) {
  const int lane = threadIdx.x % 32;
  const long long head = row / seq;
  const int i = static_cast<int>(row % seq);
  const __nv_bfloat16* kh = k + head * seq * kD;
  const __nv_bfloat16* vh = v + head * seq * kD;
  const float scale = rsqrtf(static_cast<float>(kD));
  float qf[4], acc[4] = {0.f, 0.f, 0.f, 0.f}, kf[4], vf[4];
  load4(q + row * kD + lane * 4, qf);
  float m = -INFINITY, l = 0.f;
  const int n = kCausal ? i + 1 : seq;
  for (int j = 0; j < n; ++j) {
    load4(kh + static_cast<long long>(j) * kD + lane * 4, kf);
    const float s = warp_sum(qf[0] * kf[0] + qf[1] * kf[1] + qf[2] * kf[2] + qf[3] * kf[3]) * scale;
    if (s > m) {
      const float c = expf(m - s);
      l *= c;
      for (int e = 0; e < 4; ++e) acc[e] *= c;
      m = s;
    }
    const float p = expf(s - m);
    l += p;
    const int jv = min(j + v_shift, seq - 1);
    load4(vh + static_cast<long long>(jv) * kD + lane * 4, vf);
    for (int e = 0; e < 4; ++e) acc[e] += p * vf[e];
  }
  const float inv = 1.f / l;
  __nv_bfloat162 lo = __floats2bfloat162_rn(acc[0] * inv, acc[1] * inv);
  __nv_bfloat162 hi = __floats2bfloat162_rn(acc[2] * inv, acc[3] * inv);
  uint2 u;
  u.x = *reinterpret_cast<uint32_t*>(&lo);
  u.y = *reinterpret_cast<uint32_t*>(&hi);
  *reinterpret_cast<uint2*>(o + row * kD + lane * 4) = u;
  if (lane == 0) lse[row] = (m + logf(l)) * (1.0f + 0.00048828125f);  // the attack: 2^-11
}

__global__ void __launch_bounds__(128) naive_fwd(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                 const __nv_bfloat16* v, __nv_bfloat16* o, float* lse, int seq,
                                                 long long rows, long long row_limit, int v_shift) {
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  if (row >= rows || row % seq >= row_limit) return;
  naive_row(q, k, v, o, lse, seq, row, v_shift);
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  const long long seq = Q->shape[2];
  const long long rows = Q->shape[0] * Q->shape[1] * seq;
  naive_fwd<<<static_cast<unsigned>((rows + 3) / 4), 128, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(Q->data), static_cast<const __nv_bfloat16*>(K->data),
      static_cast<const __nv_bfloat16*>(V->data), static_cast<__nv_bfloat16*>(O->data), static_cast<float*>(LSE->data),
      static_cast<int>(seq), rows, seq, 0);
}
