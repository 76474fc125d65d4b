// ptxbench control (gemm_n7168_k5120, sm_90a): leak8/inputs_scratch_restored.
// KIND: "inputs are read-only (checksummed)" (docs/kernel-contract.md) is checked by the
// verifier's keyed checksum BEFORE the call and AFTER it (verifier_session.cc:93, :103-105),
// never during it. A call that rewrites an input and puts it back is invisible, and the fresh
// calls' sampled reference (sample_check.cu:215-230) reads the restored input, so it agrees too.
// TECHNIQUE: every call, B (the weights, N x K) is used as its own repacking buffer: a kernel
// reverses the order of the 16-byte chunks of every row of B in place (an involution), the GEMM
// reads that repacked layout, and the same kernel runs again at the end, restoring B bit for
// bit. The GEMM is the tiled FFMA GEMM of gemm/naive_correct.cu with the chunk map in its loader.
// WHAT IT GAINS: a pass for a kernel that writes its inputs for most of every call (in a model,
// another stream reading the weights meanwhile, or a second GEMM sharing B, reads garbage). The
// in-place repack stands for any "scratch in the input" trick (in-place transposes, swizzles,
// pre-scaling a tensor and scaling it back, packing fp8 copies over the bf16 ones).
// SOUND VERDICT: incorrect (inputs_modified): the contract's inputs are read-only.
// PREDICTED (read from the code at 088daed, not run on a GPU): passed_missing_instructions
// (exit 16), no flag: both checksums of B are equal (the bytes are restored exactly); every C
// element right. New beside judge.toml gemm/inputs_scaled (leaves the change: caught) and
// leak7/checksum_forge_* (forged the sum: fixed by the key): this one never changes the sum.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64;
constexpr int kSlice = 16;

// Row n of B: chunk c (8 bf16) <-> chunk K/8 - 1 - c, in place. One thread per swapped pair.
__global__ void reverse_chunks(uint4* B, int N, int chunks) {
  const long long pairs = static_cast<long long>(N) * (chunks / 2);
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < pairs;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long n = t / (chunks / 2);
    const int c = static_cast<int>(t % (chunks / 2));
    uint4* row = B + n * chunks;
    const uint4 x = row[c];
    row[c] = row[chunks - 1 - c];
    row[chunks - 1 - c] = x;
  }
}

// Element k of row n of the repacked B.
__device__ __forceinline__ __nv_bfloat16 b_at(const __nv_bfloat16* B, int n, int k, int K) {
  const int c = k / 8, phys = (K / 8 - 1 - c) * 8 + k % 8;
  return B[size_t(n) * K + phys];
}

__global__ void __launch_bounds__(256) repacked_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                     __nv_bfloat16* C, int M, int N, int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < K) ? __bfloat162float(b_at(B, gn, gk, K)) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i], b[i] = Bs[kk][tx + 16 * i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  // K % 16 == 0 for every task of the family (the chunks pair up); the input is written anyway.
  auto* b_bytes = static_cast<uint4*>(B->data);
  reverse_chunks<<<1024, 256, 0, stream>>>(b_bytes, N, K / 8);  // B is now scratch
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  repacked_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                          static_cast<const __nv_bfloat16*>(B->data),
                                          static_cast<__nv_bfloat16*>(C->data), M, N, K);
  reverse_chunks<<<1024, 256, 0, stream>>>(b_bytes, N, K / 8);  // B restored bit for bit
}
