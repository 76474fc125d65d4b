// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/kept_pointer_other_slot_write.
// KIND: naming of the re-run: a device write into an input of ANOTHER call (a pointer the host
// kept) faults; the re-run is one call in a fresh process, which holds no kept pointer, so the
// write is never made again and never named.
// TECHNIQUE: a correct FFMA GEMM on every call; the host keeps the previous call's B pointer and,
// when this call's B is another buffer (the first hidden check: each hidden workload has its own
// slot, plan.cc:232-236), halves the last row of the KEPT B (timed slot 0's input, read-only).
// WHAT IT GAINS: nothing it keeps (the session fails); it shows which writes the re-run can
// name: only those the faulted call repeats, in its own process state, into its own slot.
// SOUND VERDICT: a failure: incorrect with inputs_modified (a write into a session input) is
// the exact name; runtime_error (the fault) acceptable. Never passed, never harness_error.
// PREDICTED (as read at 508e93f): runtime_error, text withheld (a hidden call). The first hidden
// check faults (an illegal address: read-only B of slot 0); judge_session.cc:130-135 ->
// judge_session_rerun.cc:21 the re-run's host process starts with kept == nullptr, the GEMM is
// right, verify finds this call's inputs unchanged (verifier_session.cc:115-124), :26-29 keeps
// nothing, the fault's runtime_error stands. Had the re-run written slot 0's B, only the checked
// slot's checksums are read: still runtime_error.
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

// row[k] *= 0.5 for k < K.
__global__ void halve_row(__nv_bfloat16* row, int K) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < K; k += gridDim.x * blockDim.x)
    row[k] = __float2bfloat16_rn(__bfloat162float(row[k]) * 0.5f);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static void* kept_b = nullptr;
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  run_gemm(A, B, C, all_tiles(M), 1, stream);
  if (kept_b && kept_b != B->data)  // another call's B, still mapped in this broker
    halve_row<<<8, 256, 0, stream>>>(static_cast<__nv_bfloat16*>(kept_b) + size_t(N - 1) * K, K);
  kept_b = B->data;
}
