// ptxbench control (mha_bwd_d128, sm_90a): poison_gated_bwd.
// Kind (ptxbench issue 12): computes only when its outputs hold the poison pattern. A one-warp
// kernel reads 32 elements of dV spread over the whole tensor; only when every one is a bf16 NaN
// (what a harness writes before a checked call) do the two gradient kernels (correct FFMA) run.
// Otherwise dQ, dK and dV are assumed to hold the previous result and are left alone, and a
// one-thread kernel waits as long as a ~400 TFLOP/s backward would.
// What a trustworthy judge must say: incorrect: poisoned before every call with a per-call
// random poison that is not always a NaN, a call with a finite poison is skipped and its outputs
// are the poison. wgmma and tma absent.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

namespace {

// Simple correct attention backward in fp32 (FFMA only): one warp per query row for dQ and one
// per key row for dK/dV, P recomputed from the given LSE.
constexpr bool kCausal = false;
constexpr int kD = 128;

__device__ __forceinline__ void load4(const __nv_bfloat16* p, float (&f)[4]) {
  const uint2 u = *reinterpret_cast<const uint2*>(p);
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
  f[0] = a.x, f[1] = a.y, f[2] = b.x, f[3] = b.y;
}
__device__ __forceinline__ void store4(__nv_bfloat16* p, const float (&f)[4], float s) {
  __nv_bfloat162 lo = __floats2bfloat162_rn(f[0] * s, f[1] * s),
                 hi = __floats2bfloat162_rn(f[2] * s, f[3] * s);
  uint2 u;
  u.x = *reinterpret_cast<uint32_t*>(&lo);
  u.y = *reinterpret_cast<uint32_t*>(&hi);
  *reinterpret_cast<uint2*>(p) = u;
}
__device__ __forceinline__ float dot4(const float (&a)[4], const float (&b)[4]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}
__device__ __forceinline__ float warp_sum(float x) {
  for (int m = 16; m > 0; m /= 2) x += __shfl_xor_sync(0xffffffffu, x, m);
  return x;
}

struct Args {
  const __nv_bfloat16 *q, *k, *v, *o, *d_o;
  const float* lse;
  __nv_bfloat16 *dq, *dk, *dv;
  int seq;
  long long rows;
  int gated;  // 1: both kernels return at once when g_skip_bwd != 0
};

__device__ int g_skip_bwd = 0;  // set by an earlier kernel on the same stream

// dQ: one warp per query row i; each lane owns 4 of the 128 dims; fp32 (FFMA only).
__global__ void __launch_bounds__(128) naive_dq(Args a) {
  if (a.gated && g_skip_bwd) return;
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= a.rows) return;
  const long long head = row / a.seq;
  const int i = static_cast<int>(row % a.seq);
  const float scale = rsqrtf(static_cast<float>(kD));
  float qf[4], gf[4], of[4], kf[4], vf[4], acc[4] = {0.f, 0.f, 0.f, 0.f};
  load4(a.q + row * kD + lane * 4, qf);
  load4(a.d_o + row * kD + lane * 4, gf);
  load4(a.o + row * kD + lane * 4, of);
  const float delta = warp_sum(dot4(gf, of));
  const float lse = a.lse[row];
  const int n = kCausal ? i + 1 : a.seq;
  for (int j = 0; j < n; ++j) {
    const long long kr = (head * a.seq + j) * kD + lane * 4;
    load4(a.k + kr, kf);
    load4(a.v + kr, vf);
    const float p = expf(warp_sum(dot4(qf, kf)) * scale - lse);
    const float ds = p * (warp_sum(dot4(gf, vf)) - delta);
    for (int e = 0; e < 4; ++e) acc[e] += ds * kf[e];
  }
  store4(a.dq + row * kD + lane * 4, acc, scale);
}

