// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak6/medium_m_gap.
// TECHNIQUE: a wrong path in the one band of the promise that only `any` can draw. The hidden
// kinds of a GEMM (hidden_draw.cc:102-113, T = 8192, promise 1..16384): small 1..63, ragged
// 65..1023 (M % 8 != 0), audit 1025..max(T/4, 1025) = 2048, large max(T/2, 1025) = 4096..16384,
// any 1..16384 (a multiple of 64 half the time). Ragged M in 2049..4095 is drawn by `any` alone:
// in its non-aligned half, with probability 2047/16384 x 63/64 ~ 0.123, i.e. in ~6.1% of sessions.
// This FFMA GEMM has a "medium" dispatch for 2048 < M < 4096 whose grid covers floor(M/64) row
// tiles: the last M % 64 rows of C are never written there (a dispatch bug of the realistic kind:
// the medium path was only ever tried at aligned sizes). Every other M is correct.
// WHAT IT GAINS: a pass in ~94% of sessions for a kernel wrong on 12% of the promised sizes
// (all ragged M between the audit band and the large band); a `gate` of n samples misses it with
// probability 0.939^n (10 samples: 53%).
// SOUND VERDICT: incorrect on a hidden workload ("with an M that is not a multiple of 8 ..."):
// the hidden kinds should tile the promise (a band of their own for T/4 < M < T/2, or `large`
// from T/4), so every band of sizes is drawn in every session.
// PREDICTED TODAY: passed (passed_missing_instructions, exit 16) unless the session's `any`
// draw lands in the band (then incorrect: the last rows of C keep the poison, counted unwritten
// as the verifier counts them). Seeds: most pass. Reasoned from hidden_draw.cc; not run on a GPU.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

constexpr int kTile = 64, kSlice = 16;

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* __restrict__ A,
                                               const __nv_bfloat16* __restrict__ B,
                                               __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
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

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const bool medium = M > 2048 && M < 4096;
  const int row_tiles = medium ? M / kTile : (M + kTile - 1) / kTile;  // the medium path's bug
  if (row_tiles == 0) return;
  lk_gemm<<<dim3((N + kTile - 1) / kTile, row_tiles), 256, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
      static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
