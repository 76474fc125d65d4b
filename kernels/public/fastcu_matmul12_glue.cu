// ptxbench glue for fast.cu's kernel 12 (examples/matmul/matmul_12.cuh, namespace M12; our code).
// scripts/public-kernels.sh appends it after the patched public source (kernels/public/README.md).
//
// The public host function, after kernels/public/fastcu_matmul12.patch:
//   M12::runKernel12(M, N, K, A, B, C, DB, stream)      (DB is unused)
// computes, in its own naming, C = A * B with A row-major [M][K], B given as [N][K] and C
// written COLUMN-major (its TMA store map is C as [N][M], row-major). Warp-specialised: one
// producer warpgroup issues the TMA loads (multicast across a cluster of 2 CTAs), two consumer
// warpgroups run wgmma m64n256k16 on 128x256 tiles, 128 persistent CTAs walk a Hilbert-curve
// schedule computed on the host, results leave through stmatrix and a TMA store.
//
// ptxbench's gemm tasks want C[M][N] = A[M][K] * B[N][K]^T, row-major: runKernel12(N, M, K, B,
// A, C) writes exactly that (the column-major product of the swapped operands). Its
// requirements in its own naming: (M / 128) % 2 == 0 (a device assert: the cluster pairs tiles
// along M) and M, K multiples of 64 (host asserts on the tensor maps' widths); its N (the
// task's M) is free: the schedule covers ceil(N / 256) tiles, the TMA loads fill rows past N
// with zeros and the TMA store drops them. So the task's N must be a multiple of 256 and K of
// 64 (gemm_n7168_k5120: 7168 = 28 * 256, 5120 = 80 * 64), and any M >= 1 works; other shapes
// go to the plain kernel below entirely.
#include <dlpack/dlpack.h>

// C[m][n] for m0 <= m < m1 and every n: one warp per column n (lanes split K), fp32
// accumulation (only for shapes the public kernel does not take).
__global__ void pubglue_gemm_rows(const bf16* __restrict__ A, const bf16* __restrict__ B,
                                  bf16* __restrict__ C, int m0, int m1, int N, int K) {
  const int n = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32);
  const int lane = threadIdx.x % 32;
  if (n >= N) return;
  const bf16* b = B + (size_t)n * K;
  for (int m = m0; m < m1; ++m) {
    const bf16* a = A + (size_t)m * K;
    float acc = 0.f;
    for (int k = lane; k < K; k += 32) acc += __bfloat162float(a[k]) * __bfloat162float(b[k]);
    for (int off = 16; off > 0; off /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) C[(size_t)m * N + n] = __float2bfloat16_rn(acc);
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = (int)A->shape[0], K = (int)A->shape[1], N = (int)B->shape[0];
  bf16* a = static_cast<bf16*>(A->data);
  bf16* b = static_cast<bf16*>(B->data);
  bf16* c = static_cast<bf16*>(C->data);

  if (N % 256 == 0 && K % 64 == 0) {
    M12::runKernel12(N, M, K, b, a, c, /*DB=*/nullptr, stream);
  } else {
    const int threads = 256;
    const int blocks = (int)(((size_t)N * 32 + threads - 1) / threads);
    pubglue_gemm_rows<<<blocks, threads, 0, stream>>>(a, b, c, 0, M, N, K);
  }
}