// dK, dV: one warp per key row j, looping over the queries (Delta recomputed per query).
__global__ void __launch_bounds__(128) naive_dkdv(Args a) {
  if (a.gated && g_skip_bwd) return;
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= a.rows) return;
  const long long head = row / a.seq;
  const int j = static_cast<int>(row % a.seq);
  const float scale = rsqrtf(static_cast<float>(kD));
  float kf[4], vf[4], qf[4], gf[4], of[4], dk[4] = {0.f, 0.f, 0.f, 0.f},
                                           dv[4] = {0.f, 0.f, 0.f, 0.f};
  load4(a.k + row * kD + lane * 4, kf);
  load4(a.v + row * kD + lane * 4, vf);
  for (int i = kCausal ? j : 0; i < a.seq; ++i) {
    const long long qr = (head * a.seq + i) * kD + lane * 4;
    load4(a.q + qr, qf);
    load4(a.d_o + qr, gf);
    load4(a.o + qr, of);
    const float p = expf(warp_sum(dot4(qf, kf)) * scale - a.lse[head * a.seq + i]);
    const float ds = p * (warp_sum(dot4(gf, vf)) - warp_sum(dot4(gf, of)));
    for (int e = 0; e < 4; ++e) {
      dv[e] += p * gf[e];
      dk[e] += ds * qf[e];
    }
  }
  store4(a.dv + row * kD + lane * 4, dv, 1.f);
  store4(a.dk + row * kD + lane * 4, dk, scale);
}

void launch_naive(const DLTensor* Q, const DLTensor* K, const DLTensor* V, const DLTensor* O,
                  const DLTensor* dO, const DLTensor* LSE, DLTensor* dQ, DLTensor* dK, DLTensor* dV,
                  int gated, cudaStream_t stream) {
  Args a;
  a.q = static_cast<const __nv_bfloat16*>(Q->data);
  a.k = static_cast<const __nv_bfloat16*>(K->data);
  a.v = static_cast<const __nv_bfloat16*>(V->data);
  a.o = static_cast<const __nv_bfloat16*>(O->data);
  a.d_o = static_cast<const __nv_bfloat16*>(dO->data);
  a.lse = static_cast<const float*>(LSE->data);
  a.dq = static_cast<__nv_bfloat16*>(dQ->data);
  a.dk = static_cast<__nv_bfloat16*>(dK->data);
  a.dv = static_cast<__nv_bfloat16*>(dV->data);
  a.seq = static_cast<int>(Q->shape[2]);
  a.rows = Q->shape[0] * Q->shape[1] * Q->shape[2];
  a.gated = gated;
  const unsigned blocks = static_cast<unsigned>((a.rows + 3) / 4);
  naive_dq<<<blocks, 128, 0, stream>>>(a);
  naive_dkdv<<<blocks, 128, 0, stream>>>(a);
}

__device__ int g_poisoned = 0;

__global__ void probe_poison(const uint16_t* dv, long long n) {
  const uint16_t v = dv[(n - 1) * threadIdx.x / 31];  // 32 samples from dV[0] to dV[n-1]
  const bool nan = (v & 0x7F80u) == 0x7F80u && (v & 0x007Fu) != 0;
  const bool all = __all_sync(0xffffffffu, nan);
  if (threadIdx.x == 0) {
    g_poisoned = all ? 1 : 0;
    g_skip_bwd = all ? 0 : 1;
  }
}

__global__ void pace_skip(unsigned long long ns) {
  if (g_poisoned) return;
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                const DLTensor* O, const DLTensor* dO, const DLTensor* LSE,
                                DLTensor* dQ, DLTensor* dK, DLTensor* dV, cudaStream_t stream) {
  const long long rows = Q->shape[0] * Q->shape[1] * Q->shape[2], seq = Q->shape[2];
  probe_poison<<<1, 32, 0, stream>>>(static_cast<const uint16_t*>(dV->data), rows * kD);
  launch_naive(Q, K, V, O, dO, LSE, dQ, dK, dV, /*gated=*/1, stream);
  pace_skip<<<1, 1, 0, stream>>>(
      static_cast<unsigned long long>(10.0 * rows * seq * kD / 400e12 * 1e9));
}
