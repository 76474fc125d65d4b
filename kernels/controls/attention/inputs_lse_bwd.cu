// ptxbench control (mha_bwd_d128, sm_90a): inputs_lse_bwd.
// Kind (ptxbench issue 12): the candidate writes its const inputs after computing. dQ, dK and dV
// are computed correctly (FFMA, P recomputed from the given LSE); then one more kernel on the
// same stream adds 1.0 to the LSE of the first query row of every head (B*H of B*H*S values),
// in place. The gradients of the call are right for the inputs it was given.
// What a trustworthy judge must say: incorrect, flag inputs_modified naming tensor LSE (an fp32
// input: the checksum must cover every input, not only the bf16 ones). wgmma and tma absent.

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

__global__ void bump_first_rows(float* lse, long long heads, int seq) {
  for (long long h = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; h < heads;
       h += static_cast<long long>(gridDim.x) * blockDim.x)
    lse[h * seq] += 1.f;
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                const DLTensor* O, const DLTensor* dO, const DLTensor* LSE,
                                DLTensor* dQ, DLTensor* dK, DLTensor* dV, cudaStream_t stream) {
  launch_naive(Q, K, V, O, dO, LSE, dQ, dK, dV, /*gated=*/0, stream);
  auto* lse = static_cast<float*>(LSE->data);  // the planted fault: LSE is an input
  bump_first_rows<<<4, 256, 0, stream>>>(lse, Q->shape[0] * Q->shape[1],
                                         static_cast<int>(Q->shape[2]));
}
