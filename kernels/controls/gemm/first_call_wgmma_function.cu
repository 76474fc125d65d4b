// ptxbench control (gemm_n7168_k5120, sm_90a): first_call_wgmma_function.
// Correct naive FFMA math for every output (one kernel function), plus a kernel function of its
// own that issues one wgmma m64n8k16 and is launched in the first call of each process only: the
// SASS holds wgmma, the session's calls launch it once, the audited calls (late in the session,
// or the second call of a further audit runner) never do. Expected: outcome passed; wgmma
// present_not_executed (no credit: it never runs where the calls are judged). Since 5aca768 such
// a function did not send the audit to Nsight Compute, and the families then said wgmma
// "present, not audited" (metric undecided) instead of "present, not executed" (the review of
// 2026-12-01, seventh session; fixed in 3ee8fde).

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// Plain tiled GEMM C = A * B^T: 64x64 output tile per 256-thread block, 16-deep k slices staged
// in shared memory as fp32, each thread accumulates a 4x4 block in fp32 registers (FFMA).
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int k_end, int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < k_end; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

// One wgmma.mma_async m64n8k16 (bf16 in, fp32 out) on a 64x16 A tile and an 8x16 B tile held in
// shared memory without swizzle: 8x8 core matrices of 128 bytes, K-adjacent ones 128 bytes
// apart (leading byte offset), row-group-adjacent ones 256 bytes apart (stride byte offset).
__device__ __forceinline__ uint64_t plain_desc(const void* smem) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}

// Must be called by all 128 threads of a warpgroup, converged.
__device__ __forceinline__ void wgmma_m64n8k16_once(float (&d)[4], const __nv_bfloat16* sa,
                                                    const __nv_bfloat16* sb) {
  const uint64_t da = plain_desc(sa), db = plain_desc(sb);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 0;"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}

__global__ void __launch_bounds__(256) naive_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                  __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, K, blockIdx.y, blockIdx.x);
}

// One CTA: a wgmma on the first A and B rows, its result kept live but never stored.
__global__ void __launch_bounds__(128)
    first_call_wgmma(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C) {
  __shared__ __align__(128) __nv_bfloat16 sa[64 * 16], sb[8 * 16];
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) sa[i] = A[i];
  for (int i = threadIdx.x; i < 8 * 16; i += blockDim.x) sb[i] = B[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  wgmma_m64n8k16_once(d, sa, sb);
  if (d[0] + d[1] + d[2] + d[3] == 123456789.f) C[0] = __float2bfloat16_rn(d[0]);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static int calls = 0;  // calls made in this process
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const auto* a = static_cast<const __nv_bfloat16*>(A->data);
  const auto* b = static_cast<const __nv_bfloat16*>(B->data);
  auto* c = static_cast<__nv_bfloat16*>(C->data);
  if (++calls == 1 && M >= 64 && K >= 16) first_call_wgmma<<<1, 128, 0, stream>>>(a, b, c);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  naive_gemm<<<grid, 256, 0, stream>>>(a, b, c, M, N, K);
}
