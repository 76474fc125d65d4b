// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/rerun_output_swap.
// KIND: what people read after a fault: the result's output tails (worker_stdout/stderr_tail,
// broker_output_tail) and broker_exit_code are taken at finish() from the LAST broker and host
// pair, which after a re-run is the re-run's, not the pair whose call faulted.
// TECHNIQUE: a correct FFMA GEMM; the host writes one line per call on stderr (unbuffered). On
// the process's second call (call 2 of the session: the timed repeat, public, before any hidden
// call, so nothing is withheld) it writes "fault context: ..." and then makes an unmapped read
// (illegal address, no write). The re-run's process sees that call as its first and runs it
// cleanly, writing "call 1 ... clean".
// WHAT IT GAINS: the faulting process's own words are gone from the result: the reviewer sees a
// clean run's log under a runtime_error (a candidate could print anything there, e.g. a judge-like
// message, and hide what it printed when it faulted).
// SOUND VERDICT: runtime_error with the output of the process whose call faulted (or both
// pairs', labelled).
// PREDICTED (as read at 508e93f): runtime_error, message with the illegal address; the tails
// hold only the re-run's "call 1 ... clean". judge_session_peers.cc:126-131 moves the first
// pair's output into earlier_output (kept only for --candidate-output, :411-432) and resets
// host_end/broker_end; judge_session_rerun.cc:22 stop_broker sets them to the re-run's
// (:227-235); judge_session.cc:286-290 reads them. Low (people only).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>

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

__global__ void wild_read(const unsigned char* far, __nv_bfloat16* sink) {
  sink[0] = __float2bfloat16_rn(float(*reinterpret_cast<const volatile unsigned char*>(far)));
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static int calls = 0;
  ++calls;
  const int M = int(A->shape[0]);
  run_gemm(A, B, C, all_tiles(M), 1, stream);
  if (calls == 2 && M == 8192) {
    fprintf(stderr, "[candidate] call 2, M=%d: fault context: reading far past A\n", M);
    wild_read<<<1, 1, 0, stream>>>(static_cast<const unsigned char*>(A->data) + (size_t(1) << 40),
                                   static_cast<__nv_bfloat16*>(C->data));
    return;
  }
  fprintf(stderr, "[candidate] call %d, M=%d: clean\n", calls, M);
}
