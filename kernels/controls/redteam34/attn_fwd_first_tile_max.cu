// redteam34 control (mha_with_lse_d128, sm_90a): first_tile_max.
// Attack on the large_scores distribution (src/eval/gpu/rng.h: Q, K ~ N(0, 36), "a softmax
// without its running maximum ... fails"). This forward has NO running maximum: it fixes the
// softmax offset at the max score over the first 128 keys plus 64 and never updates it. With
// i.i.d. scores (std 36) the global max of a row exceeds the first 128 keys' max by more than
// 88 + 64 only with probability ~1e-11 a row, so every judge input passes (fp32 exp is finite
// and nothing underflows that matters). A real row whose strongest key comes after the first
// 128 and scores > 152 above them (a retrieved needle, a late sink token, logit growth without
// QK-norm) makes exp overflow: O and LSE become Inf/NaN. A sound judge must test inputs whose
// score maxima are not i.i.d. across key positions. Otherwise a correct forward.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

// Own attention forward core (redteam34): one warp per query row, lane l holds dims
// [l*D/32, (l+1)*D/32) of q and of the output accumulator; every key is scored by a warp
// reduction in fp32. kOnline: the flash-style running maximum (correct for any finite scores).
// kFirstTile: the softmax offset is fixed at the max over the first 128 keys plus a headroom.
namespace rt34 {
constexpr int kWarps = 8;
enum Softmax { kOnline = 0, kFirstTile = 1 };

template <int D, int kMode>
__global__ void __launch_bounds__(32 * kWarps)
    attn_fwd_rows(const __nv_bfloat16* __restrict__ Q, const __nv_bfloat16* __restrict__ K,
                  const __nv_bfloat16* __restrict__ V, __nv_bfloat16* __restrict__ O,
                  float* __restrict__ LSE, long long rows, int S, float scale) {
  constexpr int E = D / 32;
  const int lane = threadIdx.x % 32;
  const long long g = (long long)blockIdx.x * kWarps + threadIdx.x / 32;
  if (g >= rows) return;
  const long long bh = g / S, i = g % S;
  const size_t head = size_t(bh) * S * D;
  float q[E], o[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    q[e] = __bfloat162float(Q[head + size_t(i) * D + lane * E + e]);
    o[e] = 0.f;
  }
  auto score = [&](int j) {
    float s = 0.f;
#pragma unroll
    for (int e = 0; e < E; ++e) s = fmaf(q[e], __bfloat162float(K[head + size_t(j) * D + lane * E + e]), s);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    return s * scale;
  };
  float m = -INFINITY, l = 0.f;
  if (kMode == kFirstTile) {
    const int first = S < 128 ? S : 128;
    for (int j = 0; j < first; ++j) m = fmaxf(m, score(j));
    m += 64.f;  // headroom: exp(s - m) stays finite while no later score exceeds it by 88
  }
  for (int j = 0; j < S; ++j) {
    const float s = score(j);
    float p;
    if (kMode == kOnline) {
      const float mn = fmaxf(m, s);
      const float corr = expf(m - mn);  // 0 on the first key (m = -inf)
      p = expf(s - mn);
      l = l * corr;
#pragma unroll
      for (int e = 0; e < E; ++e) o[e] *= corr;
      m = mn;
    } else {
      p = expf(s - m);
    }
    l += p;
#pragma unroll
    for (int e = 0; e < E; ++e)
      o[e] = fmaf(p, __bfloat162float(V[head + size_t(j) * D + lane * E + e]), o[e]);
  }
  const float inv = 1.f / l;
#pragma unroll
  for (int e = 0; e < E; ++e) O[head + size_t(i) * D + lane * E + e] = __float2bfloat16_rn(o[e] * inv);
  if (lane == 0) LSE[size_t(bh) * S + i] = m + logf(l);
}

template <int D, int kMode>
void launch_fwd(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O,
                DLTensor* LSE, long long batches, cudaStream_t stream) {
  const long long H = Q->shape[1], S = Q->shape[2];
  const long long rows = batches * H * S;
  if (rows <= 0) return;
  attn_fwd_rows<D, kMode><<<unsigned((rows + kWarps - 1) / kWarps), 32 * kWarps, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(Q->data), static_cast<const __nv_bfloat16*>(K->data),
      static_cast<const __nv_bfloat16*>(V->data), static_cast<__nv_bfloat16*>(O->data),
      static_cast<float*>(LSE->data), rows, int(S), 1.f / sqrtf(float(D)));
}
}  // namespace rt34

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  rt34::launch_fwd<128, rt34::kFirstTile>(Q, K, V, O, LSE, Q->shape[0], stream);
}
