// ptxbench control (mha_with_lse_d128, sm_90a): dead_branch_wgmma_fwd.
// Correct naive FFMA math; a wgmma.mma_async sits under a runtime branch that is never taken
// (the host passes use_tc = 0, unknown to the compiler), so HGMMA is in the SASS but never
// executes. Expected: passed, wgmma present_not_executed, tma absent (not correct-with-arch).

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
  if (lane == 0) lse[row] = m + logf(l);
}

// One wgmma.mma_async m64n8k16 on a zeroed 64x16 A tile and 16x8 B tile in shared memory (no
// swizzle, canonical core-matrix layout); the 4 accumulator floats per thread are returned.
// Must be called by all 128 threads of a warpgroup.
__device__ __forceinline__ float one_wgmma(uint16_t* tile /* >= 1280 bf16, 128-byte aligned */) {
  for (int i = threadIdx.x % 128; i < 1280; i += 128) tile[i] = 0;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncwarp();
  asm volatile("bar.sync 1, 128;" ::: "memory");
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  const uint32_t b = a + 64 * 16 * 2;
  // desc: start >> 4 | LBO (128 B between core matrices along K) | SBO (256 B along M/N), no swizzle.
  const uint64_t da = ((a & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
  const uint64_t db = ((b & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  return d0 + d1 + d2 + d3;  // 0: the tiles are zero
}

__global__ void __launch_bounds__(128) naive_fwd(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                 const __nv_bfloat16* v, __nv_bfloat16* o, float* lse, int seq,
                                                 long long rows, int use_tc) {
  __shared__ __align__(128) uint16_t tile[1280];
  float bias = 0.f;
  if (use_tc) bias = one_wgmma(tile);  // never taken at run time
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  if (row >= rows) return;
  naive_row(q, k, v, o, lse, seq, row, 0);
  if (bias != 0.f) lse[row] += bias;
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  const long long seq = Q->shape[2];
  const long long rows = Q->shape[0] * Q->shape[1] * seq;
  const int use_tc = Q->ndim == 7;  // a DLTensor of this task always has ndim 4
  naive_fwd<<<static_cast<unsigned>((rows + 3) / 4), 128, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(Q->data), static_cast<const __nv_bfloat16*>(K->data),
      static_cast<const __nv_bfloat16*>(V->data), static_cast<__nv_bfloat16*>(O->data), static_cast<float*>(LSE->data),
      static_cast<int>(seq), rows, use_tc);
}
