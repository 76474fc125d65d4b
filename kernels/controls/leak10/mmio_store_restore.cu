// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/mmio_store_restore.
// KIND: an input rewritten during a call and restored before it ends, through st.mmio (the
// sm_70+ MMIO store: .relaxed, .sys scope, not combined or cached), a store class the readonly
// controls did not measure (they used weak stores, atomics and bulk stores).
// TECHNIQUE: every 32-bit word of A's row 0 gets its two signs flipped with ld + st.mmio.relaxed
// .sys.global, the GEMM negates C's row 0, and the same kernel flips the row back.
// WHAT IT GAINS: a pass for an input written by a store whose path (MMIO ordering, no L1) might
// be checked differently; none if the PTE decides, as it should.
// SOUND VERDICT: not passed: runtime_error.
// PREDICTED (READ, not measured): runtime_error: the permission is the page's
// (shared_inputs.cc:101, CU_MEM_ACCESS_FLAGS_PROT_READ), whatever the store's ordering or
// caching; the broker reports the fault at its wait (broker.cc:208-212). Regression: hole false.
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

__global__ void flip_row(unsigned* words, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned w = words[i] ^ 0x80008000u;
    asm volatile("st.mmio.relaxed.sys.global.u32 [%0], %1;" ::"l"(words + i), "r"(w) : "memory");
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  auto* row = static_cast<unsigned*>(A->data);
  const int n = int(A->shape[1] / 2);
  flip_row<<<10, 256, 0, stream>>>(row, n);  // A's row 0 is now -row
  run_gemm(A, nullptr, B, C, stream, 1, 0);
  flip_row<<<10, 256, 0, stream>>>(row, n);  // restored bit for bit
}
