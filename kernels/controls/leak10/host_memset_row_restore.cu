// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/host_memset_row_restore.
// KIND: an input rewritten during a call and put back before it ends, through cudaMemsetAsync,
// which the broker performs as cuMemsetD8Async (broker_device.cc:174-177).
// TECHNIQUE: A's row 0 is saved to a workspace (D2D, a read), zeroed in place by a memset (A's
// row 0 is the scratch: its zeros are the GEMM's "row done" marker), the GEMM reads row 0 from
// the saved copy, and a D2D copy restores A's row 0 bit for bit.
// WHAT IT GAINS: the input as scratch through the third host write path (memset), which the
// broker's inside() admits for an input (broker_calls.cc:347-352, 305-311).
// SOUND VERDICT: not passed (runtime_error, or the memset refused).
// PREDICTED (READ, not measured): runtime_error if the driver's memset (a copy-engine or internal
// kernel write) faults on the PROT_READ mapping (shared_inputs.cc:101); not documented for VMM.
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
  void* saved = nullptr;
  if (cudaMallocAsync(&saved, bytes, stream) != cudaSuccess) return;
  cudaMemcpyAsync(saved, A->data, bytes, cudaMemcpyDeviceToDevice, stream);
  cudaMemsetAsync(A->data, 0, bytes, stream);  // writes A's row 0
  run_gemm(A, static_cast<const __nv_bfloat16*>(saved), B, C, stream, 0, 0);
  cudaMemcpyAsync(A->data, saved, bytes, cudaMemcpyDeviceToDevice, stream);  // A restored
  cudaFreeAsync(saved, stream);
}
