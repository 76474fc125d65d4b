// Example of the tvm-ffi contract (docs/kernel-contract.md), task family mha_bwd_* (Q, K, V, O,
// dO [B,H,S,D] bf16 and LSE [B,H,S] fp32 -> dQ, dK, dV [B,H,S,D] bf16), head dimension 128, not
// causal. It recomputes P = exp(scale·QKᵀ − LSE) from the given LSE and Delta = rowsum(dO∘O),
// then dV = Pᵀ dO, dS = P∘(dO Vᵀ − Delta), dQ = scale·dS K, dK = scale·dSᵀ Q: one warp per
// query row for dQ, one per key row for dK and dV, fp32 on CUDA cores, no atomics. Correct,
// slow; kernels/controls/tvm_ffi.toml expects it to pass.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

using tvm::ffi::TensorView;

constexpr int kD = 128;
constexpr int kRowsPerBlock = 4;  // one warp each

__device__ __forceinline__ void load4(const __nv_bfloat16* p, float (&f)[4]) {
  const uint2 u = *reinterpret_cast<const uint2*>(p);
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
  f[0] = a.x, f[1] = a.y, f[2] = b.x, f[3] = b.y;
}

__device__ __forceinline__ void store4(__nv_bfloat16* p, const float (&f)[4], float s) {
  __nv_bfloat162 lo = __floats2bfloat162_rn(f[0] * s, f[1] * s);
  __nv_bfloat162 hi = __floats2bfloat162_rn(f[2] * s, f[3] * s);
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

struct Tensors {
  const __nv_bfloat16 *q, *k, *v, *o, *d_o;
  const float* lse;
  __nv_bfloat16 *dq, *dk, *dv;
  int seq;
  long long rows;  // B * H * S
};

// dQ_i = scale · Σ_j P_ij (dO_i·V_j − Delta_i) K_j for query row i.
__global__ void __launch_bounds__(128) grad_q(Tensors t) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  if (row >= t.rows) return;
  const int lane = threadIdx.x % 32;
  const long long head = row / t.seq;
  const float scale = rsqrtf(static_cast<float>(kD));
  float qf[4], gf[4], of[4], kf[4], vf[4], acc[4] = {0.f, 0.f, 0.f, 0.f};
  load4(t.q + row * kD + lane * 4, qf);
  load4(t.d_o + row * kD + lane * 4, gf);
  load4(t.o + row * kD + lane * 4, of);
  const float delta = warp_sum(dot4(gf, of));
  const float lse = t.lse[row];
  for (int j = 0; j < t.seq; ++j) {
    const long long at = (head * t.seq + j) * kD + lane * 4;
    load4(t.k + at, kf);
    load4(t.v + at, vf);
    const float p = expf(warp_sum(dot4(qf, kf)) * scale - lse);
    const float ds = p * (warp_sum(dot4(gf, vf)) - delta);
    for (int e = 0; e < 4; ++e) acc[e] += ds * kf[e];
  }
  store4(t.dq + row * kD + lane * 4, acc, scale);
}

// dV_j = Σ_i P_ij dO_i and dK_j = scale · Σ_i dS_ij Q_i for key row j.
__global__ void __launch_bounds__(128) grad_kv(Tensors t) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  if (row >= t.rows) return;
  const int lane = threadIdx.x % 32;
  const long long head = row / t.seq;
  const float scale = rsqrtf(static_cast<float>(kD));
  float kf[4], vf[4], qf[4], gf[4], of[4];
  float dk[4] = {0.f, 0.f, 0.f, 0.f}, dv[4] = {0.f, 0.f, 0.f, 0.f};
  load4(t.k + row * kD + lane * 4, kf);
  load4(t.v + row * kD + lane * 4, vf);
  for (int i = 0; i < t.seq; ++i) {
    const long long at = (head * t.seq + i) * kD + lane * 4;
    load4(t.q + at, qf);
    load4(t.d_o + at, gf);
    load4(t.o + at, of);
    const float p = expf(warp_sum(dot4(qf, kf)) * scale - t.lse[head * t.seq + i]);
    const float ds = p * (warp_sum(dot4(gf, vf)) - warp_sum(dot4(gf, of)));
    for (int e = 0; e < 4; ++e) {
      dv[e] += p * gf[e];
      dk[e] += ds * qf[e];
    }
  }
  store4(t.dv + row * kD + lane * 4, dv, 1.f);
  store4(t.dk + row * kD + lane * 4, dk, scale);
}

void run(TensorView Q, TensorView K, TensorView V, TensorView O, TensorView dO, TensorView LSE,
         TensorView dQ, TensorView dK, TensorView dV) {
  TVM_FFI_ICHECK_EQ(Q.ndim(), 4) << "Q must be [B, H, S, D]";
  TVM_FFI_ICHECK_EQ(Q.size(3), kD) << "this kernel is written for D = 128";
  Tensors t;
  t.q = static_cast<const __nv_bfloat16*>(Q.data_ptr());
  t.k = static_cast<const __nv_bfloat16*>(K.data_ptr());
  t.v = static_cast<const __nv_bfloat16*>(V.data_ptr());
  t.o = static_cast<const __nv_bfloat16*>(O.data_ptr());
  t.d_o = static_cast<const __nv_bfloat16*>(dO.data_ptr());
  t.lse = static_cast<const float*>(LSE.data_ptr());
  t.dq = static_cast<__nv_bfloat16*>(dQ.data_ptr());
  t.dk = static_cast<__nv_bfloat16*>(dK.data_ptr());
  t.dv = static_cast<__nv_bfloat16*>(dV.data_ptr());
  t.seq = static_cast<int>(Q.size(2));
  t.rows = Q.size(0) * Q.size(1) * Q.size(2);
  cudaStream_t stream =
      static_cast<cudaStream_t>(TVMFFIEnvGetStream(Q.device().device_type, Q.device().device_id));
  const unsigned blocks = static_cast<unsigned>((t.rows + kRowsPerBlock - 1) / kRowsPerBlock);
  grad_q<<<blocks, 32 * kRowsPerBlock, 0, stream>>>(t);
  grad_kv<<<blocks, 32 * kRowsPerBlock, 0, stream>>>(t);
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);
