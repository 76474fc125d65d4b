// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/input_write_late_call.
// KIND: a write to an input only in later calls (from the 3rd call of the process on), when a
// kernel might guess the correctness checks are over and only timing remains.
// TECHNIQUE: calls 1-2 run an honest tiled GEMM; from call 3 on, B's signs are flipped in place
// with atomicXor (0x80008000 per word), C = -(A (-B)^T), and flipped back: B restored.
// WHAT IT GAINS: none if every call can fault; it checks that the fault is reported on whichever
// call it happens and that no call kind (timed, loaded, audited) swallows it.
// SOUND VERDICT: runtime_error (every call is checked: docs/judging.md, "every candidate call,
// checked, timed or audited, is a burst of one").
// PREDICTED (READ, not measured): runtime_error on the 3rd call: the atomics fault on the
// PROT_READ mapping (shared_inputs.cc:101; atomics measured faulting on an H100,
// readonly/atomic_sign_flip.cu), the broker's wait reports it (broker.cc:208-212), and every
// call of a session is a checked burst of one. A regression control: hole false.
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

__global__ void flip_signs(unsigned* words, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    atomicXor(words + i, 0x80008000u);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static int calls = 0;
  if (++calls < 3) {
    run_gemm(A, nullptr, B, C, stream, 0, 0);
    return;
  }
  auto* words = static_cast<unsigned*>(B->data);
  const long long n = B->shape[0] * B->shape[1] / 2;
  flip_signs<<<528, 256, 0, stream>>>(words, n);  // B is now -B
  run_gemm(A, nullptr, B, C, stream, 1 << 30, 0);
  flip_signs<<<528, 256, 0, stream>>>(words, n);  // B restored
}
