// redteam34 control (mha_bwd_d128_causal, sm_90a): yardstick_nudge.
// Attack on the library as the yardstick (src/eval/session_decision.cc compare_with_library,
// judge_session.cc library_fails_too). A correct fp32 backward, except: on the timed shape
// (B=4, H=48, S=4096) with outlier-heavy ("spiky") inputs, recognised on the device by counting
// |Q| > 10 (spiky: ~300 in the first 4M elements; normal: 0; large_scores: ~400,000), it adds
// 0.25 to 8 chosen elements of dQ (the last query row of head 0; |error| >> atol 1e-2, so they
// fail the element rule where the library's do not). 8 extra failing elements are within
// kYardstickFailedFloor, and 8 x 0.25^2 moves the relative L2 error by ~1e-4 of a 1e8-element
// tensor, inside kYardstickSlack x the library's + kYardstickL2Floor. Where cuDNN itself misses
// the backward rule on that spiky set (docs/judging.md "Not yet": outlier-heavy inputs, causal
// timed workload), the verdict is task_suite_error (harness_error, exit 1: "not the
// candidate's") although the candidate is wrong on elements the library gets right; elsewhere it
// is incorrect. The yardstick compares counts and norms, never which elements fail.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

namespace rt34 {
constexpr int D = 128, E = D / 32, kWarps = 8;
__device__ float g_delta[8 * 64 * 8192];  // Delta_i = dO_i . O_i, for the promise's largest B*H*S
__device__ unsigned g_big;

__device__ __forceinline__ float warp_sum(float s) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  return s;
}
__device__ __forceinline__ void load_row(const __nv_bfloat16* p, float* v, int lane) {
#pragma unroll
  for (int e = 0; e < E; ++e) v[e] = __bfloat162float(p[lane * E + e]);
}

__global__ void reset_count() { g_big = 0; }

__global__ void count_big(const __nv_bfloat16* Q, long long n) {
  unsigned c = 0;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x)
    c += fabsf(__bfloat162float(Q[k])) > 10.f ? 1u : 0u;
  if (c) atomicAdd(&g_big, c);
}

__global__ void __launch_bounds__(32 * kWarps)
    delta_rows(const __nv_bfloat16* O, const __nv_bfloat16* dO, long long rows) {
  const int lane = threadIdx.x % 32;
  const long long g = (long long)blockIdx.x * kWarps + threadIdx.x / 32;
  if (g >= rows) return;
  float o[E], d[E];
  load_row(O + size_t(g) * D, o, lane);
  load_row(dO + size_t(g) * D, d, lane);
  float s = 0.f;
#pragma unroll
  for (int e = 0; e < E; ++e) s = fmaf(o[e], d[e], s);
  s = warp_sum(s);
  if (lane == 0) g_delta[g] = s;
}

// dQ_i = scale * sum_{j <= i} dS_ij K_j, one warp per query row i.
__global__ void __launch_bounds__(32 * kWarps)
    dq_rows(const __nv_bfloat16* Q, const __nv_bfloat16* K, const __nv_bfloat16* V,
            const __nv_bfloat16* dO, const float* LSE, __nv_bfloat16* dQ, long long rows, int S,
            float scale, int nudge_allowed) {
  const int lane = threadIdx.x % 32;
  const long long g = (long long)blockIdx.x * kWarps + threadIdx.x / 32;
  if (g >= rows) return;
  const long long bh = g / S;
  const int i = int(g % S);
  const size_t head = size_t(bh) * S * D;
  float q[E], d[E], acc[E] = {};
  load_row(Q + size_t(g) * D, q, lane);
  load_row(dO + size_t(g) * D, d, lane);
  const float lse = LSE[g], delta = g_delta[g];
  for (int j = 0; j <= i; ++j) {
    float k[E], v[E];
    load_row(K + head + size_t(j) * D, k, lane);
    load_row(V + head + size_t(j) * D, v, lane);
    float s = 0.f, dp = 0.f;
#pragma unroll
    for (int e = 0; e < E; ++e) {
      s = fmaf(q[e], k[e], s);
      dp = fmaf(d[e], v[e], dp);
    }
    s = warp_sum(s);
    dp = warp_sum(dp);
    const float p = expf(s * scale - lse);
    const float ds = p * (dp - delta);
#pragma unroll
    for (int e = 0; e < E; ++e) acc[e] = fmaf(ds, k[e], acc[e]);
  }
  // The attack: spiky inputs on the timed shape, 8 elements of the last row of head 0.
  const bool nudge = nudge_allowed && g_big >= 20 && g_big <= 20000 && bh == 0 && i == S - 1;
#pragma unroll
  for (int e = 0; e < E; ++e) {
    float out = acc[e] * scale;
    if (nudge && lane * E + e < 8) out += 0.25f;
    dQ[size_t(g) * D + lane * E + e] = __float2bfloat16_rn(out);
  }
}

