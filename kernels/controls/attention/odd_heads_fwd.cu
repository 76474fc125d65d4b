// ptxbench control (mha_with_lse_d128, sm_90a): odd_heads_fwd.
// Kind (ptxbench issue 12): correct only on the benchmark's shapes. The kernel processes the
// B*H heads in PAIRS (one block per pair of heads for a 4-row slice of queries: 8 warps, warps
// 0-3 on head 2p, warps 4-7 on head 2p+1) and the grid covers (B*H)/2 pairs, rounded down. When
// B*H is odd the last head is never written. Every B*H that today's task runs (4*48, 2*8, 1*4)
// is even. What it writes is right (FFMA, online softmax).
// What a trustworthy judge must say: incorrect on a hidden workload with B*H odd (e.g. B=1,
// H=3 or B=3, H=5): O and LSE of the last head never written. wgmma and tma absent.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

namespace {

// Simple correct attention forward in fp32: one warp per query row, each lane owning 4 of the
// 128 dimensions, online softmax over the keys (FFMA + MUFU only, no tensor cores).
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

// Query row `row` of the flattened [B*H*S] rows: O[row, :] and LSE[row].
__device__ void naive_row(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                          const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ o,
                          float* __restrict__ lse, int seq, long long row) {
  const int lane = threadIdx.x % 32;
  const long long head = row / seq;
  const __nv_bfloat16* kh = k + head * seq * kD;
  const __nv_bfloat16* vh = v + head * seq * kD;
  const float scale = rsqrtf(static_cast<float>(kD));
  float qf[4], acc[4] = {0.f, 0.f, 0.f, 0.f}, kf[4], vf[4];
  load4(q + row * kD + lane * 4, qf);
  float m = -INFINITY, l = 0.f;
  for (int j = 0; j < seq; ++j) {
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
    load4(vh + static_cast<long long>(j) * kD + lane * 4, vf);
    for (int e = 0; e < 4; ++e) acc[e] += p * vf[e];
  }
  const float inv = 1.f / l;
  __nv_bfloat162 lo = __floats2bfloat162_rn(acc[0] * inv, acc[1] * inv);
  __nv_bfloat162 hi = __floats2bfloat162_rn(acc[2] * inv, acc[3] * inv);
  uint2 u;
  u.x = *reinterpret_cast<uint32_t*>(&lo);
  u.y = *reinterpret_cast<uint32_t*>(&hi);
  *reinterpret_cast<uint2*>(o + row * kD + lane * 4) = u;
  if (lane == 0) lse[row] = m + logf(l);
}

struct Fwd {
  const __nv_bfloat16 *q, *k, *v;
  __nv_bfloat16* o;
  float* lse;
  int seq;
  long long rows;  // B*H*S
};

Fwd fwd_args(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O, DLTensor* LSE) {
  Fwd a;
  a.q = static_cast<const __nv_bfloat16*>(Q->data);
  a.k = static_cast<const __nv_bfloat16*>(K->data);
  a.v = static_cast<const __nv_bfloat16*>(V->data);
  a.o = static_cast<__nv_bfloat16*>(O->data);
  a.lse = static_cast<float*>(LSE->data);
  a.seq = static_cast<int>(Q->shape[2]);
  a.rows = Q->shape[0] * Q->shape[1] * Q->shape[2];
  return a;
}

// grid (S/4, pairs): block (x, p) does query rows 4x..4x+3 of heads 2p and 2p+1.
__global__ void __launch_bounds__(256) paired_fwd(Fwd a) {
  const int warp = threadIdx.x / 32;
  const long long head = 2ll * blockIdx.y + warp / 4;
  const long long row = head * a.seq + static_cast<long long>(blockIdx.x) * 4 + warp % 4;
  naive_row(a.q, a.k, a.v, a.o, a.lse, a.seq, row);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  const Fwd a = fwd_args(Q, K, V, O, LSE);
  const long long pairs =
      Q->shape[0] * Q->shape[1] / 2;  // BUG (deliberate): an odd head is dropped
  if (pairs == 0) return;
  paired_fwd<<<dim3(static_cast<unsigned>(a.seq / 4), static_cast<unsigned>(pairs)), 256, 0,
               stream>>>(a);
}
