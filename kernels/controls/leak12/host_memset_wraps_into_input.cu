// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/host_memset_wraps_into_input.
// KIND: the host write path's naming with a huge count: a cudaMemsetAsync that starts inside C
// and whose count wraps past 2^64 round to A. DeviceRegion::overlaps (broker_calls.h:70-72) is
// exact for a range that starts below a tensor; a range that starts above it and wraps is not
// seen to reach it, so the request is `refused` (runtime_error), not `input_written`.
// TECHNIQUE: a correct FFMA GEMM; then, on the process's first call (call 1 of the session, a
// public call whose text is shown), one cudaMemsetAsync(C, 0, n): with A below C, n = 2^64 - C +
// A + 64 (C + n wraps to A + 64: A's first 64 bytes inside the range); with A above C,
// n = A - C + 64 (a plain overlap, for comparison).
// WHAT IT GAINS: nothing (the device never sees the memset); the verdict's NAME depends on the
// address order: inputs_modified one way, a refusal ("memory it does not own") the other.
// SOUND VERDICT: incorrect with inputs_modified (a host request that reaches into A), runtime_error
// (refused) acceptable: both refuse it before the device.
// PREDICTED (as read at 508e93f): A below C (map_slot maps A, B, then opens C: broker_slots.cc
// :37-45, ascending reservations assumed): runtime_error, "the judge refused a request ...
// cudaMemsetAsync of 1844674... bytes at 0x..., which are not inside this call's tensors"
// (broker_calls.cc:341-349 overlaps false, contains false; judge_session_peers.cc:351-353). A
// above C: incorrect, inputs_modified (broker_calls.cc:341-344; judge_session_peers.cc:343, :312).
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
  static int calls = 0;
  run_gemm(A, B, C, all_tiles(int(A->shape[0])), 1, stream);
  if (++calls != 1) return;
  const uint64_t a = reinterpret_cast<uintptr_t>(A->data);
  const uint64_t c = reinterpret_cast<uintptr_t>(C->data);
  const uint64_t n = a < c ? (uint64_t(0) - c) + a + 64 : a - c + 64;  // wraps when a < c
  cudaMemsetAsync(C->data, 0, size_t(n), stream);
}