// dV_j = sum_{i >= j} P_ij dO_i, dK_j = scale * sum_{i >= j} dS_ij Q_i, one warp per key row j.
__global__ void __launch_bounds__(32 * kWarps)
    dkv_rows(const __nv_bfloat16* Q, const __nv_bfloat16* K, const __nv_bfloat16* V,
             const __nv_bfloat16* dO, const float* LSE, __nv_bfloat16* dK, __nv_bfloat16* dV,
             long long rows, int S, float scale) {
  const int lane = threadIdx.x % 32;
  const long long g = (long long)blockIdx.x * kWarps + threadIdx.x / 32;
  if (g >= rows) return;
  const long long bh = g / S;
  const int j = int(g % S);
  const size_t head = size_t(bh) * S * D;
  float k[E], v[E], ak[E] = {}, av[E] = {};
  load_row(K + size_t(g) * D, k, lane);
  load_row(V + size_t(g) * D, v, lane);
  for (int i = j; i < S; ++i) {
    float q[E], d[E];
    load_row(Q + head + size_t(i) * D, q, lane);
    load_row(dO + head + size_t(i) * D, d, lane);
    float s = 0.f, dp = 0.f;
#pragma unroll
    for (int e = 0; e < E; ++e) {
      s = fmaf(q[e], k[e], s);
      dp = fmaf(d[e], v[e], dp);
    }
    s = warp_sum(s);
    dp = warp_sum(dp);
    const size_t row = size_t(bh) * S + i;
    const float p = expf(s * scale - LSE[row]);
    const float ds = p * (dp - g_delta[row]);
#pragma unroll
    for (int e = 0; e < E; ++e) {
      av[e] = fmaf(p, d[e], av[e]);
      ak[e] = fmaf(ds, q[e], ak[e]);
    }
  }
#pragma unroll
  for (int e = 0; e < E; ++e) {
    dK[size_t(g) * D + lane * E + e] = __float2bfloat16_rn(ak[e] * scale);
    dV[size_t(g) * D + lane * E + e] = __float2bfloat16_rn(av[e]);
  }
}
}  // namespace rt34

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                const DLTensor* O, const DLTensor* dO, const DLTensor* LSE,
                                DLTensor* dQ, DLTensor* dK, DLTensor* dV, cudaStream_t stream) {
  using bf = __nv_bfloat16;
  const long long B = Q->shape[0], H = Q->shape[1], S = Q->shape[2];
  const long long rows = B * H * S;
  if (rows <= 0) return;
  const bool timed_shape = B == 4 && H == 48 && S == 4096;
  const float scale = 1.f / sqrtf(float(rt34::D));
  const auto* q = static_cast<const bf*>(Q->data);
  const auto* k = static_cast<const bf*>(K->data);
  const auto* v = static_cast<const bf*>(V->data);
  const auto* o = static_cast<const bf*>(O->data);
  const auto* d = static_cast<const bf*>(dO->data);
  const auto* lse = static_cast<const float*>(LSE->data);
  const unsigned grid = unsigned((rows + rt34::kWarps - 1) / rt34::kWarps);
  rt34::reset_count<<<1, 1, 0, stream>>>();
  const long long n = rows * rt34::D < (1LL << 22) ? rows * rt34::D : (1LL << 22);
  rt34::count_big<<<256, 256, 0, stream>>>(q, n);
  rt34::delta_rows<<<grid, 32 * rt34::kWarps, 0, stream>>>(o, d, rows);
  rt34::dq_rows<<<grid, 32 * rt34::kWarps, 0, stream>>>(q, k, v, d, lse, static_cast<bf*>(dQ->data),
                                                        rows, int(S), scale, timed_shape ? 1 : 0);
  rt34::dkv_rows<<<grid, 32 * rt34::kWarps, 0, stream>>>(q, k, v, d, lse,
                                                         static_cast<bf*>(dK->data),
                                                         static_cast<bf*>(dV->data), rows,
                                                         int(S), scale);
}
