// ptxbench control (gemm_n7168_k5120, sm_90a): readonly/atomic_sign_flip.
// KIND: an input rewritten during a call and put back before it ends (our own control of the
// kind of leak8/inputs_scratch_restored.cu), through atomics.
// TECHNIQUE: every call flips the sign bit of every bf16 of B with atomicXor on 32-bit words
// (0x80008000), computes C = -(A (-B)^T), and flips the bits back with the same atomics at the
// end: B is restored bit for bit.
// WHAT IT GAINS: a pass for a kernel that writes its inputs (another reader of B meanwhile sees
// -B). SOUND VERDICT: not passed: with the inputs mapped read-only in the broker the atomic
// faults (runtime_error); before that (e6702bc) it passed, no flag.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 32;

__global__ void flip_signs(unsigned* words, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    atomicXor(words + i, 0x80008000u);
}

// C = -(A B^T) for the sign-flipped B (A: M x K, B: N x K), 32 x 32 tiles, fp32 sums.
__global__ void negated_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                             int M, int N, int K) {
  __shared__ float a[kTile][kTile + 1], b[kTile][kTile + 1];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0.f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    const int k = k0 + threadIdx.x, brow = blockIdx.x * kTile + threadIdx.y;
    a[threadIdx.y][threadIdx.x] = row < M && k < K ? __bfloat162float(A[size_t(row) * K + k]) : 0.f;
    b[threadIdx.y][threadIdx.x] =
        brow < N && k < K ? __bfloat162float(B[size_t(brow) * K + k]) : 0.f;
    __syncthreads();
    for (int j = 0; j < kTile; ++j) sum = fmaf(a[threadIdx.y][j], b[threadIdx.x][j], sum);
    __syncthreads();
  }
  if (row < M && col < N) C[size_t(row) * N + col] = __float2bfloat16_rn(-sum);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  auto* words = static_cast<unsigned*>(B->data);
  const long long n = static_cast<long long>(N) * K / 2;  // K is even for every task of the family
  flip_signs<<<528, 256, 0, stream>>>(words, n);          // B is now -B
  negated_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile), 0,
                 stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                           static_cast<const __nv_bfloat16*>(B->data),
                           static_cast<__nv_bfloat16*>(C->data), M, N, K);
  flip_signs<<<528, 256, 0, stream>>>(words, n);  // B restored bit for bit
}
