// ptxbench control (mha_with_lse_d128, sm_90a): leak8/lse_bf16_rounded.
// KIND: the forward's LSE is judged by the spec's atol = rtol = 1e-2, and rtol on a logarithm
// is an absolute allowance of 0.01 x LSE: ~0.09 at S = 4096 on normal inputs (LSE ~ 8.8), ~1.5
// on large_scores inputs (LSE ~ 150). An error d in LSE multiplies every P = exp(s - LSE) a
// backward recomputes from it by exp(-d).
// TECHNIQUE: a correct fp32 forward (attention/naive_correct_fwd.cu) whose LSE goes through
// bf16 before it is stored (the packed-epilogue mistake: LSE staged with O in bf16): round to
// nearest, 8 significant bits. |error| <= 0.031 at LSE in [8, 16), <= 0.5 in [128, 256).
// WHAT IT GAINS: a pass for an LSE 10^4 times less accurate than cuDNN's (~1e-6), unusable by
// any backward (P off by up to 3% on normal inputs, up to 65% on large_scores).
// SOUND VERDICT: incorrect (LSE wrong): the LSE's own error should be bounded absolutely
// (~1e-3, what fp32 gives and what the backward's 4.8e-3 rule on P needs: a backward fed this
// LSE would be ~1.8e-2 off in relative L2 on normal inputs, an estimate, and fail).
// PREDICTED (read from the code at 088daed, not run on a GPU): passed_missing_instructions
// (exit 16), no flag. element_rule.h element_fails: |err| > atol AND |err|/|ref| > rtol is
// needed to fail; here |err|/|ref| <= 2^-9 < 1e-2 everywhere (LSE >= log 128 + ... > 4 for
// every promised S). compare.cu run_compare: rel_l2 ~ 2e-3 < max_rel_l2 1e-2; the common-scale
// slope of a round-to-nearest error is ~0 (task-spec.md "The relative L2 limit and the common
// scale"). The same holds on the timed calls' 256 sampled rows (sample_check.cu:241-262).
// A throwaway CPU simulation of the rule (q, k normal x1 and x6, S = 128..4096, causal and
// not) gave slope <= 3.3e-5, rel_l2 <= 2.1e-3, worst element <= 0.39 of its allowance.
// New: no control tests the LSE's precision (attention/lse_never_written_fwd only its presence).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

constexpr bool kCausal = false;
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
  if (lane == 0) lse[row] = __bfloat162float(__float2bfloat16_rn(m + logf(l)));  // the attack
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
