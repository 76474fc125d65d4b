// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/tail_overrun_honest.
// KIND: naming of an honest bug: a GEMM whose epilogue does not guard M stores up to 63 rows
// (up to 903 KB) past C's end on a ragged M. C's tensor sits at the end of its 2 MiB-granular
// allocation (DeviceBuffer::exported_offset), so the rows land in whatever the broker mapped
// next: nothing (a fault), another slot's read-only input (a fault), another slot's output (no
// fault), or in the re-run a writable input. It must never be told it wrote its inputs.
// TECHNIQUE: the FFMA GEMM with guard_m = 0: reads of A past M are guarded (zeros), stores are
// not; the timed M 8192 is a multiple of 64 (no overrun), a ragged hidden M overruns.
// WHAT IT GAINS: nothing; an honest bug, to check the re-run's name for it.
// SOUND VERDICT: runtime_error (an out-of-bounds store) when it faults; never incorrect with
// inputs_modified unless the stray rows land in this call's own A or B.
// PREDICTED (as read at 508e93f): runtime_error, text withheld (the first ragged hidden check).
// map_slot (broker_slots.cc:37-45) maps A, B, then opens C, slot after slot and workload after
// workload; with ascending addresses the overrun reaches the next workload's A (read-only:
// fault), in the re-run that A is writable and unchecked (only the call's own slot is verified,
// verifier_session.cc:115-124): judge_session_rerun.cc:26-29 keeps nothing. If the driver
// placed C's mapping right below this slot's A or B, the re-run names inputs_modified for an
// honest out-of-bounds store (mislabel): unsure, the GPU shows the layout.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

// C = A * B^T in FFMA: a 64x64 tile of C per 256-thread block, K in 16-deep slices staged in
// shared memory as fp32, a 4x4 fp32 accumulator per thread. guard_m != 0: rows >= M unstored.
constexpr int kBM = 64;
constexpr int kBN = 64;
constexpr int kBK = 16;

__global__ void __launch_bounds__(256)
    ffma_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
              int guard_m) {
  __shared__ float sa[kBK][kBM + 1];
  __shared__ float sb[kBK][kBN + 1];
  const int tr = threadIdx.x / 16, tc = threadIdx.x % 16;
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    for (int i = threadIdx.x; i < kBM * kBK; i += blockDim.x) {
      const int r = i / kBK, kk = i % kBK, kc = k0 + kk;
      const int ar = row0 + r, br = col0 + r;
      sa[kk][r] = (ar < M && kc < K) ? __bfloat162float(A[size_t(ar) * K + kc]) : 0.f;
      sb[kk][r] = (br < N && kc < K) ? __bfloat162float(B[size_t(br) * K + kc]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = sa[kk][tr + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = sb[kk][tc + 16 * j];
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
      const int r = row0 + tr + 16 * i, c = col0 + tc + 16 * j;
      if ((!guard_m || r < M) && c < N) C[size_t(r) * N + c] = __float2bfloat16_rn(acc[i][j]);
    }
}

// rows_of_tiles: how many 64-row tiles of C to compute.
void run_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, int rows_of_tiles, int guard_m,
              cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  if (rows_of_tiles <= 0) return;
  const dim3 grid((N + kBN - 1) / kBN, rows_of_tiles);
  ffma_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                      static_cast<const __nv_bfloat16*>(B->data),
                                      static_cast<__nv_bfloat16*>(C->data), M, N, K, guard_m);
}

int all_tiles(int M) {
  return (M + kBM - 1) / kBM;
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  run_gemm(A, B, C, all_tiles(int(A->shape[0])), /*guard_m=*/0, stream);
}
