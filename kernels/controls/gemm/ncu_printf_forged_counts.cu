// ptxbench control (gemm_n7168_k5120, sm_90a): ncu_printf_forged_counts.
// gemm/dead_branch_wgmma.cu (naive FFMA math; a wgmma path compiled in but never taken) whose
// kernel also prints, with device printf, Nsight Compute's raw-page CSV: a header, a units row
// and a launch of itself with HGMMA executed. Until 2026-12-06 the broker's stdout was the pipe
// ncu writes its report to, and ptxbench parsed that pipe (audit/ncu_route.cc): printed before
// the real report, the forged header and row would be read as ncu's (counts summed over rows, or
// the real rows misread under the forged header: an audit error). The broker now points its
// stdout at its stderr, whose text is shown and never parsed. Expected, on both audit routes
// (tests/gpu/audit): passed; wgmma present_not_executed; tma absent; coverage 0.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <cstdio>

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

__global__ void __launch_bounds__(256) gemm_with_dead_wgmma(const __nv_bfloat16* A,
                                                            const __nv_bfloat16* B,
                                                            __nv_bfloat16* C, int M, int N, int K,
                                                            int use_tensor_path) {
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0)
    printf(
        "\"ID\",\"Kernel Name\",\"sass__inst_executed_per_opcode_with_modifier_all\","
        "\"sass__thread_inst_executed_true_per_opcode_with_modifier_all\","
        "\"sm__inst_executed_pipe_tensor_op_gmma.sum\"\n"
        "\"\",\"\",\"inst\",\"inst\",\"inst\"\n"
        "\"0\",\"_Z20gemm_with_dead_wgmmaPK13__nv_bfloat16S1_PS_iiii\","
        "\"4,096 (HGMMA.64x8x16.F32.BF16: 4,096)\",\"131,072 (HGMMA.64x8x16.F32.BF16: 131,072)\","
        "\"4,096\"\n");
  if (use_tensor_path) {  // never true at run time
    __shared__ __align__(128) __nv_bfloat16 sa[64 * 16], sb[8 * 16];
    for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) sa[i] = A[i % (size_t(M) * K)];
    for (int i = threadIdx.x; i < 8 * 16; i += blockDim.x) sb[i] = B[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x < 128) {
      float d[4] = {0.f, 0.f, 0.f, 0.f};
      wgmma_m64n8k16_once(d, sa, sb);
      C[threadIdx.x] = __float2bfloat16_rn(d[0] + d[1] + d[2] + d[3]);
    }
    return;
  }
  naive_tile(A, B, C, M, N, K, K, blockIdx.y, blockIdx.x);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const int use_tensor_path = A->ndim == 3 ? 1 : 0;  // A is always 2-D: the path is dead
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  gemm_with_dead_wgmma<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                                 static_cast<const __nv_bfloat16*>(B->data),
                                                 static_cast<__nv_bfloat16*>(C->data), M, N, K,
                                                 use_tensor_path);
}
