// ptxbench isolation control (gemm_n7168_k5120, sm_90a): free_harness_tensor.
//
// Kind: workspace operations on memory that is not the candidate's workspace. cudaFreeAsync is
// allowed for what the candidate took with cudaMallocAsync; on its first call, after enqueuing
// its correct GEMM, this control asks cudaFreeAsync to free B, the harness's input tensor (a
// broker that frees it would hand the trusted side's memory back to the pool, where a later
// allocation of the candidate could reach it). The broker must refuse: runtime_error. A call 2
// reaching the process after a free that answered success means it was taken or silently
// dropped: ESCAPE. A free refused with an error (as the runtime refuses a pointer it did not
// allocate) is a sound answer too: then the session may go on (passed).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---- The GEMM this control computes honestly, so an attack nobody notices ends as "passed":
// C[M,N] = A[M,K] * B[N,K]^T, bf16 in and out, fp32 accumulation on CUDA cores. One 256-thread
// block owns a 64 x 128 tile of C; k advances 16 at a time through shared memory, A and B read
// as bf16 pairs along k; thread t owns rows (t / 16) + 16 i (i < 4) and columns (t % 16) + 16 j
// (j < 8). Every row and column past the edge is masked: correct for any M >= 1 (and any K).
namespace gemm {

constexpr int kRows = 64, kCols = 128, kDepth = 16, kThreads = 256;

__device__ __forceinline__ void load_pair(const __nv_bfloat16* src, size_t row_base, int gk, int K,
                                          bool row_ok, float& lo, float& hi) {
  lo = hi = 0.f;
  if (!row_ok || gk >= K) return;
  if ((K & 1) == 0) {  // gk even and K even: the pair lies inside the row, 4-byte aligned
    const __nv_bfloat162 v = *reinterpret_cast<const __nv_bfloat162*>(src + row_base + gk);
    lo = __low2float(v);
    hi = __high2float(v);
  } else {
    lo = __bfloat162float(src[row_base + gk]);
    if (gk + 1 < K) hi = __bfloat162float(src[row_base + gk + 1]);
  }
}

__global__ void __launch_bounds__(kThreads)
    tile_gemm_bt(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                 __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float a_tile[kDepth][kRows + 1];
  __shared__ float b_tile[kDepth][kCols + 1];
  const int t = threadIdx.x, cx = t % 16, ry = t / 16;
  const int m0 = blockIdx.y * kRows, n0 = blockIdx.x * kCols;
  float acc[4][8];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += kDepth) {
    for (int e = t; e < kRows * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(A, size_t(m0 + r) * K, k0 + kp, K, m0 + r < M, lo, hi);
      a_tile[kp][r] = lo;
      a_tile[kp + 1][r] = hi;
    }
    for (int e = t; e < kCols * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(B, size_t(n0 + r) * K, k0 + kp, K, n0 + r < N, lo, hi);
      b_tile[kp][r] = lo;
      b_tile[kp + 1][r] = hi;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kDepth; ++k) {
      float a[4], b[8];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = a_tile[k][ry + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j) b[j] = b_tile[k][cx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int m = m0 + ry + 16 * i, n = n0 + cx + 16 * j;
      if (m < M && n < N) C[size_t(m) * N + n] = __float2bfloat16_rn(acc[i][j]);
    }
}

struct Shape {
  int M, N, K;
};

inline Shape shape_of(const DLTensor* A, const DLTensor* B) {
  return Shape{int(A->shape[0]), int(B->shape[0]), int(A->shape[1])};
}

inline void run(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const Shape s = shape_of(A, B);
  const dim3 grid((s.N + kCols - 1) / kCols, (s.M + kRows - 1) / kRows);
  tile_gemm_bt<<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                              static_cast<const __nv_bfloat16*>(B->data),
                                              static_cast<__nv_bfloat16*>(C->data), s.M, s.N, s.K);
}

}  // namespace gemm


namespace {

unsigned g_calls = 0;
bool g_done = false;
bool g_free_answered_success = false;

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  if (g_calls == 2 && g_done && g_free_answered_success)
    fprintf(stderr, "PTXBENCH-ESCAPE free_harness_tensor: call 2 reached the host after "
                    "cudaFreeAsync of the input tensor B\n");
  gemm::run(A, B, C, stream);
  if (!g_done) {
    g_done = true;
    const cudaError_t e = cudaFreeAsync(B->data, stream);
    g_free_answered_success = e == cudaSuccess;
    fprintf(stderr, "PTXBENCH-PROBE free_harness_tensor: cudaFreeAsync(B = %p) answered %s\n", B->data,
            cudaGetErrorName(e));
  }
}
