// Example of the tvm-ffi contract (docs/kernel-contract.md), task family mha_with_lse_* (Q, K, V
// [B,H,S,D] bf16 -> O [B,H,S,D] bf16, LSE [B,H,S] fp32), head dimension 128, not causal: one
// warp per query row, each lane owning 4 of the 128 dimensions, an online softmax over the keys
// in fp32 on CUDA cores. Correct, slow; kernels/controls/tvm_ffi.toml expects it to pass.
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

__device__ __forceinline__ float warp_sum(float x) {
  for (int m = 16; m > 0; m /= 2) x += __shfl_xor_sync(0xffffffffu, x, m);
  return x;
}

// Row `row` of the flattened [B*H*S] queries: s_j = q·k_j / sqrt(D), running maximum m and sum l
// of exp(s_j - m), O = Σ exp(s_j - m) v_j / l, LSE = m + log(l).
__global__ void __launch_bounds__(128) attention_rows(const __nv_bfloat16* __restrict__ q,
                                                      const __nv_bfloat16* __restrict__ k,
                                                      const __nv_bfloat16* __restrict__ v,
                                                      __nv_bfloat16* __restrict__ o,
                                                      float* __restrict__ lse, int seq,
                                                      long long rows) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  if (row >= rows) return;
  const int lane = threadIdx.x % 32;
  const long long head = row / seq;
  const __nv_bfloat16* kh = k + head * seq * kD;
  const __nv_bfloat16* vh = v + head * seq * kD;
  const float scale = rsqrtf(static_cast<float>(kD));
  float qf[4], kf[4], vf[4], acc[4] = {0.f, 0.f, 0.f, 0.f};
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

void run(TensorView Q, TensorView K, TensorView V, TensorView O, TensorView LSE) {
  TVM_FFI_ICHECK_EQ(Q.ndim(), 4) << "Q must be [B, H, S, D]";
  TVM_FFI_ICHECK_EQ(Q.size(3), kD) << "this kernel is written for D = 128";
  const long long seq = Q.size(2);
  const long long rows = Q.size(0) * Q.size(1) * seq;
  cudaStream_t stream =
      static_cast<cudaStream_t>(TVMFFIEnvGetStream(Q.device().device_type, Q.device().device_id));
  const unsigned blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  attention_rows<<<blocks, 32 * kRowsPerBlock, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(Q.data_ptr()), static_cast<const __nv_bfloat16*>(K.data_ptr()),
      static_cast<const __nv_bfloat16*>(V.data_ptr()), static_cast<__nv_bfloat16*>(O.data_ptr()),
      static_cast<float*>(LSE.data_ptr()), static_cast<int>(seq), rows);
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);
