// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/host_h2d_row_restore.
// KIND: an input rewritten during a call and put back before it ends, through a host-to-device
// copy the broker performs for the candidate (cuMemcpyHtoDAsync, broker_device.cc:179-182).
// TECHNIQUE: the host reads A's row 0 (cudaMemcpyAsync device-to-host: a synchronous request to
// the broker, shim_memory.cc:1-5), flips every sign on the host, writes the row back into A
// (H2D), the GEMM negates row 0 of C, and a second H2D copy puts the original bytes back.
// WHAT IT GAINS: the input as host-edited scratch (a pre-pass done on the CPU, invisible to the
// checksums taken before and after the call); the broker's check admits an input as the
// destination (broker_calls.cc:354-360 through inside(), broker_calls.cc:305-311).
// SOUND VERDICT: not passed (runtime_error, or the copy refused).
// PREDICTED (READ, not measured): runtime_error if the copy engine's write to the PROT_READ VMM
// mapping (shared_inputs.cc:101) faults; the H2D copy goes through a pinned staging buffer of the
// driver and a CE write, whose permission check on a read-only mapping is not documented.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

constexpr int kTile = 32;

// C = A B^T (A: M x K, B: N x K), 32 x 32 tiles, fp32 sums; row 0 of A read from `a0` when set;
// the outputs of columns below neg_cols and of rows below neg_rows are negated.
__global__ void tiled_gemm(const __nv_bfloat16* A, const __nv_bfloat16* a0, const __nv_bfloat16* B,
                           __nv_bfloat16* C, int M, int N, int K, int neg_rows, int neg_cols) {
  __shared__ float a[kTile][kTile + 1], b[kTile][kTile + 1];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  const __nv_bfloat16* arow = row == 0 && a0 ? a0 : A + size_t(row) * K;
  float sum = 0.f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    const int k = k0 + threadIdx.x, brow = blockIdx.x * kTile + threadIdx.y;
    a[threadIdx.y][threadIdx.x] = row < M && k < K ? __bfloat162float(arow[k]) : 0.f;
    b[threadIdx.y][threadIdx.x] =
        brow < N && k < K ? __bfloat162float(B[size_t(brow) * K + k]) : 0.f;
    __syncthreads();
    for (int j = 0; j < kTile; ++j) sum = fmaf(a[threadIdx.y][j], b[threadIdx.x][j], sum);
    __syncthreads();
  }
  if (row < neg_rows || col < neg_cols) sum = -sum;
  if (row < M && col < N) C[size_t(row) * N + col] = __float2bfloat16_rn(sum);
}

void run_gemm(const DLTensor* A, const __nv_bfloat16* a0, const DLTensor* B, DLTensor* C,
              cudaStream_t stream, int neg_rows, int neg_cols) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  tiled_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile), 0,
               stream>>>(static_cast<const __nv_bfloat16*>(A->data), a0,
                         static_cast<const __nv_bfloat16*>(B->data),
                         static_cast<__nv_bfloat16*>(C->data), M, N, K, neg_rows, neg_cols);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int K = int(A->shape[1]);
  const size_t bytes = size_t(K) * sizeof(__nv_bfloat16);
  static unsigned short* saved = nullptr;
  static unsigned short* flipped = nullptr;
  static size_t have = 0;
  if (have < bytes) {
    free(saved);
    free(flipped);
    saved = static_cast<unsigned short*>(malloc(bytes));
    flipped = static_cast<unsigned short*>(malloc(bytes));
    have = bytes;
  }
  if (cudaMemcpyAsync(saved, A->data, bytes, cudaMemcpyDeviceToHost, stream) != cudaSuccess) return;
  for (int k = 0; k < K; ++k) flipped[k] = saved[k] ^ 0x8000u;
  cudaMemcpyAsync(A->data, flipped, bytes, cudaMemcpyHostToDevice, stream);  // writes A's row 0
  run_gemm(A, nullptr, B, C, stream, 1, 0);
  cudaMemcpyAsync(A->data, saved, bytes, cudaMemcpyHostToDevice, stream);  // A restored
}
