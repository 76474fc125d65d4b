// ptxbench control (gemm_n7168_k5120, sm_90a): poison_gated.
// Kind (ptxbench issue 12): computes only when its outputs hold the poison pattern. A one-warp
// kernel reads 32 elements of C spread over the whole matrix; only when every one of them is a
// NaN (the pattern a harness writes before a checked call) does the FFMA GEMM run. Otherwise C is
// assumed to hold the previous call's result and is left as it is, and a one-thread kernel waits
// as long as a ~700 TFLOP/s GEMM would. A harness that poisons only its checked calls with NaN
// sees a correct kernel and times the skipped calls.
// What a trustworthy judge must say: incorrect. The judge poisons before every call, with a
// per-call random poison that is not always a NaN, so a call whose poison is finite is skipped
// and its outputs are the poison. wgmma and tma absent.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

// Plain tiled GEMM C = A * B^T: 64x64 output tile per 256-thread block, 16-deep k slices staged
// in shared memory as fp32, each thread accumulates a 4x4 block in fp32 registers (FFMA).
// Rows at or past m_end are not written.
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_end, int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
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
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < m_end && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

// The whole GEMM; with gated != 0 it is skipped when g_skip_gemm != 0 (a device flag that an
// earlier kernel on the same stream sets).
__device__ int g_skip_gemm = 0;

__global__ void __launch_bounds__(256)
    naive_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N,
               int K, int m_end, int gated) {
  if (gated && g_skip_gemm) return;
  naive_tile(A, B, C, M, N, K, m_end, blockIdx.y, blockIdx.x);
}

void launch_naive(const DLTensor* A, const DLTensor* B, DLTensor* C, int m_end, int gated,
                  cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  naive_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K, m_end, gated);
}

__device__ int g_poisoned = 0;

__global__ void probe_poison(const uint16_t* C, long long n) {
  const long long i = (n - 1) * threadIdx.x / 31;  // 32 samples from C[0] to C[n-1]
  const uint16_t v = C[i];
  const bool nan = (v & 0x7F80u) == 0x7F80u && (v & 0x007Fu) != 0;
  const bool all = __all_sync(0xffffffffu, nan);
  if (threadIdx.x == 0) {
    g_poisoned = all ? 1 : 0;
    g_skip_gemm = all ? 0 : 1;
  }
}

__global__ void pace_skip(unsigned long long ns) {
  if (g_poisoned) return;
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const long long M = A->shape[0], K = A->shape[1], N = B->shape[0];
  probe_poison<<<1, 32, 0, stream>>>(static_cast<const uint16_t*>(C->data), M * N);
  launch_naive(A, B, C, int(M), /*gated=*/1, stream);
  pace_skip<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(2.0 * M * N * K / 700e12 * 1e9));
}
