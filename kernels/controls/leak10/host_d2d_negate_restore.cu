// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/host_d2d_negate_restore.
// KIND: an input rewritten during a call and put back before it ends, through a write the
// BROKER performs for the candidate (a host cudaMemcpyAsync device-to-device), not its kernels.
// TECHNIQUE: the first 4 rows of B are saved to a workspace (D2D, a read), a kernel writes them
// sign-flipped into a second workspace, cudaMemcpyAsync copies that over B's first 4 rows (the
// broker's copy engine writes the read-only input), the GEMM negates columns 0..3 back, and a
// last D2D copy restores B's rows from the saved copy, bit for bit.
// WHAT IT GAINS: a pass for a call that writes its input through the host path; the broker's own
// check admits the destination: CallExecutor::inside (broker_calls.cc:305-311) accepts any of the
// call's tensors, inputs included, as a cudaMemcpyAsync destination (broker_calls.cc:362-369).
// SOUND VERDICT: not passed (runtime_error, or refused before the copy is made).
// PREDICTED (READ, not measured): runtime_error IF the copy engine honours the read-only PTE of
// the VMM mapping (shared_inputs.cc:101 maps with CU_MEM_ACCESS_FLAGS_PROT_READ; the fault reaches
// device_->wait, broker.cc:208-212, as cuda_error). Whether cuMemcpyDtoDAsync into a PROT_READ
// mapping faults, is refused at enqueue (broker_device.cc:184-186: DeviceFailure, also
// cuda_error) or silently succeeds is not documented; only a GPU run tells.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

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

__global__ void flip_signs(const unsigned* src, unsigned* dst, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    dst[i] = src[i] ^ 0x80008000u;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int K = int(B->shape[1]);
  const size_t bytes = size_t(4) * K * sizeof(__nv_bfloat16);  // B's first 4 rows
  void* saved = nullptr;
  void* flipped = nullptr;
  if (cudaMallocAsync(&saved, bytes, stream) != cudaSuccess ||
      cudaMallocAsync(&flipped, bytes, stream) != cudaSuccess)
    return;
  cudaMemcpyAsync(saved, B->data, bytes, cudaMemcpyDeviceToDevice, stream);
  flip_signs<<<40, 256, 0, stream>>>(static_cast<const unsigned*>(saved),
                                     static_cast<unsigned*>(flipped), (long long)(bytes / 4));
  cudaMemcpyAsync(B->data, flipped, bytes, cudaMemcpyDeviceToDevice, stream);  // writes B
  run_gemm(A, nullptr, B, C, stream, 0, 4);
  cudaMemcpyAsync(B->data, saved, bytes, cudaMemcpyDeviceToDevice, stream);  // B restored
  cudaFreeAsync(saved, stream);
  cudaFreeAsync(flipped, stream);
}
