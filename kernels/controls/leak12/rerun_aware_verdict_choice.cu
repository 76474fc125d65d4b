// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/rerun_aware_verdict_choice.
// KIND: the candidate tells the re-run from its session and picks the verdict's class from a
// hidden size. A normal host process's first call is always on the timed workload
// (plan.cc:232: M 8192); the re-run's process starts with the faulted call, so a first call of
// another M is the re-run of a hidden call.
// TECHNIQUE: a correct FFMA GEMM on every call. In its session, on the first hidden call, a
// read 1 TiB past A (unmapped: an illegal address, no write). In the re-run (first call of the
// process, M != 8192): B's last row halved when M is odd (inputs_modified), nothing else when
// M is even (the re-run passes, the fault stands).
// WHAT IT GAINS: one bit of the hidden M in the verdict's class (incorrect + inputs_modified vs
// runtime_error). No more than before the re-run: a hidden call could always choose runtime_error
// (fault) against incorrect (wrong values) against timeout; messages stay withheld.
// SOUND VERDICT: a failure whose text names no hidden size (incorrect/inputs_modified or
// runtime_error); never passed, never harness_error.
// PREDICTED (as read at 508e93f): M odd: incorrect, inputs_modified, message "a call on a hidden
// workload: the kernel changed an input tensor ... (the call faulted ...)" (session_decision.cc
// :186-205 quiet), labels in withheld; M even: runtime_error, withheld text
// (judge_session_peers.cc:303-320). No new channel: information.
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

__global__ void halve_row(__nv_bfloat16* row, int K) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < K; k += gridDim.x * blockDim.x)
    row[k] = __float2bfloat16_rn(__bfloat162float(row[k]) * 0.5f);
}

// One load from an address nothing maps (an illegal address), its value kept in C.
__global__ void wild_read(const unsigned char* far, __nv_bfloat16* sink) {
  sink[0] = __float2bfloat16_rn(float(*reinterpret_cast<const volatile unsigned char*>(far)));
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static int calls = 0;
  ++calls;
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  run_gemm(A, B, C, all_tiles(M), 1, stream);
  if (M == 8192) return;
  if (calls == 1) {  // the re-run of a hidden call
    if (M & 1)
      halve_row<<<8, 256, 0, stream>>>(static_cast<__nv_bfloat16*>(B->data) + size_t(N - 1) * K, K);
    return;
  }
  wild_read<<<1, 1, 0, stream>>>(static_cast<const unsigned char*>(A->data) + (size_t(1) << 40),
                                 static_cast<__nv_bfloat16*>(C->data));
}
