// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/host_memset_kept_input.
// KIND: the host write path's naming: a host write into an input of ANOTHER call (a pointer
// kept from an earlier call) is `refused` (runtime_error), while the same write into this call's
// input is `input_written` (incorrect, inputs_modified): CallExecutor::unwritable looks for
// inputs among this call's tensors only.
// TECHNIQUE: a correct FFMA GEMM; the host keeps the last timed call's A and, on a timed call
// whose A is another buffer (another slot: the timed checks alternate slots 0 and 1 after the
// hidden calls, plan.cc:238-239), cudaMemsetAsync(kept A, 0, 64).
// WHAT IT GAINS: nothing (refused before the device); a write into an input named as a refusal
// ("an earlier call's buffers ... a pointer kept from an earlier call").
// SOUND VERDICT: incorrect with inputs_modified (a host write into an input of the session), the
// same name as for this call's inputs; runtime_error acceptable.
// PREDICTED (as read at 508e93f): runtime_error (refused_request), text withheld (a call after
// the hidden ones): broker_calls.cc:340-349 finds no read-only tensor of this call overlapping,
// no writable one containing it, no workspace -> CallEnd::refused with where() (:351-360: "they
// are in input A of another call"); judge_session_peers.cc:351-353. No inputs_modified.
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
  static void* kept_a = nullptr;
  const int M = int(A->shape[0]);
  run_gemm(A, B, C, all_tiles(M), 1, stream);
  if (M != 8192) return;
  if (kept_a && kept_a != A->data) cudaMemsetAsync(kept_a, 0, 64, stream);
  kept_a = A->data;
}
