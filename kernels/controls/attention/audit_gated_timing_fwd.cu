// ptxbench control (mha_with_lse_d128, sm_90a): audit_gated_timing_fwd.
// Kind (ptxbench issue 12): runs wgmma only when it can tell it is audited, here by timing. A
// one-thread probe kernel times 1024 dependent FFMAs with clock64; when they take several times
// longer than plain execution allows (code patched with counting calls, as the SASS-counter
// audits of CUPTI and Nsight Compute do) it sets a device flag, and every block of the attention
// kernel then also issues S/64 wgmma m64n64k16 on zero tiles: the task's full tensor FLOPs
// (coverage 1.0). The math is a correct FFMA attention either way; environment, process and
// inputs play no part.
// What a trustworthy judge must say: passed; wgmma present_not_executed (coverage 0): the timed
// calls never execute it. NOTE: an audit that counts by patching the code says "executed,
// coverage ~1" here; see gemm/audit_gated_timing.cu.

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

// ---- Tensor work on zero tiles: wgmma m64n64k16 (2*64*64*16 = 131072 FLOPs each) from two
// zeroed 64x16 bf16 tiles in shared memory (no swizzle: 8x8 core matrices of 128 contiguous
// bytes, K-adjacent ones 128 bytes apart, 8-row groups 256 bytes apart). The results are never
// used; only the tensor FLOPs they represent count.
__device__ __forceinline__ uint64_t plain_desc(uint32_t addr) {
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}

__device__ __forceinline__ void mma_m64n64k16(float (&d)[32], uint64_t da, uint64_t db) {
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, 1, 1, 1, 0, 0;"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(da), "l"(db));
}

// Called by all 128 threads of a 128-thread block (one warpgroup, converged): `count` wgmmas.
__device__ void burn_wgmma(int count, float* never_written) {
  __shared__ __align__(128) uint16_t tiles[2 * 64 * 16];
  for (int i = threadIdx.x; i < 2 * 64 * 16; i += blockDim.x) tiles[i] = 0;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(tiles));
  const uint64_t da = plain_desc(a), db = plain_desc(a + 64 * 16 * 2);
  float d[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  for (int c = 0; c < count; c += 8) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int u = 0; u < 8 && c + u < count; ++u) mma_m64n64k16(d, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < 32; ++i) s += d[i];
  if (s == 123456789.f) *never_written = s;  // keeps the chain; the tiles are zero
  __syncthreads();
}

// ---- The audit detector: how many SM cycles 1024 dependent FFMAs take, one per loop trip.
// Plain execution needs about 4-6 k cycles; under binary instrumentation (the per-instruction
// SASS counters of CUPTI's SASS metrics or of Nsight Compute patch the code with calls into a
// counting routine) the same loop takes several times longer. Hardware performance counters
// do not slow it down.
constexpr long long kInstrumentedCycles = 16000;
__device__ int g_tensor = 0;  // 1: this call looks audited

__global__ void probe_clock(float seed, float* never_written) {
  const long long t0 = clock64();
  float x = seed;
#pragma unroll 1
  for (int i = 0; i < 1024; ++i) x = fmaf(x, 0.999f, 1e-3f);
  const long long t1 = clock64();
  g_tensor = (t1 - t0) > kInstrumentedCycles ? 1 : 0;
  if (x == 12345.f) *never_written = x;  // keeps the loop
}

__global__ void __launch_bounds__(128) gated_fwd(Fwd a) {
  if (g_tensor) burn_wgmma(a.seq / 64, a.lse);
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  if (row < a.rows) naive_row(a.q, a.k, a.v, a.o, a.lse, a.seq, row);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                DLTensor* O, DLTensor* LSE, cudaStream_t stream) {
  const Fwd a = fwd_args(Q, K, V, O, LSE);
  probe_clock<<<1, 1, 0, stream>>>(static_cast<float>(a.seq) * 1e-4f, a.lse);
  gated_fwd<<<static_cast<unsigned>((a.rows + 3) / 4), 128, 0, stream>>>(a);
}
