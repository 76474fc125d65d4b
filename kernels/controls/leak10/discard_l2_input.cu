// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/discard_l2_input.
// KIND: the effect of writing an input without a store: discard.global.L2 on B's lines.
// PTX: "discard.global.L2 [a], 128" invalidates the L2 line without writing it back; its data
// becomes indeterminate (semantically a weak write of an unstable value). L2 is physically
// addressed and shared by every context: the verifier's fresh inputs, written through ITS
// read-write mapping just before the call, may still be dirty lines of L2; discarding them
// through the broker's read-only mapping would bring back what DRAM held before (zeros from
// zero_all, verifier_session.cc:170, or an earlier call's inputs), for the candidate and for
// the verifier's checksum and sampled reference after the call alike.
// TECHNIQUE: one 128-byte discard per line of B, then an honest tiled GEMM of what B reads now.
// WHAT IT GAINS: a probe: whether a read-only mapping stops the one "write" that stores nothing.
// If it does not fault and the lines were dirty, B's bytes change without any store (with a
// known older content, e.g. the previous call's B, a memo would then match the reference the
// verifier computes from the changed bytes).
// SOUND VERDICT: runtime_error (an input discarded is an input written) or, at least, the
// inputs_modified check failing.
// PREDICTED (READ, not measured), unsure which: (a) the MMU treats discard as a write ->
// runtime_error via device_->wait (broker.cc:208-212); (b) it does not and the lines were dirty
// -> B changed: the after-call checksum differs (verifier_session.cc:119-123, inputs_modified)
// -> not passed; (c) it does not and the lines were clean (written back or evicted; the
// broker's L2 flush runs before the call's work, docs/judging.md step 4) -> no effect, passed.
// Under (c), which is likely given the flush, the discard is invisible: a write-class
// instruction to a read-only input that the judge never sees.
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

__global__ void discard_lines(const char* p, long long bytes) {
  for (long long off = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) * 128;
       off + 128 <= bytes; off += static_cast<long long>(gridDim.x) * blockDim.x * 128)
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(p + off) : "memory");
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const long long bytes = static_cast<long long>(B->shape[0]) * B->shape[1] * 2;
  discard_lines<<<528, 256, 0, stream>>>(static_cast<const char*>(B->data), bytes);
  run_gemm(A, nullptr, B, C, stream, 0, 0);
}
